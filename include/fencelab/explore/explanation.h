// Plain-language explanations of one execution (`fencelab explain`).
#pragma once

#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"

#include <string>
#include <vector>

namespace fencelab {

struct ExplanationContext {
  std::string model;              ///< the model the execution ran under
  bool reachable_under_sc = false; ///< whether an exhaustive sc search reaches the same outcome
};

/** A few sentences: the stale read or reordered pair behind the outcome, and the fence (or
 *  wider scope) that forbids it. */
std::vector<std::string> explain_execution(const Program& program, const std::vector<Event>& events,
                                           const ExplanationContext& context);

} // namespace fencelab
