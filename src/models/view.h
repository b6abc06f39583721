// A view (DESIGN "Memory models", gpu): for each location, the oldest entry of its history a
// thread may still read. Locations not listed are at entry 0, the initial value. Views only
// grow: reads and synchronization raise entries, never lower them.
//
// Representation: an immutable sorted base shared between views, plus the view's own sorted
// raises above it. A barrier gives its participants one joined view; they then share its base
// (a pointer each) and each collects only what it reads afterwards, so the next barrier joins
// the participants' small deltas onto the common base instead of merging and copying every
// thread's full view (a block of 256 threads copied 256 full views per barrier; issue 12).
//
// The base's sharing count is not atomic (boost::local_shared_ptr): a view belongs to one
// model, and a model to one search job (`run --jobs` creates a model per job). A barrier
// hands the joined base to every participant, releasing each one's old base: with
// std::shared_ptr that was two locked read-modify-writes per participant.
#pragma once

#include "fencelab/machine/location.h"

#include <boost/smart_ptr/local_shared_ptr.hpp>
#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace fencelab {

class View {
public:
  using Entries = std::vector<std::pair<uint64_t, uint32_t>>; ///< sorted by location key, indexes > 0

  /** The oldest readable entry of `location` (0 when the view says nothing of it). */
  uint32_t get(Location location) const;
  /** Raises the entry for `location` to at least `index`. */
  void raise(Location location, uint32_t index);
  /** Raises every entry to at least the other view's (pointwise maximum). */
  void join(const View& other);
  /** join(*v) for every v in `views`, in time proportional to their own raises: the views
   *  that share this one's base (a block's threads between two barriers) have their raises
   *  gathered and sorted once, where joining them one by one merged each into a list that
   *  grows with every participant (quadratic in the block's size; issue 12). */
  void join_all(std::span<const View* const> views);
  /** Makes the whole view the shared base, so that copies of it share their entries. */
  void share();
  /** Becomes a copy of `shared`, a view just shared (share): its base, no raises of its own
   *  (whose memory is kept for the next ones). */
  void assign_shared(const View& shared) {
    assert(shared.m_own.empty());
    m_base = shared.m_base;
    m_own.clear();
  }
  void clear() {
    m_base.reset();
    m_own.clear();
  }
  bool empty() const { return !m_base && m_own.empty(); }
  /** Every (location key, index) pair, in key order. */
  Entries entries() const;

private:
  boost::local_shared_ptr<const Entries> m_base; ///< null: empty
  Entries m_own;                                 ///< raises above the base
};

} // namespace fencelab
