// One value per location, with the id of the store that wrote it: sc's whole memory, and tso's
// memory behind its store buffers.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/location.h"
#include "fencelab/support/huge_pages.h"
#include "store_ids.h"

#include <span>
#include <vector>

namespace fencelab {

class FlatMemory {
public:
  void clear() {
    for (auto& v : m_cells) v.clear();
  }
  void init_instance(uint32_t instance, std::span<const Word> initial) {
    if (instance >= m_cells.size()) m_cells.resize(instance + 1);
    auto& cells = m_cells[instance];
    if (initial.size() > 8) {
      cells.resize(initial.size());
      for (size_t i = 0; i < initial.size(); ++i) cells[i] = Cell{initial[i], 0};
      return;
    }
    // Most instances are a few elements, set up every execution: pushed one by one, which
    // costs less than resize's general path.
    cells.clear();
    for (const Word w : initial) cells.push_back(Cell{w, 0});
  }
  Word value(Location l) const { return m_cells[l.instance][l.index].value; }
  /** Starts loading a location's cell into the caches (MemoryModel::prefetch_location).
   *  Inlined always, like ShadowMemory::prefetch, which says why. */
  [[gnu::always_inline]] void prefetch(Location l) const {
    if (l.instance < m_cells.size() && l.index < m_cells[l.instance].size()) __builtin_prefetch(&m_cells[l.instance][l.index]);
  }
  uint64_t writer(Location l) const { return m_cells[l.instance][l.index].writer; }
  void write(Location l, Word value, uint64_t id) { m_cells[l.instance][l.index] = Cell{value, id}; }
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
  /** A location's value beside the id of the store that wrote it (0: the initial value): a
   *  load reads both, and a large grid's loads find them cold, so they share a line (kept in
   *  two arrays, a load of a 2^20-element input missed twice). */
  struct Cell {
    Word value = 0;
    uint64_t writer = 0;
  };
  /** Per instance, per element; a large input on huge pages (huge_pages.h). */
  std::vector<std::vector<Cell, HugePageAllocator<Cell>>> m_cells;
};

} // namespace fencelab
