// Interrupts asked for outside the scheduling loop (machine_impl.h, poll_interrupt).
//
// The scheduling loop asks ChoiceSource::interrupted every Machine::kInterruptInterval passes,
// but some work never returns to it: settle() runs a block's barrier rounds one after another
// while each round's last arrival makes the next release due, and admits the next block as
// each one retires, so `while (1) __syncthreads();` with a changing counter, or a grid of two
// billion blocks whose threads end at once, ran to its end (hours; minutes) deaf to SIGTERM and
// --time-limit (hardening issue 68 F).
#include "machine_impl.h"

namespace fencelab {

bool Machine::Impl::poll_interrupt(uint64_t& units) {
  if (++units % Machine::kInterruptInterval != 0 || !choices->interrupted()) return false;
  // Ended as the scheduling loop ends an interrupted execution (machine.cpp): a step limit the
  // explorer discards, with no thread to blame.
  if (!execution_fault) execution_fault = ThreadFault{ExecutionStatus::StepLimit, SourceRange{}, "interrupted by the explorer"};
  return true;
}

} // namespace fencelab
