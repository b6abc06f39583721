// Checking a file's `//@ expect` lines against what an exploration found.
#pragma once

#include "fencelab/explore/exploration.h"
#include "fencelab/program/program.h"

#include <string>
#include <vector>

namespace fencelab {

enum class Verdict : uint8_t {
  Holds,        ///< proved (exhaustive) or confirmed by a witness
  Fails,        ///< refuted, with a witness where one exists
  Inconclusive, ///< the search was not exhaustive and found nothing either way
};

const char* verdict_name(Verdict verdict);

struct ExpectationResult {
  const Expectation* expectation = nullptr;
  Verdict verdict = Verdict::Inconclusive;
  std::string detail;                 ///< one line: why
  std::optional<ReplayToken> witness; ///< the execution that decides it, if any
};

/** The results for the expectations that name `result.model`, in file order. */
std::vector<ExpectationResult> check_expectations(const Program& program,
                                                  const ExplorationResult& result);

/** Evaluates an `always` predicate on a completed outcome. */
bool evaluate_predicate(const Expr& predicate, const Outcome& outcome);

} // namespace fencelab
