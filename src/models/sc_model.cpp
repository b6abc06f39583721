#include "sc_model.h"

namespace fencelab {

void ScModel::begin_execution(ChoiceSource&) {
  m_memory.clear();
  m_ids.reset();
}

void ScModel::init_instance(uint32_t instance, std::span<const Word> initial) {
  m_memory.init_instance(instance, initial);
}

Word ScModel::load(const ThreadRef& t, Location location, AccessMode) {
  touch_history(location, false);
  m_ids.note_read(t.slot, m_memory.writer(location));
  return m_memory.value(location);
}

void ScModel::store(const ThreadRef& t, Location location, Word value, AccessMode) {
  const uint64_t id = m_ids.next();
  m_memory.write(location, value, id);
  m_ids.note_store(t.slot, id);
  touch_history(location, true);
  changed(location);
}

// An atomic read-modify-write reads and writes memory in one indivisible step.
Word ScModel::read_modify_write(const ThreadRef& t, Location location, Scope, const AtomicUpdate& update) {
  const Word old = m_memory.read_modify_write(t.slot, location, update, m_ids);
  touch_history_update(location, update, old);
  if (update.apply(old) != old) changed(location);
  return old;
}

Word ScModel::final_value(Location location) const { return m_memory.value(location); }

} // namespace fencelab
