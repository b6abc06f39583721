// Every checker at once, as one observer of the Machine's events (DESIGN "Observers"): the race
// detector, the barrier checker, and the reports an execution's end carries (deadlock, step
// limit, runtime errors such as out-of-bounds accesses).
#pragma once

#include "fencelab/checkers/report.h"
#include "fencelab/checkers/report_catalogue.h"
#include "fencelab/machine/machine.h"

#include <memory>
#include <optional>
#include <vector>

namespace fencelab {

class RaceDetector;

/** The report kind of a runtime error the Machine found (an out-of-bounds access is
 *  `out-of-bounds`; a division by zero, a null pointer and the like are `runtime-error`). */
DiagnosticKind diagnostic_kind_of(RuntimeErrorKind kind);
/** The report kind of an execution that ended with `status` (`error`: its runtime error, if
 *  any): deadlock, livelock or the runtime error's; nullopt for a completed execution and one
 *  stopped at a limit (that is no finding). */
std::optional<DiagnosticKind> execution_error_kind(ExecutionStatus status, const std::optional<RuntimeErrorReport>& error);

/** How the checkers work inside; the defaults are what `check` uses. */
struct CheckerOptions {
  /** Track the accesses of buffers no kernel code can write, too (the reference path the
   *  race detector's read-only buffers are tested against: it reports the same). */
  bool track_read_only_buffers = false;
};

class Checkers final : public EventObserver {
public:
  explicit Checkers(const Program& program, CheckerOptions options = {});
  ~Checkers() override;

  bool wants_text() const override { return false; }
  bool wants_model_steps() const override { return false; }
  bool wants_barrier_arrivals() const override { return false; }
  void begin_execution() override;
  void on_event(const Event& event) override;
  void end_execution(const ExecutionResult& result) override;
  void prefetch_thread(const ThreadId& thread) override;
  void prefetch_location(Location location) override;

  /** A search begins: findings are rendered afresh, from executions of this search. */
  void start_search();
  /** The execution that just ended is abandoned (it repeats explored ones): its findings are
   *  not counted, and those it met first are forgotten. */
  void discard_execution();
  /** The findings of the search so far; found() lists the execution that just ended. */
  const ReportCatalogue& catalogue() const { return m_catalogue; }
  /** Copies of the reports of the execution that just ended (without witnesses). */
  std::vector<CheckReport> execution_reports() const;
  /** Whether the race detector runs for this program (it is off for very large grids). */
  bool races_checked() const;

private:
  void check_barrier(const Event& event);
  const Program& m_program;
  std::unique_ptr<RaceDetector> m_races;
  ReportCatalogue m_catalogue;
};

} // namespace fencelab
