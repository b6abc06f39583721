// A search's verdict: success, findings or inconclusive (search_verdict.h).
#include "fencelab/explore/search_verdict.h"

#include "fencelab/checkers/checkers.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

namespace fencelab {

namespace {

bool names_model(const Expectation& e, const std::string& model) {
  return std::find(e.models.begin(), e.models.end(), model) != e.models.end();
}

/** Whether an `//@ expect MODEL: diagnostic KIND` of the file names `kind` under `model`: a
 *  diagnostic the kernel is there to demonstrate, which does not fail the run. */
bool announced(const Program& program, const std::string& model, DiagnosticKind kind) {
  return std::any_of(program.expectations.begin(), program.expectations.end(), [&](const Expectation& e) {
    return e.kind == ExpectationKind::Diagnostic && names_model(e, model) && e.diagnostic_kind == diagnostic_kind_name(kind);
  });
}

void add_unannounced(std::vector<std::string>& kinds, const Program& program, const std::string& model,
                     DiagnosticKind kind) {
  if (diagnostic_kind_severity(kind) != Severity::Error || announced(program, model, kind)) return;
  const std::string name = diagnostic_kind_name(kind);
  if (std::find(kinds.begin(), kinds.end(), name) == kinds.end()) kinds.push_back(name);
}

std::string plural(size_t count, const char* one, const char* many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

/** The lines of the expectations with `verdict`, as "line 3" or "lines 3, 7". */
std::string expectation_lines(const Program& program, const std::vector<ExpectationResult>& expectations,
                              Verdict verdict) {
  std::vector<uint32_t> lines;
  for (const ExpectationResult& e : expectations)
    if (e.verdict == verdict) lines.push_back(program.source->position(e.expectation->range.begin).line);
  return fmt::format("{} {}", lines.size() == 1 ? "line" : "lines", fmt::join(lines, ", "));
}

/** Why a search proves nothing or not everything about the kernel, whatever it found. */
void search_gaps(const ExplorationResult& r, std::vector<std::string>& gaps) {
  if (r.executions == 0) gaps.push_back("no execution ran");
  if (r.mode == ExplorationMode::Exhaustive) {
    if (r.complete) return;
    if (r.reduction_gave_up) gaps.push_back("the exhaustive search stopped: " + r.stopped_because);
    else if (!r.stopped_because.empty())
      gaps.push_back(fmt::format("the exhaustive search was stopped after {} ({})",
                                 plural(r.executions, "execution", "executions"), r.stopped_because));
    else
      gaps.push_back(fmt::format("the exhaustive search was cut short by --max-executions after {}",
                                 plural(r.executions + r.abandoned, "execution", "executions")));
    return;
  }
  // Random executions: `run` asked for them; `check` ran them because the exhaustive search it
  // wanted could not finish, and random executions cannot stand in for it.
  if (r.exhaustive_cut_short_at > 0)
    gaps.push_back(fmt::format("the exhaustive search was cut short at {} (--max-executions), and random "
                               "executions cannot prove what it would have",
                               plural(r.exhaustive_cut_short_at, "execution", "executions")));
  if (!r.exhaustive_stopped_because.empty())
    gaps.push_back("the exhaustive search stopped (" + r.exhaustive_stopped_because +
                   "), and random executions cannot prove what it would have");
  if (!r.stopped_because.empty())
    gaps.push_back(fmt::format("the random search was stopped after {} ({})",
                               plural(r.executions, "execution", "executions"), r.stopped_because));
}

/** What a search shown correct rests on. */
std::string proof_of(const ExplorationResult& r, size_t expectations) {
  std::string text = r.mode == ExplorationMode::Random
                         ? fmt::format("{} ran", plural(r.executions, "random execution", "random executions"))
                     : r.executions == 1 ? std::string("its only execution explored")
                                         : fmt::format("all {} executions explored", r.executions);
  if (expectations > 0)
    text += fmt::format(", {} {}", plural(expectations, "expectation", "expectations"), expectations == 1 ? "holds" : "hold");
  if (r.checked) text += ", no unannounced error diagnostic";
  return text;
}

} // namespace

const char* SearchVerdict::name() const {
  return !findings.empty() ? "findings" : !inconclusive.empty() ? "inconclusive" : "success";
}

std::string SearchVerdict::describe() const {
  if (shown_correct()) return "success: " + proved;
  std::string text;
  if (!findings.empty()) text = fmt::format("findings: {}", fmt::join(findings, "; "));
  if (!inconclusive.empty())
    text += fmt::format("{}inconclusive: {}", text.empty() ? "" : "; also ", fmt::join(inconclusive, "; "));
  return text;
}

SearchVerdict judge_search(const Program& program, const ExplorationResult& result,
                           const std::vector<ExpectationResult>& expectations) {
  SearchVerdict verdict;
  verdict.model = result.model;
  const auto count = [&](Verdict v) {
    return size_t(std::count_if(expectations.begin(), expectations.end(),
                                [v](const ExpectationResult& e) { return e.verdict == v; }));
  };
  if (const size_t failed = count(Verdict::Fails); failed > 0)
    verdict.findings.push_back(fmt::format("{} failed ({})", plural(failed, "expectation", "expectations"),
                                           expectation_lines(program, expectations, Verdict::Fails)));
  // Error diagnostics (when the checkers ran) and execution errors (always: they are outcomes,
  // also under --no-check) that the file does not announce.
  std::vector<std::string> unannounced;
  if (result.checked)
    for (const ReportCount& r : result.reports) add_unannounced(unannounced, program, result.model, r.report.kind);
  uint64_t stopped_at_limit = 0;
  const OutcomeCount* first_stopped = nullptr;
  for (const OutcomeCount& o : result.outcomes) {
    if (o.outcome.status == ExecutionStatus::StepLimit) {
      stopped_at_limit += o.executions;
      if (!first_stopped) first_stopped = &o;
    }
    if (const auto kind = execution_error_kind(o.outcome.status, o.error))
      add_unannounced(unannounced, program, result.model, *kind);
  }
  if (!unannounced.empty())
    verdict.findings.push_back(fmt::format("{} that no //@ expect announces: {}",
                                           unannounced.size() == 1 ? "an error" : "errors", fmt::join(unannounced, ", ")));

  search_gaps(result, verdict.inconclusive);
  if (first_stopped)
    verdict.inconclusive.push_back(fmt::format("{} stopped before finishing ({})",
                                               plural(stopped_at_limit, "execution", "executions"),
                                               first_stopped->outcome.to_string(program)));
  if (const size_t unproven = count(Verdict::Inconclusive); unproven > 0)
    verdict.inconclusive.push_back(fmt::format("{} unproven ({})", plural(unproven, "expectation", "expectations"),
                                               expectation_lines(program, expectations, Verdict::Inconclusive)));
  verdict.proved = proof_of(result, expectations.size());
  return verdict;
}

SearchVerdict judge_execution(const Program& program, const std::string& model, const ExecutionResult& execution) {
  SearchVerdict verdict;
  verdict.model = model;
  if (execution.outcome.status == ExecutionStatus::StepLimit)
    verdict.inconclusive.push_back("the execution stopped before finishing (" + execution.outcome.to_string(program) + ")");
  std::vector<std::string> unannounced;
  if (const auto kind = execution_error_kind(execution.outcome.status, execution.error))
    add_unannounced(unannounced, program, model, *kind);
  if (!unannounced.empty())
    verdict.findings.push_back("an error that no //@ expect announces: " + unannounced.front());
  verdict.proved = "the execution completed";
  if (execution.outcome.status != ExecutionStatus::Completed && execution.outcome.status != ExecutionStatus::StepLimit)
    verdict.proved = fmt::format("the execution ended in an announced error ({})", execution_status_name(execution.outcome.status));
  return verdict;
}

} // namespace fencelab
