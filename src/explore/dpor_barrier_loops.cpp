// What a barrier loop costs the reduction (issue 68 F): a block whose threads do nothing
// between barriers makes a step of each release, one after another, and explore and check of
// such a loop took time quadratic in its rounds (80,000 rounds: 3 s; the default limit of
// 10,000,000: hours) and memory without bound.
#include "dpor.h"

namespace fencelab {

// A release at once follows the arrival that completed its barrier, and one with no step
// between it and the previous one has that one's trigger. Found by walking back over the
// releases before it, the trigger cost time linear in the loop's rounds so far at every
// release (perf: 86% of explore's time in close_step at 40,000 rounds); each step keeps its own.
size_t DporChoices::trigger_of_new_step() const {
  const size_t here = m_steps.size() - 1;
  if (here == 0 || !m_steps[here].at_once) return here;
  return m_steps[here - 1].trigger;
}

// A scheduling point keeps its entry and its step besides its enabled actors: a release (one
// enabled actor, the barrier) keeps about 300 bytes, not 16. Counted as 16 bytes an actor,
// 10,000,000 releases would have kept 6 GB before the reduction gave up on the execution.
uint64_t DporChoices::memory_units(size_t enabled) {
  constexpr uint64_t kUnit = sizeof(ActorId);
  return enabled + (sizeof(Entry) + sizeof(Step) + kUnit - 1) / kUnit;
}

} // namespace fencelab
