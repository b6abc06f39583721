#include "gpu_model.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

// ---------------------------------------------------------------------------------------------
// The model

void GpuModel::begin_execution(ChoiceSource& choices) {
  m_choices = &choices;
  reset_buffers();
  m_histories.clear();
  for (View& v : m_views) v.clear();
  m_last_loads.clear();
  for (View& v : m_block_views) v.clear();
  m_device_view.clear();
  m_system_view.clear();
  m_explanations.clear();
}

void GpuModel::init_instance(uint32_t instance, std::span<const Word> initial) {
  m_histories.init_instance(instance, initial);
}

View& GpuModel::block_view(uint32_t block_slot) {
  if (block_slot >= m_block_views.size()) m_block_views.resize(block_slot + 1);
  return m_block_views[block_slot];
}

void GpuModel::begin_block(uint32_t block_slot) {
  touch(fence_view_object(Scope::Block, block_slot), true);
  block_view(block_slot).clear();
}

ObjectId GpuModel::fence_view_object(Scope scope, uint32_t block_slot) {
  return ObjectId{ObjectKind::FenceView, scope == Scope::Block ? block_slot : 0, uint64_t(scope)};
}

void GpuModel::thread_start(const ThreadRef& t) {
  BufferedModel::thread_start(t);
  view(t.slot).clear();
}

// Drained stores join the history; the writer's own view moves up to them.
void GpuModel::apply_drain(uint32_t slot, const BufferedStore& store) {
  const uint32_t index = m_histories.append(store.location, store.value, store.id, owner(slot));
  // Only the writer's view of this location moves: a per-location view object, so that a
  // drain is independent of its thread's accesses to other locations.
  touch(view_object(slot, store.location), true);
  view(ThreadSlot{slot}).raise(store.location, index);
}

bool GpuModel::repeat_load_is_determined(const ThreadRef& t, Location location) const {
  if (const StoreBuffer* b = find_buffer(t.slot); b != nullptr && b->contains(location)) return true;
  const uint32_t newest = m_histories.size(location) - 1;
  return t.slot.value < m_views.size() && m_views[t.slot.value].get(location) >= newest;
}

Word GpuModel::load(const ThreadRef& t, Location location, AccessMode) {
  touch_own_lane(t.slot, location);
  if (const StoreBuffer* b = find_buffer(t.slot)) {
    for (auto it = b->entries().rbegin(); it != b->entries().rend(); ++it) {
      if (!(it->location == location)) continue;
      if (explaining()) explain(t, "read its own buffered store, which no other thread can see yet");
      m_ids.note_read(t.slot, it->id);
      return it->value;
    }
  }
  // Any entry from the thread's view to the newest; option 0 is the newest, so a biased
  // random explorer favours fresh values.
  touch_history(location, false);
  touch(view_object(t.slot.value, location), true);
  View& v = view(t.slot);
  const uint32_t newest = m_histories.size(location) - 1;
  const uint32_t seen = v.get(location);
  uint32_t oldest = std::min(seen, newest);
  if (m_last_loads.size() <= t.slot.value) m_last_loads.resize(t.slot.value + 1);
  auto& [last_location, last_index] = m_last_loads[t.slot.value];
  // A repeated read from an unchanged state must move on (the stutter rule, memory_model.h).
  if (newer_read_required() && last_location == location) oldest = std::min(std::max(oldest, last_index + 1), newest);
  const uint32_t options = newest - oldest + 1;
  const uint32_t back = options > 1 ? m_choices->choose(options, ChoiceKind::ReadFrom, 1) : 0;
  const uint32_t index = newest - back;
  if (index > seen) v.raise(location, index); // else the view holds it already: raise would do nothing
  last_location = location;
  last_index = index;
  const HistoryEntry read = m_histories.entry(location, index);
  m_ids.note_read(t.slot, read.id);
  if (recording_footprints() && sees_commuting_order(location, index, oldest)) commuting_order_seen(location);
  if (explaining()) {
    if (index == newest) {
      explain(t, fmt::format("read the newest store to {}: {}{}", describe(location),
                             describe_entry(location, index), buffered_elsewhere(t.slot, location)));
    } else {
      const HistoryEntry latest = m_histories.entry(location, newest);
      explain(t, fmt::format("read a stale value, {}: {} by thread {} has drained, but thread {} has "
                             "not synchronized with it, so its view of {} still allows the older entry{}",
                             describe_entry(location, index), describe(location, &latest.value),
                             latest.writer.to_string(), t.id.to_string(), describe(location),
                             buffered_elsewhere(t.slot, location)));
    }
  }
  return read.value;
}

// An entry written by a commuting update with another of its kind after it exists only in this
// order of the two: reading it sees their order (docs/architecture.md, "Commuting updates"),
// which the reduction must then explore both ways. So does a reader whose oldest readable entry
// is such an update with another of its kind before it: its view was raised to that update (its
// own, or one it joined), and in the other order the update is earlier, and the reader may read
// the entry after it too.
bool GpuModel::sees_commuting_order(Location location, uint32_t index, uint32_t oldest) const {
  const auto same_kind = [&](uint32_t earlier) {
    const uint32_t kind = m_histories.entry(location, earlier).commuting_kind;
    return kind != 0 && earlier + 1 < m_histories.size(location) &&
           m_histories.entry(location, earlier + 1).commuting_kind == kind;
  };
  return same_kind(index) || (oldest > 0 && same_kind(oldest - 1));
}

