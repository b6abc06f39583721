// The `check` report: each distinct finding once, with its sites (file:line:col, the line, a
// caret) and the first execution that showed it; then counts by kind and severity. It holds no
// addresses or timings, so golden files of it stay stable.
#include "fencelab/report/report.h"

#include "fencelab/program/launch_shape.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace fencelab {

namespace {

const char* severity_name(Severity s) { return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note"; }

/** Where a report's primary line points: its first site with a source range (the one its notes
 *  list first), as `file:line:col`; a report without one points at the kernel file's first line.
 *  Compilers' primary lines carry it (GCC manual, "Diagnostic Message Formatting Options"), and
 *  editors' problem matchers read only lines that do (docs/problem-matcher.json; issue 71). */
std::string primary_location(const Program& program, const CheckReport& r) {
  for (const ReportSite& site : r.sites) {
    if (site.range.end == 0) continue;
    const LineColumn at = program.source->position(site.range.begin);
    return fmt::format("{}:{}:{}", program.source->path_of(at.file), at.line, at.column);
  }
  return fmt::format("{}:1:1", program.source->path());
}

void print_report(std::ostream& out, const Program& program, const ReportCount& counted, uint64_t executions) {
  const CheckReport& r = counted.report;
  fmt::print(out, "{}: {}: {} [{}]\n", primary_location(program, r), severity_name(diagnostic_kind_severity(r.kind)),
             r.message, diagnostic_kind_name(r.kind));
  for (const ReportSite& site : r.sites) {
    // "waits by (0,0,0)-(0,0,3)"; a site naming blocks rather than threads reads "role: blocks 2-3".
    const std::string who = site.threads.starts_with("block") ? site.role + ": " + site.threads
                                                              : site.role + " by " + site.threads;
    if (site.range.end == 0) {
      fmt::print(out, "  {}\n", who);
      continue;
    }
    std::string rendered = render_diagnostic(Diagnostic{Severity::Note, site.range, who}, *program.source);
    // Indent the rendered site under its report.
    std::string indented = "  ";
    for (const char c : rendered) {
      indented += c;
      if (c == '\n') indented += "  ";
    }
    while (!indented.empty() && (indented.back() == ' ')) indented.pop_back();
    out << indented;
    if (!indented.empty() && indented.back() != '\n') out << '\n';
  }
  fmt::print(out, "  seen in {} of {} executions; witness {}\n\n", counted.executions, executions,
             counted.report.witness.display());
}

/** Which search `check` used and how far it got: exhaustive and complete, exhaustive but
 *  stopped, or random after the exhaustive search was cut short. */
std::string check_search_line(const ExplorationResult& result) {
  const std::string stopped = result.stopped_because.empty() ? "" : "stopped: " + result.stopped_because;
  const std::string reduction = result.reduction == "dpor" ? " with partial-order reduction" : "";
  if (result.mode == ExplorationMode::Exhaustive)
    return result.complete ? fmt::format("exhaustive search{}, complete: all {} executions", reduction,
                                         result.executions)
                           : fmt::format("exhaustive search{}, not complete ({}): {} executions", reduction,
                                         stopped.empty() ? "cut short" : stopped, result.executions);
  std::string line = fmt::format("random search: {} executions (seed {}{})", result.executions, result.seed,
                                 stopped.empty() ? "" : "; " + stopped);
  if (result.exhaustive_cut_short_at > 0)
    line += fmt::format(", as the exhaustive search was cut short at {} executions (--max-executions)",
                        result.exhaustive_cut_short_at);
  if (!result.exhaustive_stopped_because.empty())
    line += ", as the exhaustive search stopped: " + result.exhaustive_stopped_because;
  return line;
}

} // namespace

void print_diagnostics_brief(std::ostream& out, const Program& program, const ExplorationResult& result,
                             const std::string& heading) {
  if (!result.checked) return;
  fmt::print(out, "\n{}\n", heading);
  if (result.reports.empty()) fmt::print(out, "  none\n");
  for (const ReportCount& counted : result.reports) {
    const CheckReport& r = counted.report;
    // Lines of the kernel file by number; a header's as `name.h:line`, after them.
    std::vector<std::pair<uint32_t, uint32_t>> positions; // (part, line)
    for (const ReportSite& site : r.sites)
      if (site.range.end != 0) {
        const LineColumn at = program.source->position(site.range.begin);
        positions.emplace_back(at.file, at.line);
      }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    std::vector<std::string> lines;
    for (const auto& [file, line] : positions)
      lines.push_back(file == 0 ? std::to_string(line) : fmt::format("{}:{}", std::filesystem::path(program.source->path_of(file)).filename().string(), line));
    fmt::print(out, "  {:<8} {} [{}]{}; {} of {} executions; witness {}\n",
               severity_name(diagnostic_kind_severity(r.kind)), r.message, diagnostic_kind_name(r.kind),
               lines.empty() ? "" : fmt::format(", line{} {}", lines.size() > 1 ? "s" : "", fmt::join(lines, ", ")),
               counted.executions, result.executions, r.witness.display());
  }
}

void print_check_text(std::ostream& out, const Program& program, const ExplorationResult& result) {
  fmt::print(out, "fencelab check: {} under {}, {}; {}\n\n", program.source->path(), result.model,
             describe_launch_shape(program.launch), check_search_line(result));
  std::map<std::string, size_t> by_kind;
  size_t errors = 0, warnings = 0;
  for (const ReportCount& r : result.reports) {
    print_report(out, program, r, result.executions);
    ++by_kind[diagnostic_kind_name(r.report.kind)];
    (diagnostic_kind_severity(r.report.kind) == Severity::Error ? errors : warnings) += 1;
  }
  if (result.reports.empty()) fmt::print(out, "no reports\n\n");
  std::string kinds;
  for (const auto& [kind, count] : by_kind) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", count, kind);
  fmt::print(out, "summary: {} error{}, {} warning{}{}\n", errors, errors == 1 ? "" : "s", warnings,
             warnings == 1 ? "" : "s", kinds.empty() ? "" : " (" + kinds + ")");
}

} // namespace fencelab
