// fencelab against an independent reference (reference_model.h): on generated barrier-heavy
// litmus programs (litmus_program.h), the outcome set of the plain exhaustive search
// (--reduction none) equals the reference's under sc, tso and gpu, and the partial-order
// reduction's (dpor) equals both, wherever the plain search completes within its budget.
// The reduction's own differential test (reduction_tests.cpp) compares dpor with none, which
// share the Machine; this one catches what they share (issue 68: barrier releases).
// A difference is printed with the generator seed, the kernel and each set's missing and
// extra outcomes.
#include "litmus_examples.h"
#include "litmus_program.h"
#include "machine_helpers.h"
#include "reference_model.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

struct FencelabOutcomes {
  bool complete = false;
  uint64_t executions = 0;
  std::set<std::string> outcomes;
  std::set<std::string> reports; ///< the checkers' reports by identity, where they ran
};

/** A fencelab outcome in the reference's words: the values in observed order as int (the
 *  program's observe line is observed_labels'), or the status for an execution that did not
 *  complete ("deadlock", "runtime-error: ..."). */
std::string outcome_in_reference_terms(const LitmusProgram& litmus, const Outcome& outcome) {
  if (outcome.status == ExecutionStatus::Deadlock) return "deadlock";
  if (outcome.status != ExecutionStatus::Completed)
    return std::string(execution_status_name(outcome.status)) + ": " + outcome.message;
  std::vector<int32_t> values;
  for (Word w : outcome.values) values.push_back(int32_t(uint32_t(w)));
  std::string text = outcome_text(litmus, values);
  for (uint8_t present : outcome.present)
    if (!present) return text + " (a register never assigned)";
  return text;
}

/** Whether fencelab's searches run with the checkers: then their reports are compared too
 *  (dpor's with none's), and the checkers' footprints make more steps dependent. */
enum class Checking : bool { Off, On };

/** fencelab's exhaustive search. */
FencelabOutcomes explore_fencelab(const LitmusProgram& litmus, const Program& program, const std::string& model_name,
                                  Reduction reduction, uint64_t budget, Checking checking = Checking::Off) {
  Machine machine(program, {});
  auto model = create_model(model_name);
  Checkers checkers(program);
  ExhaustiveOptions options;
  options.max_executions = budget;
  options.reduction = reduction;
  options.checkers = checking == Checking::On ? &checkers : nullptr;
  const ExplorationResult r = explore_exhaustive(machine, *model, options);
  FencelabOutcomes out;
  out.complete = r.complete;
  out.executions = r.executions;
  for (const OutcomeCount& o : r.outcomes) out.outcomes.insert(outcome_in_reference_terms(litmus, o.outcome));
  for (const ReportCount& report : r.reports) out.reports.insert(report.report.identity());
  return out;
}

/** What `a` has that `b` has not, one per line. */
std::string only_in(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::string out;
  for (const std::string& item : a)
    if (!b.count(item)) out += "\n      " + item;
  return out.empty() ? " none" : out;
}

struct ModelTally {
  uint64_t compared = 0, skipped = 0;
  uint64_t none_differs = 0;      ///< none's set differs from the reference's
  uint64_t dpor_differs = 0;      ///< dpor's set differs from the reference's
  uint64_t dpor_differs_none = 0; ///< dpor's set differs from none's
  uint64_t reports_differ = 0;    ///< with the checkers: dpor's reports differ from none's
};

constexpr const char* kModels[] = {"sc", "tso", "gpu"};

/** Compares fencelab with the reference on the program of `seed` under each model, counting
 *  into `tallies`; FAIL_CHECKs with the details on a difference. With `checking` on, none and
 *  dpor run with the checkers, and their reports must be equal too. */
void compare_seed(uint64_t seed, uint64_t budget, ModelTally (&tallies)[3], Checking checking = Checking::Off,
                  LitmusShape shape = LitmusShape::Any) {
  const LitmusProgram litmus = generate_litmus_program(seed, shape);
  const std::string text = render_litmus_kernel(litmus);
  auto compiled = compile_text(text, "generated.cu");
  INFO("seed " << seed << " (" << litmus.shape << ")\n" << text << compiled->rendered());
  REQUIRE(compiled->program != nullptr);
  for (size_t m = 0; m < 3; ++m) {
    const std::string model = kModels[m];
    const FencelabOutcomes none = explore_fencelab(litmus, *compiled->program, model, Reduction::None, budget, checking);
    if (!none.complete) {
      ++tallies[m].skipped;
      continue;
    }
    const ReferenceResult reference = explore_reference(litmus, *reference_model_named(model));
    if (!reference.complete) {
      ++tallies[m].skipped;
      continue;
    }
    const FencelabOutcomes dpor = explore_fencelab(litmus, *compiled->program, model, Reduction::Dpor, budget, checking);
    ++tallies[m].compared;
    const bool none_ok = none.outcomes == reference.outcomes;
    const bool dpor_ok = dpor.complete && dpor.outcomes == reference.outcomes;
    const bool dpor_none_ok = dpor.complete && dpor.outcomes == none.outcomes;
    const bool reports_ok = dpor.reports == none.reports;
    tallies[m].none_differs += !none_ok;
    tallies[m].dpor_differs += !dpor_ok;
    tallies[m].dpor_differs_none += !dpor_none_ok;
    tallies[m].reports_differ += !reports_ok;
    if (none_ok && dpor_ok && reports_ok) continue;
    // Printed whole on stdout (Catch2 would wrap the kernel's lines), named in the failure.
    std::ostringstream detail;
    detail << "reference difference: generator seed " << seed << " (" << litmus.shape << ") under " << model
           << ": reference " << reference.outcomes.size() << " outcomes (" << reference.states << " states), none "
           << none.outcomes.size() << " (" << none.executions << " executions), dpor " << dpor.outcomes.size() << " ("
           << dpor.executions << " executions" << (dpor.complete ? "" : ", cut short") << ")\n"
           << text << "    none misses:" << only_in(reference.outcomes, none.outcomes)
           << "\n    none adds:" << only_in(none.outcomes, reference.outcomes)
           << "\n    dpor misses:" << only_in(reference.outcomes, dpor.outcomes)
           << "\n    dpor adds:" << only_in(dpor.outcomes, reference.outcomes)
           << "\n    reports only none's:" << only_in(none.reports, dpor.reports)
           << "\n    reports only dpor's:" << only_in(dpor.reports, none.reports) << "\n(end of difference)\n";
    std::fputs(detail.str().c_str(), stdout);
    std::fflush(stdout);
    FAIL_CHECK("reference difference: generator seed " << seed << " under " << model << " (printed above)");
  }
}