Word GpuModel::read_modify_write(const ThreadRef& t, Location location, Scope, const AtomicUpdate& update) {
  drain_location(t.slot, location);
  const uint32_t newest = m_histories.size(location) - 1;
  const HistoryEntry found = m_histories.entry(location, newest);
  const Word old = found.value;
  touch_history_update(location, update, old);
  touch(view_object(t.slot.value, location), true);
  if (update.apply(old) != old) changed(location);
  m_ids.note_read(t.slot, found.id);
  const uint64_t id = m_ids.next();
  m_ids.note_store(t.slot, id);
  const uint32_t index = m_histories.append(location, update.apply(old), id, t.id, update.commuting_kind());
  view(t.slot).raise(location, index);
  if (explaining())
    explain(t, fmt::format("read the newest entry of {} ({}) and appended its result; relaxed: it "
                           "orders no other access", describe(location), describe_entry(location, newest)));
  return old;
}

void GpuModel::fence(const ThreadRef& t, Scope scope) {
  const std::vector<BufferedStore>& drained = drain_all(t.slot);
  // The thread's own view is its own (its later steps are ordered after this one anyway); the
  // fence views it joins are shared with every thread whose fences cover the same scope.
  touch(fence_view_object(Scope::Block, t.block_slot), true);
  if (scope != Scope::Block) touch(fence_view_object(Scope::Device, 0), true);
  if (scope == Scope::System) touch(fence_view_object(Scope::System, 0), true);
  View& mine = view(t.slot);
  const View before = explaining() ? mine : View{};
  View& block = block_view(t.block_slot);
  View joined = mine;
  joined.join(block);
  if (scope != Scope::Block) joined.join(m_device_view);
  if (scope == Scope::System) joined.join(m_system_view);
  joined.share(); // the thread and the fence views it joined now hold one view
  mine = joined;
  block = joined;
  if (scope != Scope::Block) m_device_view = joined;
  if (scope == Scope::System) m_system_view = joined;
  if (explaining()) {
    const char* covered = scope == Scope::Block    ? "its block's fence view"
                          : scope == Scope::Device ? "its block's and the device's fence views"
                                                   : "its block's, the device's and the system's fence views";
    explain(t, fmt::format("{}; joined its view with {}{}", describe_drained(drained), covered,
                           describe_learned(before, mine)));
  }
}

void GpuModel::barrier(std::span<const ThreadRef> participants) {
  size_t drained = 0;
  m_barrier_views.clear();
  for (const ThreadRef& t : participants) {
    if (!nothing_to_drain(t.slot)) drained += drain_all(t.slot).size();
    m_barrier_views.push_back(&view(t.slot));
  }
  View joined;
  joined.join_all(m_barrier_views);
  joined.share(); // one view for every participant, not a copy each
  for (const ThreadRef& t : participants) view(t.slot).assign_shared(joined);
  if (explaining())
    m_barrier_explanation = fmt::format("drained {} buffered store{} and gave every participant the "
                                        "join of their views",
                                        drained, drained == 1 ? "" : "s");
}

Word GpuModel::final_value(Location location) const {
  return m_histories.entry(location, m_histories.size(location) - 1).value;
}

// ---------------------------------------------------------------------------------------------
// Explanations

void GpuModel::explain(const ThreadRef& t, std::string text) {
  if (t.slot.value >= m_explanations.size()) m_explanations.resize(t.slot.value + 1);
  m_explanations[t.slot.value] = std::move(text);
}

std::string GpuModel::explain_last(const ThreadRef& t) const {
  return t.slot.value < m_explanations.size() ? m_explanations[t.slot.value] : std::string();
}

std::string GpuModel::describe_entry(Location location, uint32_t index) const {
  const HistoryEntry e = m_histories.entry(location, index);
  if (e.initial) return fmt::format("{}, the initial value", describe(location, &e.value));
  return fmt::format("{}, written by thread {}", describe(location, &e.value), e.writer.to_string());
}

std::string GpuModel::describe_drained(const std::vector<BufferedStore>& drained) const {
  if (drained.empty()) return "nothing to drain";
  std::string list;
  for (const BufferedStore& s : drained) {
    if (!list.empty()) list += ", ";
    list += describe(s.location, &s.value);
  }
  return fmt::format("drained {}", list);
}

std::string GpuModel::describe_learned(const View& before, const View& after) const {
  std::string learned;
  for (const auto& [key, index] : after.entries()) {
    const Location location{uint32_t(key >> 32), uint32_t(key)};
    if (before.get(location) >= index) continue;
    const HistoryEntry e = m_histories.entry(location, index);
    learned += fmt::format("{}{}", learned.empty() ? "" : ", ", describe(location, &e.value));
  }
  return learned.empty() ? "" : "; it can no longer read older than " + learned;
}

} // namespace fencelab
