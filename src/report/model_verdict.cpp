// Allowed, forbidden or merely not reached (model_verdict.h).
#include "fencelab/report/model_verdict.h"

#include <algorithm>

namespace fencelab {

ModelVerdict model_verdict(const ExplorationResult& result, const Outcome& outcome) {
  const bool reached = std::any_of(result.outcomes.begin(), result.outcomes.end(),
                                   [&](const OutcomeCount& o) { return o.outcome == outcome; });
  if (reached) return ModelVerdict::Allowed;
  const bool proven = result.mode == ExplorationMode::Exhaustive && result.complete;
  return proven ? ModelVerdict::Forbidden : ModelVerdict::NotReached;
}

const char* model_verdict_name(ModelVerdict verdict) {
  switch (verdict) {
  case ModelVerdict::Allowed: return "allowed";
  case ModelVerdict::Forbidden: return "forbidden";
  case ModelVerdict::NotReached: return "not reached";
  }
  return "?";
}

} // namespace fencelab
