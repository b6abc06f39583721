// One value per location, with the id of the store that wrote it: sc's whole memory, and tso's
// memory behind its store buffers.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/location.h"
#include "store_ids.h"

#include <span>
#include <vector>

namespace fencelab {

class FlatMemory {
public:
  void clear() {
    for (auto& v : m_values) v.clear();
  }
  void init_instance(uint32_t instance, std::span<const Word> initial) {
    if (instance >= m_values.size()) {
      m_values.resize(instance + 1);
      m_writers.resize(instance + 1);
    }
    std::vector<Word>& values = m_values[instance];
    std::vector<uint64_t>& writers = m_writers[instance];
    if (initial.size() > 8) {
      values.assign(initial.begin(), initial.end());
      writers.assign(initial.size(), 0);
      return;
    }
    // Most instances are a few elements, set up every execution: pushed one by one, which
    // costs less than assign's general path.
    values.clear();
    writers.clear();
    for (const Word w : initial) {
      values.push_back(w);
      writers.push_back(0);
    }
  }
  Word value(Location l) const { return m_values[l.instance][l.index]; }
  uint64_t writer(Location l) const { return m_writers[l.instance][l.index]; }
  void write(Location l, Word value, uint64_t id) {
    m_values[l.instance][l.index] = value;
    m_writers[l.instance][l.index] = id;
  }
  /** An atomic read-modify-write by thread `t` in one indivisible step; returns the old value. */
  Word read_modify_write(ThreadSlot t, Location l, const AtomicUpdate& update, StoreIds& ids) {
    const Word old = value(l);
    ids.note_read(t, writer(l));
    const uint64_t id = ids.next();
    write(l, update.apply(old), id);
    ids.note_store(t, id);
    return old;
  }

private:
  std::vector<std::vector<Word>> m_values;      ///< per instance, per element
  std::vector<std::vector<uint64_t>> m_writers; ///< per instance, per element: the store's id
};

} // namespace fencelab
