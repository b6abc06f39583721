// Rendering results for people (text) and for programs (JSON; schema in docs/json.md).
#pragma once

#include "fencelab/explore/expectations.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"

#include <ostream>
#include <vector>

namespace fencelab {

/** Throughput and memory figures for --stats. */
struct RunStats {
  uint64_t executions = 0;
  uint64_t events = 0;
  double seconds = 0;
  uint64_t peak_memory_bytes = 0; ///< the process's peak resident set

  static RunStats of(const ExplorationResult& result);
};

/** The process's peak resident set size so far, in bytes. */
uint64_t current_peak_memory_bytes();

/** Collects an execution's first `limit` events for printing and drawing, and counts the rest:
 *  a barrier loop's execution has tens of millions, and its trace or timeline held them all
 *  (2.2 KB of SVG a round: 222 MB at 100,000 rounds; hardening issue 68 F). */
class TraceRecorder final : public EventObserver {
public:
  static constexpr uint64_t kDefaultLimit = 100'000;
  explicit TraceRecorder(uint64_t limit = kDefaultLimit) : m_limit(limit) {}
  void on_event(const Event& event) override {
    if (m_events.size() < m_limit) m_events.push_back(event);
    else ++m_left_out;
  }
  const std::vector<Event>& events() const { return m_events; }
  /** Events past the limit, seen but not kept. */
  uint64_t left_out() const { return m_left_out; }
  uint64_t limit() const { return m_limit; }

private:
  uint64_t m_limit;
  uint64_t m_left_out = 0;
  std::vector<Event> m_events;
};

struct ReportOptions {
  bool stats = false;
  std::string command; ///< "run" or "explore"
};

void print_exploration_text(std::ostream& out, const Program& program, const ExplorationResult& result,
                            const std::vector<ExpectationResult>& expectations,
                            const ReportOptions& options);
void print_exploration_json(std::ostream& out, const Program& program, const ExplorationResult& result,
                            const std::vector<ExpectationResult>& expectations,
                            const ReportOptions& options);

/** One exploration per model, side by side: a column per model (execution count, or
 *  forbidden / not seen), outcomes that only weaker models allow marked, then each model's
 *  expectations. Models are in the order given, strongest first by convention. */
struct ModelRun {
  ExplorationResult result;
  std::vector<ExpectationResult> expectations;
};
void print_comparison_text(std::ostream& out, const Program& program, const std::vector<ModelRun>& runs,
                           const ReportOptions& options);

/** Each expectation's verdict, line and detail under a heading (nothing when there are none). */
void print_expectations_text(std::ostream& out, const Program& program,
                             const std::vector<ExpectationResult>& expectations, const std::string& heading);

/** The diagnostics of a `run` or `explore`: a line per distinct finding (severity, message,
 *  kind, the lines involved, how often, witness); nothing when the checkers did not run. */
void print_diagnostics_brief(std::ostream& out, const Program& program, const ExplorationResult& result,
                             const std::string& heading);

/** The `check` report: each distinct finding once with its sites and witness, then a summary. */
void print_check_text(std::ostream& out, const Program& program, const ExplorationResult& result);
/** The `stats:` line of --stats in a text report, after a blank line: executions, events,
 *  seconds, rates and peak memory. */
void print_stats_text(std::ostream& out, const ExplorationResult& result);

void print_trace_text(std::ostream& out, const Program& program, const std::string& token,
                      const std::vector<Event>& events, const ExecutionResult& execution);
void print_trace_json(std::ostream& out, const Program& program, const std::string& token,
                      const std::vector<Event>& events, const ExecutionResult& execution);

} // namespace fencelab
