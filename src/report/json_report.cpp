// Machine-readable reports (--json). The schema is documented in docs/json.md and versioned
// by the "schema" field; change it only compatibly, or bump the version.
#include "fencelab/report/report.h"

#include "fencelab/explore/search_verdict.h"
#include "fencelab/support/json.h"

namespace fencelab {

namespace {

constexpr int kSchemaVersion = 1;

void write_dim3(JsonWriter& json, const Dim3& d) {
  json.begin_array().value(d.x).value(d.y).value(d.z).end_array();
}

void write_word(JsonWriter& json, Word w, const Type& type) {
  if (type.is_floating()) json.value(word_to_double(w, type));
  else if (!type.is_pointer() && type.scalar == ScalarType::Bool) json.value(w != 0);
  else if (type.is_signed()) json.value(int64_t(w));
  else json.value(uint64_t(w));
}

void write_header(JsonWriter& json, const Program& program, const std::string& command) {
  json.key("fencelab").value(FENCELAB_VERSION);
  json.key("schema").value(kSchemaVersion);
  json.key("command").value(command);
  json.key("file").value(program.source->path());
  json.key("kernel").value(program.launch.kernel->name);
  json.key("grid");
  write_dim3(json, program.launch.grid);
  json.key("block");
  write_dim3(json, program.launch.block);
  json.key("shape_overrides").begin_array(); // the options that replaced //@ launch's shape
  if (program.launch.grid_overridden) json.value("--grid");
  if (program.launch.block_overridden) json.value("--block");
  json.end_array();
  json.key("observed").begin_array();
  for (const ObservedItem& item : program.observed) json.value(item.label);
  json.end_array();
}

void write_outcome(JsonWriter& json, const Program& program, const Outcome& outcome) {
  json.key("status").value(execution_status_name(outcome.status));
  json.key("text").value(outcome.to_string(program));
  if (outcome.status != ExecutionStatus::Completed) {
    json.key("message").value(outcome.message);
    return;
  }
  json.key("values").begin_object();
  for (size_t i = 0; i < program.observed.size(); ++i) {
    json.key(program.observed[i].label);
    if (outcome.present[i]) write_word(json, outcome.values[i], program.observed[i].type);
    else json.null();
  }
  json.end_object();
}

void write_diagnostic(JsonWriter& json, const Program& program, const Diagnostic& d) {
  const LineColumn at = program.source->position(d.range.begin);
  json.begin_object();
  if (at.file != 0) json.key("file").value(program.source->path_of(at.file));
  json.key("line").value(at.line).key("column").value(at.column).key("message").value(d.message);
  json.end_object();
}

/** One distinct checker report (docs/json.md, "diagnostic"). */
void write_report(JsonWriter& json, const Program& program, const ReportCount& counted) {
  const CheckReport& r = counted.report;
  json.begin_object();
  json.key("kind").value(diagnostic_kind_name(r.kind));
  json.key("severity").value(diagnostic_kind_severity(r.kind) == Severity::Error ? "error" : "warning");
  json.key("message").value(r.message);
  json.key("sites").begin_array();
  for (const ReportSite& site : r.sites) {
    json.begin_object();
    json.key("role").value(site.role);
    json.key("threads").value(site.threads);
    if (site.range.end != 0) {
      const LineColumn at = program.source->position(site.range.begin);
      if (at.file != 0) json.key("file").value(program.source->path_of(at.file));
      json.key("line").value(at.line).key("column").value(at.column);
    }
    json.end_object();
  }
  json.end_array();
  json.key("executions").value(counted.executions);
  json.key("witness").value(r.witness.encode());
  json.end_object();
}

} // namespace

void print_exploration_json(std::ostream& out, const Program& program, const ExplorationResult& result,
                            const std::vector<ExpectationResult>& expectations,
                            const ReportOptions& options) {
  JsonWriter json(out);
  json.begin_object();
  write_header(json, program, options.command);
  json.key("model").value(result.model);
  json.key("mode").value(result.mode == ExplorationMode::Random ? "random" : "exhaustive");
  if (result.mode == ExplorationMode::Random) json.key("seed").value(result.seed);
  json.key("complete").value(result.mode == ExplorationMode::Exhaustive && result.complete);
  if (!result.stopped_because.empty()) json.key("stopped_because").value(result.stopped_because);
  if (result.exhaustive_cut_short_at > 0) json.key("exhaustive_cut_short_at").value(result.exhaustive_cut_short_at);
  if (!result.exhaustive_stopped_because.empty())
    json.key("exhaustive_stopped_because").value(result.exhaustive_stopped_because);
  json.key("executions").value(result.executions);
  if (result.mode == ExplorationMode::Exhaustive) {
    json.key("reduction").value(result.reduction);
    json.key("abandoned").value(result.abandoned);
    json.key("awaits_released").value(result.awaits_released);
  }
  json.key("events").value(result.events);
  json.key("outcomes").begin_array();
  for (const OutcomeCount& o : result.outcomes) {
    json.begin_object();
    write_outcome(json, program, o.outcome);
    json.key("executions").value(o.executions);
    json.key("witness").value(o.witness.encode());
    if (o.error) {
      json.key("error");
      write_diagnostic(json, program, o.error->diagnostic);
    }
    json.end_object();
  }
  json.end_array();
  json.key("expectations").begin_array();
  for (const ExpectationResult& e : expectations) {
    json.begin_object();
    json.key("line").value(program.source->position(e.expectation->range.begin).line);
    json.key("text").value(e.expectation->text);
    json.key("verdict").value(e.verdict == Verdict::Holds ? "holds"
                              : e.verdict == Verdict::Fails ? "fails"
                                                            : "unproven");
    json.key("detail").value(e.detail);
    if (e.witness) json.key("witness").value(e.witness->encode());
    json.end_object();
  }
  json.end_array();
  if (result.checked) {
    json.key("diagnostics").begin_array();
    for (const ReportCount& r : result.reports) write_report(json, program, r);
    json.end_array();
  }
  // What the exit code follows (README "Exit codes"), as the text report's `result:` line.
  const SearchVerdict verdict = judge_search(program, result, expectations);
  json.key("result").begin_object();
  json.key("verdict").value(verdict.name());
  json.key("findings").begin_array();
  for (const std::string& finding : verdict.findings) json.value(finding);
  json.end_array();
  json.key("inconclusive").begin_array();
  for (const std::string& gap : verdict.inconclusive) json.value(gap);
  json.end_array();
  json.end_object();
  if (options.stats) {
    const RunStats s = RunStats::of(result);
    json.key("stats").begin_object();
    json.key("executions").value(s.executions).key("events").value(s.events);
    json.key("seconds").value(s.seconds);
    json.key("executions_per_second").value(s.seconds > 0 ? double(s.executions) / s.seconds : 0.0);
    json.key("events_per_second").value(s.seconds > 0 ? double(s.events) / s.seconds : 0.0);
    json.key("peak_memory_bytes").value(s.peak_memory_bytes);
    json.end_object();
  }
  json.end_object();
  out << '\n';
}

void print_trace_json(std::ostream& out, const Program& program, const std::string& token,
                      const std::vector<Event>& events, const ExecutionResult& execution) {
  JsonWriter json(out);
  json.begin_object();
  write_header(json, program, "replay");
  json.key("token").value(token);
  json.key("events").begin_array();
  for (const Event& e : events) {
    json.begin_object();
    json.key("kind").value(event_kind_name(e.kind));
    json.key("thread").begin_array().value(e.thread.block).value(e.thread.warp).value(e.thread.lane).end_array();
    if (e.range.end > 0) json.key("line").value(program.source->position(e.range.begin).line);
    if (e.kind == EventKind::Load || e.kind == EventKind::Store || e.kind == EventKind::Atomic) {
      json.key("location").value(e.location_name);
      json.key("value");
      write_word(json, e.value, e.type);
    }
    if (e.kind == EventKind::Atomic) {
      json.key("old_value");
      write_word(json, e.old_value, e.type);
      json.key("op").value(atomic_op_name(e.atomic_op));
    }
    if (e.kind == EventKind::Atomic || e.kind == EventKind::Fence) json.key("scope").value(scope_name(e.scope));
    if (e.kind == EventKind::Warp) json.key("mask").value(uint64_t(e.warp_mask)).key("undefined").value(e.warp_undefined);
    if (!e.text.empty()) json.key("text").value(e.text);
    json.end_object();
  }
  json.end_array();
  json.key("outcome").begin_object();
  write_outcome(json, program, execution.outcome);
  json.end_object();
  if (execution.error) {
    json.key("error");
    write_diagnostic(json, program, execution.error->diagnostic);
  }
  json.key("output").begin_array();
  for (const std::string& line : execution.output) json.value(line);
  json.end_array();
  json.end_object();
  out << '\n';
}

} // namespace fencelab
