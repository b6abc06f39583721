// The one-page HTML report (html_report.h). The page is XHTML-compatible markup (every
// element closed, every attribute quoted) so that both HTML and XML parsers read it; all text
// from the kernel passes through escape_markup.
#include "fencelab/report/html_report.h"

#include "fencelab/draw/pictures.h"
#include "fencelab/draw/witness_pictures.h"
#include "fencelab/explore/expectations.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace fencelab {

namespace {

constexpr size_t kMaxWeakOutcomes = 12;
constexpr size_t kMaxDiagnostics = 12;

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1200px;
       color: #222; line-height: 1.45; padding: 0 16px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; border-bottom: 1px solid #ccc; margin-top: 32px; }
h3 { font-size: 15px; margin-bottom: 6px; }
pre.source { background: #f7f7f7; border: 1px solid #ddd; padding: 8px 0; overflow-x: auto; font-size: 13px; }
pre.source span.line { display: block; padding: 0 10px; }
pre.source span.marked { background: #fdecea; }
pre.source span.number { display: inline-block; width: 3.5em; color: #888; user-select: none; }
table { border-collapse: collapse; margin: 8px 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f0f3f6; } td.count { text-align: right; font-family: "DejaVu Sans Mono", monospace; }
td.absent { color: #999; text-align: center; } tr.weak td.outcome { font-weight: bold; color: #b03a2e; }
.verdict-holds { color: #1e8449; font-weight: bold; } .verdict-fails { color: #b03a2e; font-weight: bold; }
.verdict-inconclusive { color: #9a7d0a; font-weight: bold; }
.severity-error { color: #b03a2e; } .severity-warning { color: #9a7d0a; }
div.picture { overflow-x: auto; border: 1px solid #e3e3e3; padding: 6px; margin: 8px 0 18px 0; }
code, .mono { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
p.note { color: #555; font-size: 13px; }
)";

/** The line of the kernel file that `range` starts on; 0 when none (or in a header, which the
 *  page does not list). */
uint32_t line_of(const Program& program, SourceRange range) {
  if (range.end == 0) return 0;
  const LineColumn at = program.source->position(range.begin);
  return at.file == 0 ? at.line : 0;
}

void write_source(std::ostream& out, const Program& program, const std::set<uint32_t>& marked) {
  out << "<h2 id=\"source\">Kernel</h2>\n<pre class=\"source\">";
  const SourceFile& file = *program.source;
  for (uint32_t line = 1; line <= file.line_count(); ++line) {
    // Each line is one span, no newline between: display:block lays them out.
    out << fmt::format("<span class=\"line{}\" id=\"L{}\"><span class=\"number\">{}</span>{}</span>",
                       marked.count(line) ? " marked" : "", line, line, escape_markup(file.line_text(line)));
  }
  out << "</pre>\n";
}

bool reached(const ExplorationResult& result, const Outcome& outcome) {
  return std::any_of(result.outcomes.begin(), result.outcomes.end(),
                     [&](const OutcomeCount& o) { return o.outcome == outcome; });
}

void write_outcome_table(std::ostream& out, const HtmlReportInput& input, const std::vector<Outcome>& outcomes) {
  const Program& program = *input.program;
  out << "<h2 id=\"outcomes\">Outcomes</h2>\n<table>\n<tr><th>outcome</th>";
  for (const ModelRun& run : input.runs)
    out << fmt::format("<th>{}<br/><span class=\"mono\">{} executions{}</span></th>",
                       escape_markup(mode_name(run.result.model, input.machine.warp)), run.result.executions,
                       run.result.complete ? "" : ", incomplete");
  const bool gpu_ran = input.gpu && input.gpu->failure.empty();
  if (gpu_ran)
    out << fmt::format("<th>GPU<br/><span class=\"mono\">{} executions</span></th>", input.gpu->executions);
  out << "<th>weak?</th></tr>\n";
  for (const Outcome& outcome : outcomes) {
    const bool weak = input.sc && outcome.status == ExecutionStatus::Completed && !reached(*input.sc, outcome);
    out << fmt::format("<tr{}><td class=\"outcome mono\">{}</td>", weak ? " class=\"weak\"" : "",
                       escape_markup(outcome.to_string(program)));
    for (const ModelRun& run : input.runs) {
      const auto it = std::find_if(run.result.outcomes.begin(), run.result.outcomes.end(),
                                   [&](const OutcomeCount& o) { return o.outcome == outcome; });
      if (it == run.result.outcomes.end()) out << "<td class=\"absent\">—</td>";
      else out << fmt::format("<td class=\"count\">{}</td>", it->executions);
    }
    std::string verdict = weak ? "weak: sc forbids it" : "";
    if (gpu_ran) {
      const auto seen = std::find_if(input.gpu->outcomes.begin(), input.gpu->outcomes.end(),
                                     [&](const auto& o) { return o.first == outcome; });
      if (seen == input.gpu->outcomes.end()) out << "<td class=\"absent\">—</td>";
      else out << fmt::format("<td class=\"count\">{}</td>", seen->second);
      // DESIGN "The CUDA backend": an outcome the GPU shows but the models forbid is flagged
      // loudly: undefined behaviour in the kernel, or a model that is wrong.
      const bool allowed = std::any_of(input.runs.begin(), input.runs.end(),
                                       [&](const ModelRun& run) { return reached(run.result, outcome); });
      if (seen != input.gpu->outcomes.end() && !allowed) verdict = "SEEN ON THE GPU BUT FORBIDDEN by every model";
    }
    out << fmt::format("<td>{}</td></tr>\n", escape_markup(verdict));
  }
  out << "</table>\n";
  if (gpu_ran)
    out << fmt::format("<p class=\"note\">GPU: {}, {}.</p>\n", escape_markup(input.gpu->device),
                       escape_markup(input.gpu->mode));
  else if (input.gpu)
    out << fmt::format("<p class=\"note\">GPU: could not run: {}</p>\n", escape_markup(input.gpu->failure));
  if (!input.sc) out << "<p class=\"note\">sc was not explored, so weak outcomes are not marked.</p>\n";
}

void write_weak_outcomes(std::ostream& out, const HtmlReportInput& input, const std::vector<Outcome>& outcomes) {
  const Program& program = *input.program;
  out << "<h2 id=\"weak\">Weak outcomes</h2>\n";
  size_t shown = 0, weak_count = 0;
  for (const Outcome& outcome : outcomes) {
    if (!input.sc || outcome.status != ExecutionStatus::Completed || reached(*input.sc, outcome)) continue;
    ++weak_count;
    if (shown == kMaxWeakOutcomes) continue;
    // The witness of the first model (in the order asked) that reaches it.
    const OutcomeCount* witness_of = nullptr;
    for (const ModelRun& run : input.runs)
      for (const OutcomeCount& o : run.result.outcomes)
        if (witness_of == nullptr && o.outcome == outcome) witness_of = &o;
    if (witness_of == nullptr) continue;
    ++shown;
    out << fmt::format("<h3>{} <span class=\"mono\">({})</span></h3>\n", escape_markup(outcome.to_string(program)),
                       escape_markup(witness_of->witness.model));
    std::string error;
    const auto witness = record_witness(program, input.machine, witness_of->witness, error, {0, input.control});
    if (!witness) {
      out << fmt::format("<p class=\"note\">cannot replay the witness: {}</p>\n", escape_markup(error));
      continue;
    }
    // Weak: sc did not reach it. A complete sc search settles that; otherwise explain_witness
    // searches again, as `explain` does.
    const std::vector<std::string> sentences =
        explain_witness(program, input.machine, *witness,
                        input.sc->complete ? std::optional<ScSearch>(ScSearch{false, true}) : std::nullopt)
            .sentences;
    out << "<ul>\n";
    for (const std::string& s : sentences) out << "<li>" << escape_markup(s) << "</li>\n";
    out << "</ul>\n<div class=\"picture\">\n" << draw_witness_graph(program, *witness, {}) << "</div>\n";
  }
  if (weak_count == 0) out << "<p>None: every outcome reached is also reached under sequential consistency.</p>\n";
  else if (weak_count > shown)
    out << fmt::format("<p class=\"note\">{} more weak outcomes are not shown.</p>\n", weak_count - shown);
}

void write_diagnostics(std::ostream& out, const HtmlReportInput& input) {
  const Program& program = *input.program;
  out << "<h2 id=\"diagnostics\">Diagnostics</h2>\n";
  std::set<std::string> seen;
  size_t shown = 0;
  for (const ModelRun& run : input.runs) {
    for (const ReportCount& count : run.result.reports) {
      const CheckReport& report = count.report;
      if (!seen.insert(report.identity()).second || shown == kMaxDiagnostics) continue;
      ++shown;
      const Severity severity = diagnostic_kind_severity(report.kind);
      out << fmt::format("<h3 class=\"severity-{}\">{}: {} <span class=\"mono\">[{}]</span></h3>\n",
                         severity == Severity::Error ? "error" : "warning",
                         severity == Severity::Error ? "error" : "warning", escape_markup(report.message),
                         diagnostic_kind_name(report.kind));
      out << fmt::format("<p>in {} of {} executions under {}; witness <code>{}</code></p>\n<table>\n"
                         "<tr><th>role</th><th>threads</th><th>line</th><th>source</th></tr>\n",
                         count.executions, run.result.executions, escape_markup(run.result.model),
                         escape_markup(report.witness.display()));
      for (const ReportSite& site : report.sites) {
        const uint32_t line = line_of(program, site.range);
        out << fmt::format("<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"mono\">{}</td></tr>\n",
                           escape_markup(site.role), escape_markup(site.threads),
                           line > 0 ? fmt::format("<a href=\"#L{0}\">{0}</a>", line) : "",
                           line > 0 ? escape_markup(program.source->line_text(line)) : "");
      }
      out << "</table>\n";
      std::vector<uint32_t> lines;
      for (const ReportSite& site : report.sites)
        if (const uint32_t line = line_of(program, site.range)) lines.push_back(line);
      std::string error;
      const auto witness = record_witness(program, input.machine, report.witness, error, {0, input.control});
      if (witness)
        out << "<div class=\"picture\">\n" << draw_witness_timeline(program, *witness, lines) << "</div>\n";
      else out << fmt::format("<p class=\"note\">cannot replay the witness: {}</p>\n", escape_markup(error));
    }
  }
  bool checked = std::any_of(input.runs.begin(), input.runs.end(), [](const ModelRun& r) { return r.result.checked; });
  if (shown == 0) out << (checked ? "<p>None found.</p>\n" : "<p>The checkers did not run.</p>\n");
}

void write_expectations(std::ostream& out, const HtmlReportInput& input) {
  out << "<h2 id=\"expectations\">Expectations</h2>\n";
  bool any = false;
  for (const ModelRun& run : input.runs) any |= !run.expectations.empty();
  if (!any) {
    out << "<p>The file states no expectations for these models.</p>\n";
    return;
  }
  out << "<table>\n<tr><th>model</th><th>line</th><th>expectation</th><th>verdict</th><th>why</th></tr>\n";
  for (const ModelRun& run : input.runs)
    for (const ExpectationResult& e : run.expectations) {
      const char* verdict = verdict_name(e.verdict);
      out << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td class=\"verdict-{}\">{}</td><td>{}</td></tr>\n",
                         escape_markup(run.result.model), line_of(*input.program, e.expectation->range),
                         escape_markup(e.expectation->text), verdict, verdict, escape_markup(e.detail));
    }
  out << "</table>\n";
}

} // namespace

void write_html_report(std::ostream& out, const HtmlReportInput& input) {
  const Program& program = *input.program;
  const std::string name = file_name_of(program.source->path());
  // Outcomes of every model, in the order first met.
  std::vector<Outcome> outcomes;
  for (const ModelRun& run : input.runs)
    for (const OutcomeCount& o : run.result.outcomes)
      if (std::find(outcomes.begin(), outcomes.end(), o.outcome) == outcomes.end()) outcomes.push_back(o.outcome);
  if (input.gpu)
    for (const auto& [outcome, count] : input.gpu->outcomes)
      if (std::find(outcomes.begin(), outcomes.end(), outcome) == outcomes.end()) outcomes.push_back(outcome);
  std::sort(outcomes.begin(), outcomes.end());
  std::set<uint32_t> marked;
  for (const ModelRun& run : input.runs)
    for (const ReportCount& count : run.result.reports)
      for (const ReportSite& site : count.report.sites)
        if (const uint32_t line = line_of(program, site.range)) marked.insert(line);

  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      << fmt::format("<title>fencelab report: {}</title>\n", escape_markup(name)) << "<style>" << kStyle
      << "</style>\n</head>\n<body>\n";
  out << fmt::format("<h1>fencelab report: {}</h1>\n<p class=\"note\">{}; models {}</p>\n", escape_markup(name),
                     escape_markup(program.source->path()), [&] {
                       std::vector<std::string> names;
                       for (const ModelRun& run : input.runs) names.push_back(mode_name(run.result.model, input.machine.warp));
                       return escape_markup(fmt::format("{}", fmt::join(names, ", ")));
                     }());
  out << "<p><a href=\"#source\">kernel</a> · <a href=\"#outcomes\">outcomes</a> · <a href=\"#weak\">weak "
         "outcomes</a> · <a href=\"#diagnostics\">diagnostics</a> · <a href=\"#expectations\">expectations</a></p>\n";
  write_source(out, program, marked);
  write_outcome_table(out, input, outcomes);
  write_weak_outcomes(out, input, outcomes);
  write_diagnostics(out, input);
  write_expectations(out, input);
  out << fmt::format("<p class=\"note\">Made by fencelab {}: <code>{}</code></p>\n</body>\n</html>\n", FENCELAB_VERSION,
                     escape_markup(input.command_line));
}

} // namespace fencelab
