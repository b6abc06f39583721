// Whether a search showed a kernel correct, and if not, why: the one judgement that every
// command's exit code and closing `result:` line follow (README.md, "Exit codes").
//
// A search is *shown correct* only when it proved what it set out to: an exhaustive search
// that visited every execution (a random one that ran every execution asked of it), every
// expectation naming its model holds, and no error diagnostic or execution error appeared
// that an `//@ expect MODEL: diagnostic KIND` does not announce (docs/kernel-language.md,
// "Expectations"). Otherwise it has *findings* (an expectation failed, an unannounced error),
// or it is *inconclusive* (cut short, stopped, no execution at all, an execution stopped at a
// step limit, an expectation unproven), or both.
#pragma once

#include "fencelab/explore/expectations.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/program/program.h"

#include <string>
#include <vector>

namespace fencelab {

struct SearchVerdict {
  std::string model;                     ///< as results name it: "gpu", "gpu.lockstep"
  std::vector<std::string> findings;     ///< what shows the kernel wrong, one phrase each
  std::vector<std::string> inconclusive; ///< why the search proves nothing or not everything
  std::string proved;                    ///< for a search shown correct: what it rests on

  bool shown_correct() const { return findings.empty() && inconclusive.empty(); }
  /** "success", "findings" or "inconclusive" (findings win when there are both). */
  const char* name() const;
  /** One line: "success: all 13 executions explored, 2 expectations hold", "findings: ...",
   *  "inconclusive: ...", or "findings: ...; also inconclusive: ...". */
  std::string describe() const;
};

/** Judges one search (`expectations`: check_expectations of it). */
SearchVerdict judge_search(const Program& program, const ExplorationResult& result,
                           const std::vector<ExpectationResult>& expectations);

/** Judges one replayed execution under `model` ("gpu.lockstep" names the warp mode): a
 *  completed one is a success; an execution error is a finding unless the file announces
 *  its kind for that model; one stopped at a step limit proved nothing. */
SearchVerdict judge_execution(const Program& program, const std::string& model, const ExecutionResult& execution);

} // namespace fencelab
