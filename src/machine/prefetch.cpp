// Prefetching what a resumption touches first, where the Machine knows or can predict which
// thread it resumes next (docs/architecture.md, "Prefetching resumptions"). Hints only: a
// prefetch never faults and changes no result.
#include "machine_impl.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace fencelab {

namespace {

constexpr uintptr_t kLine = 64;
/** The operand stack's words a stackless resumption at an event mostly uses (an address, a
 *  loaded value, another address: `s[i] += s[i + k]`); the prefetch of its state ends there. */
constexpr size_t kUsualStackDepth = 4;

/** Prefetches, for writing, the cache lines of [base + from, base + to) (a hint only). */
void prefetch_bytes(const void* base, int from, int to) {
  for (int offset = from; offset < to; offset += int(kLine)) __builtin_prefetch(static_cast<const char*>(base) + offset, 1);
}

/** Prefetches, for writing, the lines of [base, base + bytes), `bytes` at most 8 lines: the
 *  start of a SimThread, at every pick and barrier participant. Written out rather than a
 *  loop (prefetch_bytes), whose count the compiler cannot know: 39 instructions a pick for
 *  seven lines (callgrind, 256 x 256 reduction). */
void prefetch_first_lines(const void* base, int bytes) {
  const char* p = static_cast<const char*>(base);
  __builtin_prefetch(p, 1);
  if (bytes > 1 * int(kLine)) __builtin_prefetch(p + 1 * kLine, 1);
  if (bytes > 2 * int(kLine)) __builtin_prefetch(p + 2 * kLine, 1);
  if (bytes > 3 * int(kLine)) __builtin_prefetch(p + 3 * kLine, 1);
  if (bytes > 4 * int(kLine)) __builtin_prefetch(p + 4 * kLine, 1);
  if (bytes > 5 * int(kLine)) __builtin_prefetch(p + 5 * kLine, 1);
  if (bytes > 6 * int(kLine)) __builtin_prefetch(p + 6 * kLine, 1);
  if (bytes > 7 * int(kLine)) __builtin_prefetch(p + 7 * kLine, 1);
}

/** Prefetches, for writing, the lines that hold a buffer's first and last word, up to its
 *  16th: a buffer of a few words (a thread's slots) lies in one line or two, and each prefetch
 *  of a line it does not occupy would take one of the core's few slots for outstanding misses,
 *  which a large grid's resumptions keep full. */
template <class Words> void prefetch_words(const Words& words) {
  if (words.empty()) return;
  __builtin_prefetch(words.data(), 1);
  __builtin_prefetch(words.data() + std::min<size_t>(words.size(), 16) - 1, 1);
}

} // namespace

void Machine::Impl::prefetch_resumption(const SimThread& thread) const {
  prefetch_thread(thread);
  prefetch_stack(thread);
}

void Machine::Impl::prefetch_thread(const SimThread& thread, PrefetchReach reach) const {
  // What a resumption reads first: ThreadRunState, then ThreadSlotState (identity, the slots
  // (in place, or the header of their heap buffer, whose address prefetch_buffers reads a pick
  // later) and the frames' header; then the pending access and the bottom of the operand
  // stack, for an event).
  // SimThread's bases are laid out so (sim_thread.h).
  const auto* first = reinterpret_cast<const char*>(&thread);
  const auto* end = reach == PrefetchReach::BarrierRound
                        ? reinterpret_cast<const char*>(&thread.pending_access)
                        : reinterpret_cast<const char*>(thread.operand_stack.data() + kUsualStackDepth);
  assert(end - first <= 8 * int(kLine) && "the start of SimThread grew past prefetch_first_lines");
  prefetch_first_lines(&thread, static_cast<int>(end - first));
  if (stackless_kernel == nullptr) { // the fiber, its scheduler, switch_frame: one line or two
    __builtin_prefetch(&thread.fiber, 1);
    __builtin_prefetch(&thread.switch_frame, 1);
  }
}

void Machine::Impl::prefetch_thread_start(const SimThread& thread) const {
  // A start that leaves ThreadRareState alone, and the snapshots where they are clean, as a
  // large grid's do, writes little past what a resumption at an event reads: threadIdx and
  // blockIdx (admit_block), in one line or two.
  if (rare_state_untouched) {
    prefetch_thread(thread, PrefetchReach::Event);
    __builtin_prefetch(&thread.thread_idx, 1);
    __builtin_prefetch(reinterpret_cast<const char*>(&thread.block_idx) + sizeof(Dim3) - 1, 1);
    return;
  }
  prefetch_bytes(&thread, 0, static_cast<int>(sizeof(SimThread)));
}

