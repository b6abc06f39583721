// Human-readable reports: outcome tables, expectation verdicts, step-by-step traces.
#include "fencelab/report/report.h"

#include "fencelab/program/launch_shape.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <sys/resource.h>

namespace fencelab {

uint64_t current_peak_memory_bytes() {
  struct rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return uint64_t(usage.ru_maxrss) * 1024; // Linux reports kilobytes
}

RunStats RunStats::of(const ExplorationResult& result) {
  return RunStats{result.executions, result.events, result.seconds, current_peak_memory_bytes()};
}

namespace {

/** "partial-order reduction: 12 more abandoned as repeats" after `separator`, for a dpor search. */
std::string reduction_note(const ExplorationResult& r, const char* separator) {
  if (r.reduction != "dpor") return "";
  std::string note = fmt::format("{}partial-order reduction", separator);
  if (r.abandoned > 0) note += fmt::format(": {} more abandoned as repeats", r.abandoned);
  if (r.awaits_released > 0)
    note += fmt::format("{} {} resumed waiting threads at their end", r.abandoned > 0 ? "," : ":",
                        r.awaits_released);
  return note;
}

std::string search_summary(const ExplorationResult& r) {
  if (r.mode == ExplorationMode::Random)
    return r.stopped_because.empty()
               ? fmt::format("{} random executions (seed {})", r.executions, r.seed)
               : fmt::format("{} random executions (seed {}; stopped: {})", r.executions, r.seed, r.stopped_because);
  if (r.complete) return fmt::format("{} executions (exhaustive{})", r.executions, reduction_note(r, ", "));
  // A search is cut short by --max-executions unless a SearchControl says what stopped it.
  const std::string why = r.stopped_because.empty() ? "cut short by --max-executions:"
                                                    : "not complete, stopped: " + r.stopped_because + ";";
  return fmt::format("{} executions (search {} not every execution was explored, so absent outcomes are "
                     "not proven unreachable{})",
                     r.executions, why, reduction_note(r, "; "));
}

} // namespace

void print_expectations_text(std::ostream& out, const Program& program,
                             const std::vector<ExpectationResult>& expectations, const std::string& heading) {
  if (expectations.empty()) return;
  fmt::print(out, "\n{}\n", heading);
  for (const ExpectationResult& e : expectations) {
    const LineColumn at = program.source->position(e.expectation->range.begin);
    fmt::print(out, "  {:<8} line {}: {}\n", verdict_name(e.verdict), at.line, e.expectation->text);
    fmt::print(out, "           {}{}\n", e.detail,
               e.witness ? fmt::format(" (witness {})", e.witness->display()) : std::string());
  }
}

void print_exploration_text(std::ostream& out, const Program& program, const ExplorationResult& result,
                            const std::vector<ExpectationResult>& expectations,
                            const ReportOptions& options) {
  const LaunchConfig& launch = program.launch;
  fmt::print(out, "{}: {} under {}, kernel {}, {}\n", program.source->path(), options.command, result.model,
             launch.kernel->name, describe_launch_shape(launch));
  fmt::print(out, "{}, {} distinct outcome{}\n\n", search_summary(result), result.outcomes.size(),
             result.outcomes.size() == 1 ? "" : "s");

  std::vector<std::string> labels;
  size_t width = 7;
  for (const OutcomeCount& o : result.outcomes) {
    labels.push_back(o.outcome.to_string(program));
    width = std::max(width, labels.back().size());
  }
  fmt::print(out, "  {:<{}}  {:>10}  {}\n", "outcome", width, "executions", "witness");
  for (size_t i = 0; i < result.outcomes.size(); ++i) {
    const OutcomeCount& o = result.outcomes[i];
    fmt::print(out, "  {:<{}}  {:>10}  {}\n", labels[i], width, o.executions, o.witness.display());
    if (o.error) {
      const LineColumn at = program.source->position(o.error->diagnostic.range.begin);
      fmt::print(out, "  {:<{}}  {}:{}:{}: {}\n", "", width, program.source->path_of(at.file), at.line, at.column,
                 o.error->diagnostic.message);
    }
  }

  print_diagnostics_brief(out, program, result, "diagnostics (fencelab check shows each with its source lines):");
  print_expectations_text(out, program, expectations, "expectations:");
  if (options.stats) print_stats_text(out, result);
}

void print_stats_text(std::ostream& out, const ExplorationResult& result) {
  const RunStats s = RunStats::of(result);
  const double seconds = std::max(s.seconds, 1e-9);
  fmt::print(out, "\nstats: {} executions, {} events in {:.3f} s; {:.0f} executions/s, {:.0f} events/s; "
                  "peak memory {:.1f} MiB\n",
             s.executions, s.events, s.seconds, double(s.executions) / seconds, double(s.events) / seconds,
             double(s.peak_memory_bytes) / (1024.0 * 1024.0));
}

void print_trace_text(std::ostream& out, const Program& program, const std::string& token,
                      const std::vector<Event>& events, const ExecutionResult& execution) {
  const SourceFile& file = *program.source;
  fmt::print(out, "replay {} of {}, {}\n\n", token, file.path(), describe_launch_shape(program.launch));
  fmt::print(out, "  {:>4}  {:<9} {:>5}  {}\n", "step", "thread", "line", "event");
  uint64_t step = 0;
  for (const Event& e : events) {
    const std::string line = e.range.end > 0 ? fmt::format("{}", file.position(e.range.begin).line) : "";
    std::string what;
    switch (e.kind) {
    case EventKind::Load:
      what = fmt::format("load   {} -> {}{}", e.location_name, format_word(e.value, e.type),
                         e.mode == AccessMode::Volatile ? "  (volatile)" : "");
      break;
    case EventKind::Store:
      what = fmt::format("store  {} = {}{}", e.location_name, format_word(e.value, e.type),
                         e.mode == AccessMode::Volatile ? "  (volatile)" : "");
      break;
    case EventKind::Atomic:
      what = fmt::format("atomic {} {}: {} -> {}  (scope {})", atomic_op_name(e.atomic_op),
                         e.location_name, format_word(e.old_value, e.type), format_word(e.value, e.type),
                         scope_name(e.scope));
      break;
    case EventKind::Fence: what = fmt::format("fence  (scope {})", scope_name(e.scope)); break;
    case EventKind::BarrierArrive: what = "arrive at __syncthreads"; break;
    case EventKind::BarrierRelease: what = fmt::format("barrier completes: {}", e.text); break;
    case EventKind::ThreadExit: what = "exit"; break;
    case EventKind::Print: what = fmt::format("printf \"{}\"", e.text); break;
    case EventKind::ModelStep: what = fmt::format("model: {}", e.text); break;
    case EventKind::BlockStart: what = fmt::format("block {} becomes resident", e.thread.block); break;
    case EventKind::Warp: what = fmt::format("warp   {}", e.text); break;
    case EventKind::Error: what = fmt::format("error: {}", e.text); break;
    case EventKind::AwaitsReleased: what = fmt::format("resumed: {}", e.text); break;
    }
    const bool numbered = e.kind == EventKind::Load || e.kind == EventKind::Store ||
                          e.kind == EventKind::Atomic || e.kind == EventKind::Fence;
    fmt::print(out, "  {:>4}  {:<9} {:>5}  {}\n", numbered ? fmt::format("{}", ++step) : "",
               e.kind == EventKind::ModelStep || e.kind == EventKind::BarrierRelease ||
                       e.kind == EventKind::AwaitsReleased
                   ? ""
                   : e.thread.to_string(),
               line, what);
    const bool explained = e.kind == EventKind::Load || e.kind == EventKind::Fence || e.kind == EventKind::Atomic;
    if (!e.text.empty() && explained) fmt::print(out, "  {:>4}  {:<9} {:>5}  ({})\n", "", "", "", e.text);
  }
  fmt::print(out, "\noutcome: {}\n", execution.outcome.to_string(program));
  if (execution.error) out << render_diagnostic(execution.error->diagnostic, file);
  if (!execution.output.empty()) {
    fmt::print(out, "\nprintf output:\n");
    for (const std::string& line : execution.output) fmt::print(out, "  {}", line.ends_with('\n') ? line : line + "\n");
  }
}

} // namespace fencelab
