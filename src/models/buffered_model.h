// What tso and gpu share: a store buffer per thread slot, and draining buffered stores as the
// model's own scheduling steps (MemoryModel::internal_step), one option per drainable store.
#pragma once

#include "fencelab/machine/memory_model.h"
#include "store_buffer.h"
#include "store_ids.h"

#include <vector>

namespace fencelab {

class BufferedModel : public MemoryModel {
public:
  uint32_t internal_step_count() const override;
  void internal_step(uint32_t index) override;
  InternalStep describe_internal_step(uint32_t index, bool with_text) const override;
  void thread_start(const ThreadRef& t) override;
  void store(const ThreadRef& t, Location location, Word value, AccessMode mode) override;
  void finish_execution() override;
  void internal_step_actors(std::vector<ActorId>& out) const override;
  /** Some participant has a buffered store. */
  bool barrier_drains(std::span<const ThreadRef> participants) const override;
  uint64_t last_read_source(const ThreadRef& t) const override { return m_ids.last_read(t.slot); }
  uint64_t last_store_id(const ThreadRef& t) const override { return m_ids.last_store(t.slot); }
  /** The slot's ids and its buffer's header. */
  void prefetch_thread(ThreadSlot slot) const override {
    m_ids.prefetch(slot);
    if (slot.value < m_buffers.size()) __builtin_prefetch(&m_buffers[slot.value]);
  }

protected:
  explicit BufferedModel(DrainOrder order) : m_order(order) {}

  /** Forgets every buffer (start of an execution). */
  void reset_buffers();
  StoreBuffer& buffer(ThreadSlot slot) {
    if (slot.value >= m_buffers.size()) grow_buffers(slot.value + 1);
    return m_buffers[slot.value];
  }
  const StoreBuffer* find_buffer(ThreadSlot slot) const;
  /** Drains the thread's whole buffer in program order; returns what drained (oldest first),
   *  valid until the next drain. */
  const std::vector<BufferedStore>& drain_all(ThreadSlot slot);
  /** Whether drain_all(slot) would do nothing: nothing buffered, and no lane drained alone
   *  since the last drain_all (that list is kept only while footprints are recorded). Inline,
   *  for a barrier, which drains every participant. */
  bool nothing_to_drain(ThreadSlot slot) const {
    return (slot.value >= m_buffers.size() || m_buffers[slot.value].empty()) &&
           (slot.value >= m_drained_alone.size() || m_drained_alone[slot.value].empty());
  }
  /** Drains the thread's buffered stores to one location, in program order. */
  void drain_location(ThreadSlot slot, Location location);
  /** Stores other threads still hold for `location`, as "X=10 still sits in thread (0,0,0)'s
   *  store buffer" clauses (for explanations). */
  std::string buffered_elsewhere(ThreadSlot reader, Location location) const;
  ThreadId owner(uint32_t slot) const { return slot < m_owners.size() ? m_owners[slot] : ThreadId{}; }

  StoreIds m_ids;

  /** Makes one buffered store of thread slot `slot` visible in memory. */
  virtual void apply_drain(uint32_t slot, const BufferedStore& store) = 0;

  /** The buffer lane holding thread `slot`'s stores to `location`: one per location under gpu
   *  (they drain independently), the whole buffer under tso (one FIFO). */
  ObjectId lane(uint32_t slot, Location location) const {
    return ObjectId::lane(slot, m_order == DrainOrder::Fifo ? 0 : location.key());
  }
  /** What a load by `slot` of `location` reads of its own buffer: whether it holds a store to
   *  `location`, and the newest one. Under gpu that is the location's lane; under tso the lane is
   *  the whole buffer, so the location's entries in it, which only drains of `location` change. */
  ObjectId own_entries(uint32_t slot, Location location) const {
    return m_order == DrainOrder::Fifo ? ObjectId{ObjectKind::BufferedEntries, slot, location.key()}
                                       : lane(slot, location);
  }
  void touch_own_lane(ThreadSlot slot, Location location) const { touch(own_entries(slot.value, location), false); }

private:
  void grow_buffers(size_t count);
  /** drain bookkeeping shared by every way a store drains: the footprint and the wake-up.
   *  `forced`: another step (a fence, an atomic, a barrier, the kernel's end) drains it, not the
   *  lane's own internal step. */
  void drained(uint32_t slot, const BufferedStore& store, bool forced);

  void note_nonempty(uint32_t slot);
  void note_maybe_empty(uint32_t slot);
  /** Lanes of thread slot `slot` that drained by themselves (internal steps) since its last
   *  drain_all: a step that needs them empty follows those drains (touch_emptied). Kept only
   *  while footprints are recorded. */
  void note_drained_alone(uint32_t slot, const ObjectId& lane);
  void touch_emptied_lanes(uint32_t slot);
  void touch_emptied_lane(uint32_t slot, const ObjectId& lane);
  /** Applies `edit` to thread slot `slot`'s buffer (grown if needed), keeping m_steps. */
  template <class Edit>
  decltype(auto) edit_buffer(uint32_t slot, Edit&& edit) {
    StoreBuffer& b = buffer(ThreadSlot{slot});
    m_steps -= b.drainable_count(m_order);
    struct Recount { // also when `edit` returns a value
      BufferedModel& model;
      StoreBuffer& b;
      ~Recount() { model.m_steps += b.drainable_count(model.m_order); }
    } recount{*this, b};
    return edit(b);
  }
  /** The (slot, position) of internal step `index`. */
  std::pair<uint32_t, uint32_t> locate_step(uint32_t index) const;

  DrainOrder m_order;
  std::vector<StoreBuffer> m_buffers; ///< by thread slot
  std::vector<ThreadId> m_owners;     ///< by thread slot: the thread running there
  std::vector<uint32_t> m_nonempty;   ///< slots with buffered stores, ascending
  uint32_t m_steps = 0;               ///< drainable stores over all buffers (internal_step_count)
  mutable std::vector<uint32_t> m_positions;
  std::vector<BufferedStore> m_drained; ///< the last drain_all's or drain_location's stores
  std::vector<std::vector<ObjectId>> m_drained_alone; ///< by thread slot: note_drained_alone
};

} // namespace fencelab
