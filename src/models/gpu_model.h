// The gpu model (DESIGN "Memory models", gpu): weakly ordered store buffers plus views.
//
// 1. Store buffers: a thread's buffered stores to different locations drain in any order;
//    stores to one location drain in program order. A drained store is appended to its
//    location's history (coherence order).
// 2. Views: for each location, the oldest history entry a thread may still read. A load
//    returns the thread's own newest buffered store to the location if there is one, else any
//    entry at or after its view, and the view moves up to the entry read. A thread's own
//    drained store raises its view to that store (a thread never reads older than what it
//    wrote: PTX ISA 8.7.1 coherence, and the CoWR row of docs/LITMUS.md).
//
// Synchronization moves views:
//  - a fence of scope block, device or system drains the thread's buffer, then joins the
//    thread's view with the fence view of each scope instance it covers (its block's; plus the
//    device's; plus the system's) and writes the join back to them, so fences synchronize
//    exactly with earlier fences whose scope includes both threads (PTX ISA 8.8, fence.sc
//    with .cta/.gpu/.sys scope; Programming Guide 10.5);
//  - __syncthreads drains every participant's buffer and gives each the join of their views
//    (Programming Guide 10.6);
//  - an atomic read-modify-write drains the thread's own buffered stores to that location,
//    reads the newest entry and appends its result right after it; atomics are relaxed and
//    order nothing else (Programming Guide 10.14: atomics imply no ordering).
// At kernel end every buffer drains and the host reads the newest entry of each history.
#pragma once

#include "buffered_model.h"
#include "histories.h"
#include "view.h"

#include <span>
#include <vector>

namespace fencelab {

class GpuModel final : public BufferedModel {
public:
  GpuModel() : BufferedModel(DrainOrder::PerLocation) {}
  const char* name() const override { return "gpu"; }
  void begin_execution(ChoiceSource& choices) override;
  void init_instance(uint32_t instance, std::span<const Word> initial) override;
  void begin_block(uint32_t block_slot) override;
  void thread_start(const ThreadRef& t) override;
  bool repeat_load_is_determined(const ThreadRef& t, Location location) const override;
  Word load(const ThreadRef& t, Location location, AccessMode mode) override;
  /** BufferedModel's, and the slot's view and last load. */
  void prefetch_thread(ThreadSlot slot) const override {
    BufferedModel::prefetch_thread(slot);
    if (slot.value < m_views.size()) __builtin_prefetch(&m_views[slot.value]);
    if (slot.value < m_last_loads.size()) __builtin_prefetch(&m_last_loads[slot.value]);
  }
  void prefetch_location(Location location) const override { m_histories.prefetch(location); }
  Word read_modify_write(const ThreadRef& t, Location location, Scope scope,
                         const AtomicUpdate& update) override;
  void fence(const ThreadRef& t, Scope scope) override;
  void barrier(std::span<const ThreadRef> participants) override;
  void thread_exit(const ThreadRef& t) override {}
  Word final_value(Location location) const override;
  std::string explain_last(const ThreadRef& t) const override;
  std::string explain_last_barrier() const override { return m_barrier_explanation; }

protected:
  void apply_drain(uint32_t slot, const BufferedStore& store) override;

private:
  /** Footprint objects (footprint.h): a scope instance's fence view; thread `slot`'s view of
   *  one location. */
  static ObjectId fence_view_object(Scope scope, uint32_t block_slot);
  static ObjectId view_object(uint32_t slot, Location location) { return {ObjectKind::View, slot, location.key()}; }
  View& view(ThreadSlot slot) {
    if (slot.value >= m_views.size()) m_views.resize(slot.value + 1);
    return m_views[slot.value];
  }
  View& block_view(uint32_t block_slot);
  void explain(const ThreadRef& t, std::string text);
  std::string describe_entry(Location location, uint32_t index) const;
  /** Whether a load of `location` that reads entry `index`, and could read any from `oldest`,
   *  tells the order of two commuting updates (GpuModel::load). */
  bool sees_commuting_order(Location location, uint32_t index, uint32_t oldest) const;
  std::string describe_drained(const std::vector<BufferedStore>& drained) const;
  std::string describe_learned(const View& before, const View& after) const;

  ChoiceSource* m_choices = nullptr;
  Histories m_histories;
  std::vector<View> m_views;       ///< by thread slot
  /** By thread slot: the location and history index of its last load from the histories. */
  std::vector<std::pair<Location, uint32_t>> m_last_loads;
  std::vector<View> m_block_views; ///< fence view per block slot
  View m_device_view;
  View m_system_view;
  std::vector<std::string> m_explanations; ///< by thread slot, when explaining
  std::string m_barrier_explanation;
  std::vector<const View*> m_barrier_views; ///< barrier's participants' views (kept: no allocation per barrier)
};

} // namespace fencelab
