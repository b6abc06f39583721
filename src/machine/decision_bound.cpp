// How many decisions one execution can ask at most (machine.h, max_decisions): what a replay
// token may hold before it is refused as too long (hardening issue 68 F: the sixteen characters
// `sc:0[4294967295]` asked for 16 GB of decisions and ended in bad_alloc).
#include "fencelab/explore/replay_token.h"
#include "fencelab/machine/machine.h"
#include "fencelab/program/program.h"

namespace fencelab {

uint64_t max_decisions(const Program& program, const MachineOptions& options) {
  // An execution performs at most max_steps visible events (machine.cpp stops it there). Each
  // scheduling decision resumes a thread to its visible event or takes a model step, which
  // drains or propagates what a visible event stored; a load's read-from decision, a drain's
  // and an undefined value's (one per lane of a shuffle) come inside an event. 64 decisions an
  // event is more than any of these asks; past that, no execution can use the token's tail.
  constexpr uint64_t kPerEvent = 64;
  const uint64_t events = options.steps_for(program.launch.grid.total() * program.launch.block.total());
  if (events >= ReplayToken::kMaxDecisions / kPerEvent) return ReplayToken::kMaxDecisions;
  return kPerEvent * (events + 1);
}

} // namespace fencelab
