// What one model's exploration says about an outcome. Only a complete exhaustive search proves
// an outcome forbidden; a search cut short (by --max-executions, --time-limit, Ctrl-C) or a
// random one merely did not reach it, and must never be reported as "forbids".
#pragma once

#include "fencelab/explore/exploration.h"

#include <cstdint>

namespace fencelab {

enum class ModelVerdict : uint8_t {
  Allowed,    ///< some execution reached the outcome
  Forbidden,  ///< a complete exhaustive search did not reach it
  NotReached, ///< a search that was not complete did not reach it
};

ModelVerdict model_verdict(const ExplorationResult& result, const Outcome& outcome);

/** "allowed", "forbidden", "not reached". */
const char* model_verdict_name(ModelVerdict verdict);

} // namespace fencelab
