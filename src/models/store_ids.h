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
    std::fill(m_read.begin(), m_read.end(), 0);
    std::fill(m_stored.begin(), m_stored.end(), 0);
  }
  uint64_t next() { return m_next++; }
  void note_read(ThreadSlot t, uint64_t id) { at(m_read, t) = id; }
  void note_store(ThreadSlot t, uint64_t id) { at(m_stored, t) = id; }
  uint64_t last_read(ThreadSlot t) const { return t.value < m_read.size() ? m_read[t.value] : 0; }
  uint64_t last_store(ThreadSlot t) const { return t.value < m_stored.size() ? m_stored[t.value] : 0; }

private:
  static uint64_t& at(std::vector<uint64_t>& v, ThreadSlot t) {
    if (t.value >= v.size()) v.resize(t.value + 1, 0);
    return v[t.value];
  }
  uint64_t m_next = 1;
  std::vector<uint64_t> m_read, m_stored;
};

} // namespace fencelab