/** Compares `count` generated programs from `first_seed`; prints each model's figures (the
 *  line tools/reduction-soak --reference reads) and requires most to have been compared. */
void compare_generated(uint64_t first_seed, uint64_t count, uint64_t budget, Checking checking = Checking::Off) {
  ModelTally tallies[3];
  for (uint64_t seed = first_seed; seed < first_seed + count; ++seed) compare_seed(seed, budget, tallies, checking);
  for (size_t m = 0; m < 3; ++m) {
    const ModelTally& t = tallies[m];
    // On stdout, one line each (tools/reduction-soak --reference reads them; Catch2 would wrap).
    std::printf("reference %s: %llu compared, %llu skipped, differing: none %llu, dpor %llu, dpor from none %llu, "
                "reports %llu (of %llu programs from seed %llu, budget %llu, checkers %s)\n",
                kModels[m], (unsigned long long)t.compared, (unsigned long long)t.skipped,
                (unsigned long long)t.none_differs, (unsigned long long)t.dpor_differs,
                (unsigned long long)t.dpor_differs_none, (unsigned long long)t.reports_differ, (unsigned long long)count,
                (unsigned long long)first_seed, (unsigned long long)budget, checking == Checking::On ? "on" : "off");
    std::fflush(stdout);
    CHECK(t.compared * 4 >= count * 3); // most programs' full search fits the budget
  }
}

uint64_t environment_number(const char* name, uint64_t otherwise) {
  const char* text = std::getenv(name);
  return text ? std::strtoull(text, nullptr, 10) : otherwise;
}

} // namespace

// The examples of issue 68 (litmus_examples.h), each with its outcome sets worked out by hand
// (reference_model_tests.cpp checks the reference gives them).
TEST_CASE("fencelab's searches give issue 68's outcome sets", "[reference][issue68]") {
  for (const litmus_examples::Issue68Example& example : litmus_examples::issue68_examples()) {
    const std::string text = render_litmus_kernel(example.program);
    auto compiled = compile_text(text, "issue68.cu");
    INFO(example.name << "\n" << text << compiled->rendered());
    REQUIRE(compiled->program != nullptr);
    for (const char* model : kModels) {
      const std::set<std::string>& expected = example.expected(model);
      for (const Reduction reduction : {Reduction::None, Reduction::Dpor}) {
        const FencelabOutcomes found = explore_fencelab(example.program, *compiled->program, model, reduction, 100'000);
        INFO("under " << model << " with --reduction " << (reduction == Reduction::None ? "none" : "dpor")
                      << ": misses" << only_in(expected, found.outcomes) << "\n  adds" << only_in(found.outcomes, expected));
        CHECK(found.complete);
        CHECK(found.outcomes == expected);
      }
    }
  }
}

TEST_CASE("fencelab's searches give the reference's outcomes on generated barrier-heavy programs",
          "[reference][generated]") {
  compare_generated(1, kSanitizedBuild ? 40 : 300, 5000, Checking::On);
}

// Hidden from the default run (Catch2's "." tag): tools/reduction-soak --reference runs it with
// FENCELAB_SOAK_SEED=S, FENCELAB_SOAK_KERNELS=N and FENCELAB_SOAK_BUDGET=E (the plain
// search's execution budget).
TEST_CASE("soak: fencelab against the reference on many generated programs", "[.reference-soak]") {
  compare_generated(environment_number("FENCELAB_SOAK_SEED", 1000000), environment_number("FENCELAB_SOAK_KERNELS", 1000),
                    environment_number("FENCELAB_SOAK_BUDGET", 20'000),
                    environment_number("FENCELAB_SOAK_CHECKERS", 1) != 0 ? Checking::On : Checking::Off);
}
