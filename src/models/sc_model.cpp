#include "sc_model.h"

namespace fencelab {

void ScModel::begin_execution(ChoiceSource&) {
  for (auto& instance : m_memory) instance.clear();
}

void ScModel::init_instance(uint32_t instance, std::span<const Word> initial) {
  if (instance >= m_memory.size()) m_memory.resize(instance + 1);
  m_memory[instance].assign(initial.begin(), initial.end());
}

Word ScModel::load(const ThreadRef&, Location location, AccessMode) {
  return m_memory[location.instance][location.index];
}

void ScModel::store(const ThreadRef&, Location location, Word value, AccessMode) {
  m_memory[location.instance][location.index] = value;
}

// An atomic read-modify-write reads and writes memory in one indivisible step.
Word ScModel::read_modify_write(const ThreadRef&, Location location, Scope, const AtomicUpdate& update) {
  Word& cell = m_memory[location.instance][location.index];
  const Word old = cell;
  cell = update.apply(old);
  return old;
}

Word ScModel::final_value(Location location) const { return m_memory[location.instance][location.index]; }

} // namespace fencelab
