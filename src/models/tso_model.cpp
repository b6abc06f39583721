#include "tso_model.h"

#include <fmt/format.h>

namespace fencelab {

void TsoModel::begin_execution(ChoiceSource&) {
  reset_buffers();
  m_memory.clear();
  m_explanations.clear();
}

void TsoModel::init_instance(uint32_t instance, std::span<const Word> initial) {
  m_memory.init_instance(instance, initial);
}

void TsoModel::explain(const ThreadRef& t, std::string text) {
  if (!explaining()) return;
  if (t.slot.value >= m_explanations.size()) m_explanations.resize(t.slot.value + 1);
  m_explanations[t.slot.value] = std::move(text);
}

std::string TsoModel::explain_last(const ThreadRef& t) const {
  return t.slot.value < m_explanations.size() ? m_explanations[t.slot.value] : std::string();
}

std::string TsoModel::drained_list(const std::vector<BufferedStore>& drained) const {
  if (drained.empty()) return "its store buffer was empty";
  std::string list;
  for (const BufferedStore& s : drained) {
    if (!list.empty()) list += ", ";
    list += describe(s.location, &s.value);
  }
  return fmt::format("drained {} buffered store{} in order: {}", drained.size(), drained.size() == 1 ? "" : "s", list);
}

// A load reads the thread's own newest buffered store to the location, else memory.
Word TsoModel::load(const ThreadRef& t, Location location, AccessMode) {
  touch_own_lane(t.slot, location);
  touch_history(location, false);
  if (const StoreBuffer* b = find_buffer(t.slot)) {
    for (auto it = b->entries().rbegin(); it != b->entries().rend(); ++it) {
      if (!(it->location == location)) continue;
      explain(t, "read its own buffered store, which no other thread can see yet");
      m_ids.note_read(t.slot, it->id);
      return it->value;
    }
  }
  const Word value = m_memory.value(location);
  m_ids.note_read(t.slot, m_memory.writer(location));
  if (explaining()) explain(t, "read memory" + buffered_elsewhere(t.slot, location));
  return value;
}

// Atomics drain the whole buffer first (x86 locked instructions), then act on memory.
Word TsoModel::read_modify_write(const ThreadRef& t, Location location, Scope, const AtomicUpdate& update) {
  const auto& drained = drain_all(t.slot);
  const Word old = m_memory.read_modify_write(t.slot, location, update, m_ids);
  touch_history_update(location, update, old);
  if (update.apply(old) != old) changed(location);
  if (explaining()) explain(t, drained_list(drained) + ", then updated memory atomically");
  return old;
}

// Every fence drains the whole buffer (x86 MFENCE); tso has no scopes to distinguish.
void TsoModel::fence(const ThreadRef& t, Scope) {
  const auto& drained = drain_all(t.slot);
  if (explaining()) explain(t, drained_list(drained));
}

void TsoModel::barrier(std::span<const ThreadRef> participants) {
  size_t count = 0;
  for (const ThreadRef& t : participants) count += drain_all(t.slot).size();
  if (explaining())
    m_barrier_explanation = fmt::format("drained {} buffered store{} of its threads", count, count == 1 ? "" : "s");
}

void TsoModel::apply_drain(uint32_t, const BufferedStore& store) {
  m_memory.write(store.location, store.value, store.id);
}

Word TsoModel::final_value(Location location) const { return m_memory.value(location); }

} // namespace fencelab
