// What one execution produced: its observed values, or why it did not complete.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/program/program.h"

#include <compare>
#include <string>
#include <vector>

namespace fencelab {

#define FENCELAB_EXECUTION_STATUSES(X)                                                             \
  X(Completed, "completed")                                                                        \
  X(Deadlock, "deadlock")          /* no thread can progress: barriers, endless spinning */        \
  X(StepLimit, "step limit")       /* the execution ran past --max-steps events */                 \
  X(RuntimeError, "runtime error") /* out of bounds, division by zero, ... */

enum class ExecutionStatus : uint8_t {
#define X(name, spelling) name,
  FENCELAB_EXECUTION_STATUSES(X)
#undef X
};

const char* execution_status_name(ExecutionStatus status);

struct Outcome {
  ExecutionStatus status = ExecutionStatus::Completed;
  std::vector<Word> values;     ///< one per ObservedItem (canonical words)
  std::vector<uint8_t> present; ///< 0 where an observed local was never assigned
  std::string message;          ///< for non-completed executions: a stable one-line reason

  friend auto operator<=>(const Outcome&, const Outcome&) = default;

  /** "A=1 B=20", or "deadlock: ...", "runtime error: ...". Absent locals print as `A=?`. */
  std::string to_string(const Program& program) const;
  /** Whether the pattern's items all have the pattern's values (completed outcomes only). */
  bool matches(const OutcomePattern& pattern) const;
};

} // namespace fencelab
