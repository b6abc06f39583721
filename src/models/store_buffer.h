// A thread's store buffer (DESIGN "Memory models"): stores wait here, in program order, until
// they drain to their location's history.
//  - tso: only the oldest entry may drain (FIFO, as x86-TSO's buffers).
//  - gpu: entries for different locations drain in any order; entries for one location drain
//    in program order, so the drainable entries are the oldest one of each location.
// A load by the owning thread sees its own newest buffered store to the location.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/location.h"

#include <optional>
#include <vector>

namespace fencelab {

enum class DrainOrder : uint8_t { Fifo, PerLocation };

struct BufferedStore {
  Location location;
  Word value = 0;
  uint64_t id = 0; ///< the store's id (store_ids.h)
  friend bool operator==(const BufferedStore&, const BufferedStore&) = default;
};

class StoreBuffer {
public:
  void push(Location location, Word value, uint64_t id = 0) {
    if (!contains(location)) ++m_locations;
    m_entries.push_back({location, value, id});
  }
  /** The newest buffered store to `location`, if any. */
  std::optional<Word> newest(Location location) const;
  bool contains(Location location) const { return newest(location).has_value(); }
  bool empty() const { return m_entries.empty(); }
  size_t size() const { return m_entries.size(); }
  const std::vector<BufferedStore>& entries() const { return m_entries; }

  /** Positions (into entries()) of the stores allowed to drain next, oldest first. */
  void drainable(DrainOrder order, std::vector<uint32_t>& out) const;
  /** How many entries drainable() names, without listing them: one per location written, kept
   *  as entries come and go (the scheduler asks it at every step). */
  uint32_t drainable_count(DrainOrder order) const {
    if (m_entries.empty()) return 0;
    return order == DrainOrder::Fifo ? 1 : m_locations;
  }
  /** The position of the `k`-th drainable entry (k < drainable_count(order)). */
  uint32_t drainable_position(DrainOrder order, uint32_t k) const;
  /** Removes and returns the entry at `position` (which must be drainable). */
  BufferedStore take(uint32_t position);
  /** Removes every buffered store (to `location` only, if given) and appends it to `out`,
   *  oldest first. Neither this buffer nor `out` gives its memory back: no allocation in the
   *  steady state (issue 12). */
  void take_all(std::vector<BufferedStore>& out, std::optional<Location> location = std::nullopt);
  void clear() {
    m_entries.clear();
    m_locations = 0;
  }

private:
  /** Whether no older entry has the same location (under PerLocation order, it may drain). */
  bool oldest_of_its_location(uint32_t position) const;
  std::vector<BufferedStore> m_entries; ///< program order, oldest first
  uint32_t m_locations = 0;             ///< distinct locations among m_entries
};

} // namespace fencelab
