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
  X(StepLimit, "step limit")       /* stopped by a limit: --max-steps, --max-barrier-rounds, ... */ \
  X(RuntimeError, "runtime error") /* out of bounds, division by zero, ... */                     \
  X(Livelock, "livelock")          /* a loop that repeats its state: it can never end */

enum class ExecutionStatus : uint8_t {
#define X(name, spelling) name,
  FENCELAB_EXECUTION_STATUSES(X)
#undef X
};

const char* execution_status_name(ExecutionStatus status);

/** Lexicographic, as std::vector's <=>. */
template <class T>
std::strong_ordering compare_elements(const std::vector<T>& a, const std::vector<T>& b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return a[i] < b[i] ? std::strong_ordering::less : std::strong_ordering::greater;
  return a.size() <=> b.size();
}

struct Outcome {
  ExecutionStatus status = ExecutionStatus::Completed;
  std::vector<Word> values;     ///< one per ObservedItem (canonical words)
  std::vector<uint8_t> present; ///< 0 where an observed local was never assigned
  std::string message;          ///< for non-completed executions: a stable one-line reason

  friend bool operator==(const Outcome&, const Outcome&) = default;
  /** The order of the defaulted comparison (members in order, vectors lexicographically),
   *  written out: the outcome table compares every execution's outcome a few times, and the
   *  generic vector comparison cost more than the rest of the lookup. */
  friend std::strong_ordering operator<=>(const Outcome& a, const Outcome& b) {
    if (a.status != b.status) return a.status <=> b.status;
    if (const auto c = compare_elements(a.values, b.values); c != 0) return c;
    if (const auto c = compare_elements(a.present, b.present); c != 0) return c;
    return a.message.compare(b.message) <=> 0;
  }

  /** "A=1 B=20", or "deadlock: ...", "runtime error: ...". Absent locals print as `A=?`. */
  std::string to_string(const Program& program) const;
  /** Whether the pattern's items all have the pattern's values (completed outcomes only). */
  bool matches(const OutcomePattern& pattern) const;
};

} // namespace fencelab
