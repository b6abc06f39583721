// Prefetching what a resumption touches first, where the Machine knows or can predict which
// thread it resumes next (docs/architecture.md, "Prefetching resumptions"). Hints only: a
// prefetch never faults and changes no result.
#include "machine_impl.h"

#include <algorithm>
#include <array>

namespace fencelab {

namespace {

/** Prefetches, for writing, the cache lines of [base + from, base + to) (a hint only). */
void prefetch_bytes(const void* base, int from, int to) {
  constexpr int kLine = 64;
  for (int offset = from; offset < to; offset += kLine) __builtin_prefetch(static_cast<const char*>(base) + offset, 1);
}

} // namespace

void Machine::Impl::prefetch_resumption(const SimThread& thread) const {
  prefetch_thread(thread);
  prefetch_stack(thread);
}

void Machine::Impl::prefetch_thread(const SimThread& thread, PrefetchReach reach) const {
  // What a resumption reads first: ThreadRunState, then ThreadSlotState (identity and the
  // headers of the buffers, whose addresses prefetch_buffers reads a pick later; then the
  // pending access, the snapshots' headers and the bottom of the operand stack, for an event).
  // SimThread's bases are laid out so (sim_thread.h).
  const auto* first = reinterpret_cast<const char*>(&thread);
  const auto* end = reach == PrefetchReach::BarrierRound
                        ? reinterpret_cast<const char*>(&thread.pending_access)
                        : reinterpret_cast<const char*>(thread.operand_stack.data()) + 64;
  prefetch_bytes(&thread, 0, static_cast<int>(end - first));
  if (stackless_kernel == nullptr) { // the fiber, its scheduler, switch_frame: one line or two
    __builtin_prefetch(&thread.fiber, 1);
    __builtin_prefetch(&thread.switch_frame, 1);
  }
}

void Machine::Impl::prefetch_whole_thread(const SimThread& thread) const {
  prefetch_bytes(&thread, 0, static_cast<int>(sizeof(SimThread)));
}

void Machine::Impl::prefetch_stack(const SimThread& thread) const {
  if (stackless_kernel != nullptr) return; // no fiber: switch_frame, in a line read for nothing, stays 0
  // The stack from the registers the switch saved (up to 528 bytes below switch_frame,
  // measured) to the interpreter's frames above it, and the frames the next step calls into
  // below. The window was chosen by measurement (tools/bench, 256 x 256 reduction).
  if (thread.switch_frame != 0) prefetch_bytes(reinterpret_cast<const void*>(thread.switch_frame), -1024, 1024);
}

void Machine::Impl::prefetch_predicted_picks(uint32_t model_steps, uint32_t running) {
  // The next pick draws from the options the running thread's pick is likely to leave: the
  // model's steps as changed, and `ready` (which lacks the running thread) with the running
  // thread appended again if it comes back, L0 below. Only a hint: a wrong guess costs a few
  // prefetches, never a different decision.
  const PickEffect now = pick_effects[pick_effect_index(threads[running])];
  const int64_t first_steps = int64_t(model_steps) + now.model_steps_change;
  const uint32_t first_count = static_cast<uint32_t>(ready.size()) + (now.comes_back ? 1 : 0);
  if (first_steps < 0 || first_count == 0) return;
  const auto entry = [&](uint32_t i) { return i < ready.size() ? ready[i] : running; }; // L0[i]
  std::array<ChoiceSource::ScheduleArguments, 2> next{{{uint32_t(first_steps) + first_count, uint32_t(first_steps)}, {}}};
  std::array<uint32_t, 2> ahead;
  if (!choices->predict(std::span(next).first(1), std::span(ahead).first(1)) || ahead[0] < first_steps) return;
  const uint32_t first = ahead[0] - uint32_t(first_steps);
  const uint32_t next_slot = entry(first);
  // What the checkers and the model keep for it (found from its slot); its SimThread, unless
  // the last pick foresaw it; then its stack and buffers, whose addresses the SimThread holds.
  if (observer != nullptr) observer->prefetch_thread(thread_id_of_slot(next_slot));
  model->prefetch_thread(ThreadSlot{next_slot});
  if (next_slot != foreseen_after_next) prefetch_thread(threads[next_slot]);
  prefetch_stack(threads[next_slot]);
  prefetch_buffers(threads[next_slot]);
  // The pick after it, from L0 without the next thread (the last entry moved into its place),
  // with the next thread appended again if it comes back.
  const PickEffect then = pick_effects[pick_effect_of_slot[next_slot]];
  const int64_t second_steps = first_steps + then.model_steps_change;
  const uint32_t second_count = first_count - 1 + (then.comes_back ? 1 : 0);
  if (second_steps < 0 || second_count == 0) return;
  next[1] = {uint32_t(second_steps) + second_count, uint32_t(second_steps)};
  if (!choices->predict(next, ahead) || ahead[1] < second_steps) return;
  const uint32_t second = ahead[1] - uint32_t(second_steps);
  const uint32_t after_next = then.comes_back && second == first_count - 1 ? next_slot
                              : second == first                        ? entry(first_count - 1)
                                                                       : entry(second);
  prefetch_thread(threads[after_next]);
  foreseen_after_next = after_next;
}

void Machine::Impl::resume_predicting(uint32_t slot, uint32_t model_steps) {
  SimThread& thread = threads[slot];
  PickEffect& effect = pick_effects[pick_effect_index(thread)]; // before the resumption moves its event on
  prefetch_predicted_picks(model_steps, slot);
  const size_t ready_before = ready.size();
  resume_and_settle(thread);
  effect.comes_back = ready.size() == ready_before + 1 && ready.back() == slot;
  const int64_t change = int64_t(model->internal_step_count()) - int64_t(model_steps);
  effect.model_steps_change = int8_t(std::clamp<int64_t>(change, -128, 127));
}

void Machine::Impl::prefetch_buffers(const SimThread& thread, PrefetchReach reach) const {
  // A stackless thread has only the kernel's frame, which neither it nor a snapshot reads
  // (spin_loops.cpp, frames_above_kernel): its frames' buffer is left cold. A barrier round
  // takes no read snapshot.
  const void* frames = stackless_kernel != nullptr ? nullptr : static_cast<const void*>(thread.frames.data());
  const void* read_snapshot =
      reach == PrefetchReach::BarrierRound ? nullptr : static_cast<const void*>(thread.snapshot.words.data());
  for (const void* buffer : {static_cast<const void*>(thread.slots.data()), frames, read_snapshot})
    if (buffer != nullptr) prefetch_bytes(buffer, 0, 128);
}

} // namespace fencelab
