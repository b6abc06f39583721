// The side-by-side table of `explore --model sc,tso,gpu`.
#include "fencelab/report/report.h"

#include "fencelab/program/launch_shape.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <map>

namespace fencelab {

namespace {

std::string search_summary(const ExplorationResult& r) {
  const bool random = r.mode == ExplorationMode::Random;
  std::string notes = random ? "" : r.complete ? "exhaustive" : "cut short";
  if (!r.stopped_because.empty()) notes += (notes.empty() ? "stopped: " : ", stopped: ") + r.stopped_because;
  return fmt::format("{}{} executions{}", r.executions, random ? " random" : "", notes.empty() ? "" : " (" + notes + ")");
}

/** What a model's column says for an outcome it did not reach. */
std::string absent(const ExplorationResult& r) {
  return r.mode == ExplorationMode::Exhaustive && r.complete ? "forbidden" : "not seen";
}

} // namespace

void print_comparison_text(std::ostream& out, const Program& program, const std::vector<ModelRun>& runs,
                           const ReportOptions& options) {
  const LaunchConfig& launch = program.launch;
  std::string names;
  for (const ModelRun& run : runs) {
    if (!names.empty()) names += ", ";
    names += run.result.model;
  }
  fmt::print(out, "{}: {} under {}, kernel {}, {}\n", program.source->path(), options.command, names,
             launch.kernel->name, describe_launch_shape(launch));
  for (const ModelRun& run : runs) fmt::print(out, "  {}: {}\n", run.result.model, search_summary(run.result));
  out << '\n';

  // Every outcome any model reached, with its count per model and a witness from the first
  // model (in the order given) that reached it.
  struct Row {
    std::vector<const OutcomeCount*> per_model;
  };
  std::map<Outcome, Row> rows;
  for (size_t m = 0; m < runs.size(); ++m)
    for (const OutcomeCount& o : runs[m].result.outcomes) {
      Row& row = rows[o.outcome];
      row.per_model.resize(runs.size(), nullptr);
      row.per_model[m] = &o;
    }

  size_t width = 7;
  for (const auto& [outcome, row] : rows) width = std::max(width, outcome.to_string(program).size());
  fmt::print(out, "  {:<{}}", "outcome", width);
  for (const ModelRun& run : runs) fmt::print(out, "  {:>10}", run.result.model);
  fmt::print(out, "  witness\n");
  for (const auto& [outcome, row] : rows) {
    fmt::print(out, "  {:<{}}", outcome.to_string(program), width);
    const OutcomeCount* witness = nullptr;
    std::vector<std::string> only;
    for (size_t m = 0; m < runs.size(); ++m) {
      const OutcomeCount* o = row.per_model[m];
      fmt::print(out, "  {:>10}", o ? fmt::format("{}", o->executions) : absent(runs[m].result));
      if (o && !witness) witness = o;
      if (o) only.push_back(runs[m].result.model);
    }
    // An outcome the first (strongest) model does not allow but a later one does is weak
    // memory at work: mark it with the models that allow it.
    const bool weak = row.per_model.front() == nullptr;
    fmt::print(out, "  {}{}\n", witness ? witness->witness.display() : "",
               weak ? fmt::format("   <- only {}", fmt::join(only, ", ")) : "");
  }

  for (const ModelRun& run : runs)
    print_diagnostics_brief(out, program, run.result, fmt::format("diagnostics under {}:", run.result.model));
  for (const ModelRun& run : runs)
    print_expectations_text(out, program, run.expectations, fmt::format("expectations under {}:", run.result.model));
  if (options.stats) {
    for (const ModelRun& run : runs) {
      const RunStats s = RunStats::of(run.result);
      const double seconds = std::max(s.seconds, 1e-9);
      fmt::print(out, "\nstats ({}): {} executions, {} events in {:.3f} s; {:.0f} executions/s, {:.0f} events/s",
                 run.result.model, s.executions, s.events, s.seconds, double(s.executions) / seconds,
                 double(s.events) / seconds);
    }
    fmt::print(out, "; peak memory {:.1f} MiB\n", double(current_peak_memory_bytes()) / (1024.0 * 1024.0));
  }
}

} // namespace fencelab
