// Helpers of the kernel-language tests (vectors, structs): a kernel's exact outcome set, and
// the errors compiling one gives.
#pragma once

#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "frontend_helpers.h"
#include "machine_helpers.h"

#include <set>
#include <string>
#include <vector>

namespace fencelab::testing {

/** Every outcome of the kernel under `model_name`, from a search that must complete within
 *  `max_executions`. */
inline std::set<std::string> exact_outcomes(const std::string& text, const char* model_name = "sc",
                                            uint64_t max_executions = 20000) {
  Kernel k = kernel_from_text(text);
  auto model = create_model(model_name);
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{max_executions});
  REQUIRE(r.complete);
  return outcome_strings(k.program(), r);
}

/** The checkers' reports over a complete search of the kernel under `model_name`. */
inline ExplorationResult checked_search(const std::string& text, const char* model_name) {
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  auto model = create_model(model_name);
  ExplorationResult r = explore_checked(*k.machine, *model, checkers, CheckBudget{});
  REQUIRE(r.complete);
  return r;
}

/** Every outcome of a small kernel under sc, from a search that must complete within 1,000
 *  executions (the kernel-language cases). */
inline std::set<std::string> small_kernel_outcomes(const std::string& text) { return exact_outcomes(text, "sc", 1000); }

/** The messages of the diagnostics compiling `text` gives, in order: all of them (warnings and
 *  notes too), or only its errors. */
inline std::vector<std::string> diagnostic_messages(const std::string& text, bool errors_only = false) {
  const auto compiled = compile_text(text);
  std::vector<std::string> messages;
  for (const Diagnostic& d : compiled->diagnostics.diagnostics())
    if (!errors_only || d.severity == Severity::Error) messages.push_back(d.message);
  return messages;
}

/** The messages of the errors compiling `text` gives, in order. */
inline std::vector<std::string> error_messages(const std::string& text) { return diagnostic_messages(text, true); }

} // namespace fencelab::testing
