// The catalogue's outcome expectations checked by exploring each kernel (catalogue_tests.cpp
// under ITS, warp_catalogue_tests.cpp under lockstep).
#pragma once

#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

namespace fencelab::testing {

/** What a sweep checked: expectations looked at, and those proven by a complete search. */
struct ExpectationSweep {
  size_t checked = 0, proven = 0;
};

inline bool names_mode(const Expectation& e, const std::string& mode) {
  return std::find(e.models.begin(), e.models.end(), mode) != e.models.end();
}

/** Checks the outcome expectations of `program` (`file`) under `model_name` when one names
 *  `mode` ("gpu", "gpu/lockstep", ...): explores `machine` exhaustively within the sweep budget
 *  and with 400 random runs. Neither may make an expectation fail; after a complete search each
 *  must hold, and without one a reachable outcome must at least have been seen. Diagnostic
 *  expectations need the checkers and are tests/check_tests.cpp's. */
inline void check_outcome_expectations(const std::string& file, const Program& program, Machine& machine,
                                       const char* model_name, const std::string& mode, ExpectationSweep& sweep) {
  const bool named = std::any_of(program.expectations.begin(), program.expectations.end(),
                                 [&](const Expectation& e) { return names_mode(e, mode); });
  if (!named || !model_is_implemented(model_name)) return;
  auto model = create_model(model_name);
  const auto exhaustive = explore_exhaustive(machine, *model, ExhaustiveOptions{sweep_budget(program, 4000)});
  const auto random = explore_random(machine, *model, RandomOptions{400, 1});
  const auto by_search = check_expectations(program, exhaustive);
  const auto by_random = check_expectations(program, random);
  REQUIRE(by_search.size() == by_random.size());
  for (size_t i = 0; i < by_search.size(); ++i) {
    const Expectation& e = *by_search[i].expectation;
    if (e.kind == ExpectationKind::Diagnostic || e.kind == ExpectationKind::NoDiagnostics) continue;
    ++sweep.checked;
    INFO(file << " [" << mode << "] line " << program.source->position(e.range.begin).line << ": " << e.text
              << "\n  exhaustive: " << by_search[i].detail << "\n  random: " << by_random[i].detail);
    CHECK(by_search[i].verdict != Verdict::Fails);
    CHECK(by_random[i].verdict != Verdict::Fails);
    if (exhaustive.complete) {
      CHECK(by_search[i].verdict == Verdict::Holds);
      ++sweep.proven;
    } else if (e.kind == ExpectationKind::Reachable) {
      CHECK((by_search[i].verdict == Verdict::Holds || by_random[i].verdict == Verdict::Holds));
    }
  }
}

} // namespace fencelab::testing