void Machine::Impl::prefetch_stack(const SimThread& thread) const {
  if (stackless_kernel != nullptr) return; // no fiber: switch_frame, in a line read for nothing, stays 0
  // The stack from the registers the switch saved (up to 528 bytes below switch_frame,
  // measured) to the interpreter's frames above it, and the frames the next step calls into
  // below. The window was chosen by measurement (tools/bench, 256 x 256 reduction).
  if (thread.switch_frame != 0) prefetch_bytes(reinterpret_cast<const void*>(thread.switch_frame), -1024, 1024);
}

void Machine::Impl::prefetch_predicted_picks(uint32_t model_steps, uint32_t running) const {
  // The next two picks, drawn from the options the running thread's pick is likely to leave:
  // the model's steps as changed, and `ready` (which lacks the running thread) with the running
  // thread appended again if it comes back, L below; the pick after that from the same number
  // of options, the next thread coming back in its turn. Only a hint: a wrong guess costs a few
  // prefetches, never a different decision.
  const PickEffect now =
      running == kModelStepPick ? PickEffect{-1, false} : pick_effects[pick_effect_index(threads[running])];
  const int64_t signed_steps = int64_t(model_steps) + now.model_steps_change;
  const uint32_t n = static_cast<uint32_t>(ready.size()) + (now.comes_back ? 1 : 0);
  if (signed_steps < 0 || n == 0) return;
  const uint32_t steps = uint32_t(signed_steps);
  std::array<uint32_t, 2> ahead;
  if (!choices->predict(steps + n, steps, ahead) || ahead[0] < steps) return;
  const auto entry = [&](uint32_t i) { return i < ready.size() ? ready[i] : running; }; // L[i]
  const uint32_t first = ahead[0] - steps;
  const uint32_t next = entry(first);
  // What the checkers and the model keep for it (found from its slot), then its stack and
  // buffers, whose addresses its SimThread holds: prefetched a pick ago where that pick
  // foresaw this one, as the one after the next.
  if (observer != nullptr) observer->prefetch_thread(thread_id_of_slot(next));
  model->prefetch_thread(ThreadSlot{next});
  prefetch_pending_location(threads[next]);
  prefetch_stack(threads[next]);
  prefetch_buffers(threads[next]);
  if (ahead[1] < steps) return;
  // The pick after it: the next pick's removal moves L's last entry into its place, and its
  // resumption appends the next thread again.
  const uint32_t second = ahead[1] - steps;
  const uint32_t after_next = second + 1 == n ? next : second == first ? entry(n - 1) : entry(second);
  prefetch_thread(threads[after_next]);
}

void Machine::Impl::prefetch_pending_location(const SimThread& thread) const {
  // A stackless thread stopped before an access holds where it lands (bytecode_vm.cpp); the
  // AST walker's threads keep it on their fibers' stacks. Its SimThread line was prefetched a
  // pick ago, where that pick foresaw this one.
  if (stackless_kernel == nullptr || thread.status != ThreadStatus::AtEvent) return;
  const EventKind kind = thread.pending.kind;
  if (kind != EventKind::Load && kind != EventKind::Store && kind != EventKind::Atomic) return;
  model->prefetch_location(thread.pending_access.location);
  if (observer != nullptr) observer->prefetch_location(thread.pending_access.location);
}

void Machine::Impl::resume_predicting(uint32_t slot, uint32_t model_steps) {
  SimThread& thread = threads[slot];
  PickEffect& effect = pick_effects[pick_effect_index(thread)]; // before the resumption moves its event on
  prefetch_predicted_picks(model_steps, slot);
  const size_t ready_before = ready.size();
  resume_and_settle(thread);
  effect.comes_back = ready.size() == ready_before + 1;
  const int64_t change = int64_t(model->internal_step_count() + due_releases.size()) - int64_t(model_steps);
  effect.model_steps_change = int8_t(std::clamp<int64_t>(change, -128, 127));
}

void Machine::Impl::prefetch_buffers(const SimThread& thread, PrefetchReach reach) const {
  // A stackless thread has only the kernel's frame, which neither it nor a snapshot reads
  // (spin_loops.cpp, frames_above_kernel): its frames' buffer is left cold. A barrier round
  // takes no read snapshot.
  if (slots_on_heap) prefetch_words(thread.slots);
  if (stackless_kernel == nullptr && !thread.frames.empty()) prefetch_bytes(thread.frames.data(), 0, 128);
  // The snapshots lie past the operand stack's bottom, beyond prefetch_thread's reach: only a
  // thread that has taken one reads them (ThreadSlotState::spin_state_clean).
  if (reach == PrefetchReach::Event && !thread.spin_state_clean)
    prefetch_bytes(&thread.last_snapshot, 0, int(2 * sizeof(ThreadSnapshot)));
}

} // namespace fencelab
