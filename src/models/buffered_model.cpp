#include "buffered_model.h"

#include <algorithm>
#include <cassert>
#include <fmt/format.h>

namespace fencelab {

void BufferedModel::reset_buffers() {
  m_ids.reset();
  for (StoreBuffer& b : m_buffers) b.clear();
  m_steps = 0;
  m_nonempty.clear();
  for (std::vector<ObjectId>& lanes : m_drained_alone) lanes.clear();
}

// Why a fence, an atomic or a barrier reads the lanes it needs empty: drained by itself just
// before, a lane's store reaches memory exactly as the fence would have drained it, so the
// fence cannot come first in any other way than by forcing the same drain. Without the
// dependence, the drain looked concurrent with everything the fence orders after it (a lock's
// release, the next holder's read of the critical section), and reversing such a "race" ran
// the fence first, forcing the drain: the same execution by another trace, explored again
// (a fenced lock's every critical section twice over).
void BufferedModel::note_drained_alone(uint32_t slot, const ObjectId& lane) {
  if (!recording_footprints()) return;
  if (slot >= m_drained_alone.size()) m_drained_alone.resize(slot + 1);
  std::vector<ObjectId>& lanes = m_drained_alone[slot];
  if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) lanes.push_back(lane);
}

void BufferedModel::touch_emptied_lanes(uint32_t slot) {
  if (slot >= m_drained_alone.size()) return;
  for (const ObjectId& lane : m_drained_alone[slot]) touch_emptied(lane);
  m_drained_alone[slot].clear();
}

void BufferedModel::touch_emptied_lane(uint32_t slot, const ObjectId& lane) {
  if (slot >= m_drained_alone.size()) return;
  std::vector<ObjectId>& lanes = m_drained_alone[slot];
  const auto it = std::find(lanes.begin(), lanes.end(), lane);
  if (it == lanes.end()) return;
  touch_emptied(lane);
  lanes.erase(it);
}

void BufferedModel::grow_buffers(size_t count) {
  m_buffers.resize(count);
  m_owners.resize(count);
}

const StoreBuffer* BufferedModel::find_buffer(ThreadSlot slot) const {
  return slot.value < m_buffers.size() ? &m_buffers[slot.value] : nullptr;
}

void BufferedModel::note_nonempty(uint32_t slot) {
  const auto it = std::lower_bound(m_nonempty.begin(), m_nonempty.end(), slot);
  if (it == m_nonempty.end() || *it != slot) m_nonempty.insert(it, slot);
}

void BufferedModel::note_maybe_empty(uint32_t slot) {
  if (!m_buffers[slot].empty()) return;
  const auto it = std::lower_bound(m_nonempty.begin(), m_nonempty.end(), slot);
  if (it != m_nonempty.end() && *it == slot) m_nonempty.erase(it);
}

void BufferedModel::store(const ThreadRef& t, Location location, Word value, AccessMode) {
  touch(lane(t.slot.value, location), true);
  const uint64_t id = m_ids.next();
  edit_buffer(t.slot.value, [&](StoreBuffer& b) { b.push(location, value, id); });
  m_ids.note_store(t.slot, id);
  note_nonempty(t.slot.value);
}

void BufferedModel::thread_start(const ThreadRef& t) {
  // A slot's previous thread (of a retired block) may have left stores buffered. They drain
  // now, before the new thread runs: a later block never holds an earlier block's stores.
  const bool lanes_noted = t.slot.value < m_drained_alone.size() && !m_drained_alone[t.slot.value].empty();
  if (!buffer(t.slot).empty() || lanes_noted) drain_all(t.slot); // else it would do nothing
  m_owners[t.slot.value] = t.id;
}

const std::vector<BufferedStore>& BufferedModel::drain_all(ThreadSlot slot) {
  m_drained.clear();
  // An empty buffer's slot is not in m_nonempty, so note_maybe_empty would find nothing.
  if (nothing_to_drain(slot)) return m_drained;
  edit_buffer(slot.value, [this](StoreBuffer& b) { b.take_all(m_drained); });
  for (const BufferedStore& store : m_drained) drained(slot.value, store, true);
  touch_emptied_lanes(slot.value);
  note_maybe_empty(slot.value);
  return m_drained;
}

