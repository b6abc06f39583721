// Store ids for observers (MemoryModel::last_read_source / last_store_id): each store gets
// the next number when it is performed; 0 names a location's initial value.
#pragma once

#include "fencelab/machine/ids.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fencelab {

class StoreIds {
public:
  void reset() {
    m_next = 1;
    // Zeroed, not emptied: emptied, each execution grew them again slot by slot.
    std::fill(m_by_slot.begin(), m_by_slot.end(), Ids{});
  }
  uint64_t next() { return m_next++; }
  void note_read(ThreadSlot t, uint64_t id) { at(t).read = id; }
  void note_store(ThreadSlot t, uint64_t id) { at(t).stored = id; }
  uint64_t last_read(ThreadSlot t) const { return t.value < m_by_slot.size() ? m_by_slot[t.value].read : 0; }
  uint64_t last_store(ThreadSlot t) const { return t.value < m_by_slot.size() ? m_by_slot[t.value].stored : 0; }
  /** Starts loading a slot's ids into the caches (MemoryModel::prefetch_thread). */
  void prefetch(ThreadSlot t) const {
    if (t.value < m_by_slot.size()) __builtin_prefetch(&m_by_slot[t.value], 1);
  }

private:
  /** A slot's latest read and store side by side: an event notes one and its observers read
   *  it back at once, and a large grid's events find a slot's ids cold. */
  struct Ids {
    uint64_t read = 0;
    uint64_t stored = 0;
  };
  Ids& at(ThreadSlot t) {
    if (t.value >= m_by_slot.size()) m_by_slot.resize(t.value + 1);
    return m_by_slot[t.value];
  }
  uint64_t m_next = 1;
  std::vector<Ids> m_by_slot;
};

} // namespace fencelab
