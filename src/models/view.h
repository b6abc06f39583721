// A view (DESIGN "Memory models", gpu): for each location, the oldest entry of its history a
// thread may still read. Locations not listed are at entry 0, the initial value. Views only
// grow: reads and synchronization raise entries, never lower them.
#pragma once

#include "fencelab/machine/location.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace fencelab {

class View {
public:
  /** The oldest readable entry of `location` (0 when the view says nothing of it). */
  uint32_t get(Location location) const;
  /** Raises the entry for `location` to at least `index`. */
  void raise(Location location, uint32_t index);
  /** Raises every entry to at least the other view's (pointwise maximum). */
  void join(const View& other);
  void clear() { m_entries.clear(); }
  bool empty() const { return m_entries.empty(); }
  size_t size() const { return m_entries.size(); }
  /** (location key, index) pairs in key order. */
  const std::vector<std::pair<uint64_t, uint32_t>>& entries() const { return m_entries; }

  friend bool operator==(const View&, const View&) = default;

private:
  std::vector<std::pair<uint64_t, uint32_t>> m_entries; ///< sorted by key, indexes > 0
};

} // namespace fencelab
