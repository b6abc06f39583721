// Running many executions and collecting their outcomes: random, exhaustive, replay.
// The three differ only in how they answer the Machine's "which of these N?" (choice.h).
#pragma once

#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/replay_token.h"
#include "fencelab/machine/machine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fencelab {

class SearchControl; // search_control.h

/** One distinct outcome: how often it was reached and the first execution that reached it. */
struct OutcomeCount {
  Outcome outcome;
  uint64_t executions = 0;
  ReplayToken witness;
  std::optional<RuntimeErrorReport> error; ///< for runtime-error and livelock outcomes: the first report's
};

/** One distinct checker report: how many executions showed it, and the first (its witness). */
struct ReportCount {
  CheckReport report;
  uint64_t executions = 0;
};

enum class ExplorationMode : uint8_t { Random, Exhaustive };

struct ExplorationResult {
  ExplorationMode mode = ExplorationMode::Random;
  std::string model;
  uint64_t seed = 0;             ///< random mode
  uint64_t executions = 0;
  uint64_t events = 0;           ///< visible events over all executions
  bool complete = false;         ///< exhaustive: every execution was explored
  double seconds = 0;
  std::vector<OutcomeCount> outcomes; ///< sorted by outcome
  std::vector<ReportCount> reports;   ///< checker reports, in order first found (with checkers)
  bool checked = false;               ///< whether checkers ran
  /** Why a SearchControl ended the search before its end ("interrupted", "time limit of 10 s
   *  reached (--time-limit)"); empty when it ran to its end or to --max-executions. */
  std::string stopped_because;
  /** `check` only, random mode: the exhaustive search it replaced was cut short at this many
   *  executions (its --max-executions), so these random executions were run instead. */
  uint64_t exhaustive_cut_short_at = 0;
  /** `check` only, random mode: the exhaustive search it replaced stopped for this reason (an
   *  execution too long for the partial-order reduction), so these executions were run instead. */
  std::string exhaustive_stopped_because;
  /** Exhaustive mode: the partial-order reduction stopped the search, an execution being too
   *  long for it to analyse (`stopped_because` says so); `check` then samples instead. */
  bool reduction_gave_up = false;
  /** Exhaustive mode: the reduction used ("dpor", "none"; "none" under lockstep, which the
   *  reduction does not cover), and how many executions it abandoned part-way because they
   *  could only repeat explored ones (not counted in `executions`). */
  std::string reduction;
  uint64_t abandoned = 0;
  /** Exhaustive mode with the reduction: of `executions`, those that resumed threads waiting
   *  after a failed spin iteration at their end (ExecutionResult::awaits_released). */
  uint64_t awaits_released = 0;
};

struct RandomOptions {
  uint64_t runs = 1000;
  uint64_t seed = 1;
  /** Probability of taking the common case (the newest value, a prompt drain) where a
   *  decision has one; otherwise every option is equally likely. 0 is uniform. */
  double bias = 0.5;
  Checkers* checkers = nullptr; ///< when set, every execution is checked
  SearchControl* control = nullptr; ///< when set, may stop the search early (time limit, Ctrl-C)
  /** OS threads running executions (random_search.cpp): the result is the same for any
   *  number, as runs are dealt out in fixed chunks with seeds derived from `seed`. */
  uint32_t jobs = 1;
};

/** How the exhaustive explorer avoids exploring equivalent orders (DESIGN "Reduction"). */
enum class Reduction : uint8_t {
  None, ///< every distinct decision sequence: the reference the reduction is tested against
  Dpor, ///< source-DPOR with sleep sets (src/explore/dpor.h); none under --warp lockstep
};

struct ExhaustiveOptions {
  uint64_t max_executions = 100'000;
  Checkers* checkers = nullptr; ///< when set, every execution is checked
  SearchControl* control = nullptr; ///< when set, may stop the search early (time limit, Ctrl-C)
  Reduction reduction = Reduction::Dpor;
};

/** `runs` executions with decisions drawn from a generator seeded with `seed`. */
ExplorationResult explore_random(Machine& machine, MemoryModel& model, const RandomOptions& options);

/** Every execution, by depth-first search over decision sequences with re-execution. */
ExplorationResult explore_exhaustive(Machine& machine, MemoryModel& model,
                                     const ExhaustiveOptions& options);

/** How `fencelab check` searches: every execution when there are at most `max_executions`,
 *  otherwise `runs` random ones from `seed`. A search stopped by `control` is not replaced. */
struct CheckBudget {
  uint64_t max_executions = 20'000;
  uint64_t runs = 2'000;
  uint64_t seed = 1;
  SearchControl* control = nullptr;
  Reduction reduction = Reduction::Dpor;
  uint32_t jobs = 1; ///< for the random executions (RandomOptions::jobs)
};

/** Explores with `checkers` on every execution, within `budget` (what `fencelab check` does). */
ExplorationResult explore_checked(Machine& machine, MemoryModel& model, Checkers& checkers, const CheckBudget& budget);

/** Why a replay could not follow its token. */
struct ReplayError {
  std::string message;
  bool stopped = false; ///< by the control (time limit, signal), not for a misfit token
};

/** Re-runs the execution a token describes; `observer` sees its events. With a `control`, its
 *  time limit or a signal ends the replay (a barrier loop's can take minutes): nullopt, with
 *  `error.stopped` set. */
std::optional<ExecutionResult> replay(Machine& machine, MemoryModel& model, const ReplayToken& token,
                                      EventObserver* observer, ReplayError& error,
                                      const SearchControl* control = nullptr);

/** splitmix64: a small, fast generator whose sequence is the same on every machine. */
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : m_state(seed) {}
  uint64_t next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /** Uniform in [0, bound): Lemire's multiply-shift on the top 32 bits (bias below 2^-32 x
   *  bound, far under what a histogram can show). */
  uint32_t below(uint32_t bound) { return uint32_t(((next() >> 32) * bound) >> 32); }
  /** Uniform in [0, 1). */
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
  uint64_t m_state;
};

} // namespace fencelab
