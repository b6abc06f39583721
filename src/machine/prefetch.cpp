// Prefetching what a resumption touches first, where the Machine knows or can predict which
// thread it resumes next (docs/architecture.md, "Prefetching resumptions"). Hints only: a
// prefetch never faults and changes no result.
#include "machine_impl.h"

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

void Machine::Impl::prefetch_predicted_picks(uint32_t options, uint32_t model_steps, uint32_t running) const {
  // The random scheduler's next two picks, if each has the options this one had (the usual
  // case: the running thread comes back to `ready` at its end, and nothing else changes). Only
  // a hint: a wrong guess costs a few prefetches, never a different decision.
  std::array<uint32_t, 2> ahead;
  if (!choices->predict(options, model_steps, ahead)) return;
  // `ready` lacks the running thread, which its resumption appends again: ready + [running].
  const uint32_t n = static_cast<uint32_t>(ready.size()) + 1;
  const auto after_this = [&](uint32_t i) { return i + 1 < n ? ready[i] : running; };
  if (ahead[0] < model_steps || ahead[0] - model_steps >= n) return;
  const uint32_t first = ahead[0] - model_steps;
  const uint32_t next = after_this(first);
  // The next pick's SimThread was prefetched a pick ago (as the one after the next): its stack
  // and buffers now, whose addresses it holds, and what the checkers keep for it.
  prefetch_stack(threads[next]);
  prefetch_buffers(threads[next]);
  if (observer != nullptr) observer->prefetch_thread(threads[next].ref.id);
  model->prefetch_thread(ThreadSlot{next});
  if (ahead[1] < model_steps || ahead[1] - model_steps >= n) return;
  // The pick after it: the next pick's removal moves the last entry (the running thread) into
  // its place, and its resumption appends the next thread again.
  const uint32_t second = ahead[1] - model_steps;
  const uint32_t after_next = second + 1 == n ? next : second == first ? running : after_this(second);
  prefetch_thread(threads[after_next]);
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
