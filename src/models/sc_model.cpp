#include "sc_model.h"

namespace fencelab {

void ScModel::begin_execution(ChoiceSource&) {
  for (auto& instance : m_memory) instance.clear();
  m_ids.reset();
}

void ScModel::init_instance(uint32_t instance, std::span<const Word> initial) {
  if (instance >= m_memory.size()) m_memory.resize(instance + 1);
  m_memory[instance].assign(initial.begin(), initial.end());
  if (instance >= m_store_ids.size()) m_store_ids.resize(instance + 1);
  m_store_ids[instance].assign(initial.size(), 0);
}

Word ScModel::load(const ThreadRef& t, Location location, AccessMode) {
  m_ids.note_read(t.slot, m_store_ids[location.instance][location.index]);
  return m_memory[location.instance][location.index];
}

void ScModel::store(const ThreadRef& t, Location location, Word value, AccessMode) {
  const uint64_t id = m_ids.next();
  m_memory[location.instance][location.index] = value;
  m_store_ids[location.instance][location.index] = id;
  m_ids.note_store(t.slot, id);
}

// An atomic read-modify-write reads and writes memory in one indivisible step.
Word ScModel::read_modify_write(const ThreadRef& t, Location location, Scope, const AtomicUpdate& update) {
  Word& cell = m_memory[location.instance][location.index];
  uint64_t& writer = m_store_ids[location.instance][location.index];
  m_ids.note_read(t.slot, writer);
  const Word old = cell;
  cell = update.apply(old);
  writer = m_ids.next();
  m_ids.note_store(t.slot, writer);
  return old;
}

Word ScModel::final_value(Location location) const { return m_memory[location.instance][location.index]; }

} // namespace fencelab
