// The PTX ISA's memory consistency model, axiomatic, over the candidate executions of a PTX
// litmus test (src/models/ptx/): every reads-from choice, every coherence order, every fence-SC
// order and barrier grouping is a candidate; the ISA's axioms keep the consistent ones.
#pragma once

#include "fencelab/litmus/ptx_litmus.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fencelab::litmus {

/** What a test's consistent executions end in: the values of the condition's registers and
 *  locations (in `variables` order), each with whether it satisfies the condition. */
struct PtxExploration {
  std::vector<std::string> variables;                      ///< "P0:r0", "x", in the condition's order
  std::map<std::vector<int64_t>, bool> outcomes;           ///< values -> satisfies the condition
  uint64_t candidates = 0;                                 ///< candidate executions checked
  uint64_t consistent = 0;                                 ///< of them, consistent under the model
  /** Set when the test is too large to enumerate (the reason); the rest is then empty. */
  std::optional<std::string> refused;

  /** herd7's reading of the condition: exists holds when some outcome satisfies it, ~exists
   *  when none does, forall when every one does (vacuously, when there is no execution). */
  bool condition_holds(PtxQuantifier quantifier) const;
  /** Outcomes satisfying (positive) and not satisfying (negative) the condition. */
  uint64_t positive() const;
  uint64_t negative() const;
};

/** Candidates beyond which explore_ptx refuses a test rather than run for long. */
inline constexpr uint64_t kPtxCandidateLimit = 20'000'000;

/** Enumerates the candidate executions of `test` and keeps those the PTX model allows. */
PtxExploration explore_ptx(const PtxTest& test, uint64_t candidate_limit = kPtxCandidateLimit);

/** The report `fencelab ptx-litmus` prints: the outcome table, then herd7's verdict line
 *  `Observation NAME Never|Sometimes|Always POSITIVE NEGATIVE`, then whether the condition holds. */
std::string format_ptx_exploration(const PtxTest& test, const PtxExploration& exploration);

} // namespace fencelab::litmus