void BufferedModel::drain_location(ThreadSlot slot, Location location) {
  m_drained.clear();
  if (slot.value >= m_buffers.size()) return;
  edit_buffer(slot.value, [&](StoreBuffer& b) { b.take_all(m_drained, location); });
  for (const BufferedStore& store : m_drained) drained(slot.value, store, true);
  touch_emptied_lane(slot.value, lane(slot.value, location));
  note_maybe_empty(slot.value);
}

void BufferedModel::finish_execution() {
  // "At kernel end every buffer drains" (DESIGN): in program order per thread.
  // Each drain_all empties its slot's buffer, which leaves m_nonempty (ascending slots).
  while (!m_nonempty.empty()) drain_all(ThreadSlot{m_nonempty.front()});
}

uint32_t BufferedModel::internal_step_count() const {
  assert(m_steps == [this] {
    uint32_t count = 0;
    for (uint32_t slot : m_nonempty) count += m_buffers[slot].drainable_count(m_order);
    return count;
  }());
  return m_steps;
}

std::pair<uint32_t, uint32_t> BufferedModel::locate_step(uint32_t index) const {
  for (uint32_t slot : m_nonempty) {
    const uint32_t count = m_buffers[slot].drainable_count(m_order);
    if (index < count) return {slot, m_buffers[slot].drainable_position(m_order, index)};
    index -= count;
  }
  return {0, 0};
}

void BufferedModel::internal_step(uint32_t index) {
  const auto [slot, position] = locate_step(index);
  const BufferedStore store = edit_buffer(slot, [p = position](StoreBuffer& b) { return b.take(p); });
  drained(slot, store, false);
  note_drained_alone(slot, lane(slot, store.location));
  note_maybe_empty(slot);
}

void BufferedModel::internal_step_actors(std::vector<ActorId>& out) const {
  // The order of locate_step: buffers in m_nonempty's order, each one's drainable entries.
  for (uint32_t slot : m_nonempty) {
    m_buffers[slot].drainable(m_order, m_positions);
    for (uint32_t position : m_positions) out.push_back(lane(slot, m_buffers[slot].entries()[position].location));
  }
}

bool BufferedModel::barrier_drains(std::span<const ThreadRef> participants) const {
  return std::any_of(participants.begin(), participants.end(), [this](const ThreadRef& t) {
    return t.slot.value < m_buffers.size() && !m_buffers[t.slot.value].empty();
  });
}

void BufferedModel::drained(uint32_t slot, const BufferedStore& store, bool forced) {
  const ObjectId drained_lane = lane(slot, store.location);
  if (forced) begin_forced_step(drained_lane);
  touch(drained_lane, true);
  if (m_order == DrainOrder::Fifo) touch(own_entries(slot, store.location), true);
  touch_history(store.location, true);
  apply_drain(slot, store);
  changed(store.location);
  if (forced) end_forced_step();
}

MemoryModel::InternalStep BufferedModel::describe_internal_step(uint32_t index, bool with_text) const {
  const auto [slot, position] = locate_step(index);
  const BufferedStore& store = m_buffers[slot].entries()[position];
  if (!with_text) return InternalStep{owner(slot), store.location, store.value, store.id, {}};
  return InternalStep{owner(slot), store.location, store.value, store.id,
                      fmt::format("{} drains from thread {}'s store buffer to memory",
                                  describe(store.location, &store.value), owner(slot).to_string())};
}

std::string BufferedModel::buffered_elsewhere(ThreadSlot reader, Location location) const {
  std::string out;
  for (uint32_t slot : m_nonempty) {
    if (slot == reader.value) continue;
    for (const BufferedStore& store : m_buffers[slot].entries()) {
      if (!(store.location == location)) continue;
      out += fmt::format("; {} still sits in thread {}'s store buffer", describe(store.location, &store.value),
                         owner(slot).to_string());
    }
  }
  return out;
}

} // namespace fencelab
