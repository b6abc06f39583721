// Ending a search early, and watching it run: a time limit (--time-limit), a stop requested by
// a signal (Ctrl-C's SIGINT, `timeout`'s SIGTERM) and a progress callback (the command line's
// progress line). The explorers ask `should_stop` once per execution; a stopped search returns
// what it found so far, marked as stopped, and its report says why.
#pragma once

#include "fencelab/machine/choice.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace fencelab {

struct ExplorationResult;
class SearchControl;

/** Where a running search stands, for a progress display. */
struct SearchProgress {
  uint64_t executions = 0;
  double seconds = 0;  ///< since the search started
  /** Decisions in the explorer's current sequence: random, the last execution's; exhaustive,
   *  the prefix it re-runs next (where the depth-first search branches now). */
  size_t depth = 0;
};

/**
 * A ChoiceSource that a SearchControl (or a flag another OS thread sets) can interrupt inside
 * an execution (ChoiceSource::interrupted). After Machine::run, `interrupted_because()` is
 * non-empty when the execution was cut off so: the explorer discards it and stops (so it is
 * never cleared).
 */
class InterruptibleChoices : public ChoiceSource {
public:
  void interrupt_on(const SearchControl* control) { m_control = control; }
  /** A parallel search's stop flag, set by the thread that watches the SearchControl. */
  void interrupt_on(const std::atomic<bool>* flag) { m_flag = flag; }
  bool interrupted() override;
  const std::string& interrupted_because() const { return m_interrupted_because; }

private:
  const SearchControl* m_control = nullptr;
  const std::atomic<bool>* m_flag = nullptr;
  std::string m_interrupted_because;
};

/** Whether Ctrl-C (SIGINT) stopped a search of this process: the command then exits 130, as
 *  shells and make expect of a program interrupted so (README "Exit codes"). SIGTERM stops a
 *  search too, but leaves it merely cut short. */
bool interrupted_by_sigint();

class SearchControl {
public:
  struct Options {
    double time_limit_seconds = 0; ///< each search stops after this long; 0: no limit
    bool handle_signals = false;   ///< SIGINT and SIGTERM stop the search instead of the process
    /** Called from `should_stop` at most every `progress_interval` once a search has run
     *  `progress_delay`; null: no progress. */
    std::function<void(const SearchProgress&)> progress;
    double progress_delay = 1.0;
    double progress_interval = 0.25;
  };

  explicit SearchControl(Options options);
  ~SearchControl();
  SearchControl(const SearchControl&) = delete;
  SearchControl& operator=(const SearchControl&) = delete;

  /** Starts one search: its time limit and progress delay count from now, and (with
   *  handle_signals) SIGINT and SIGTERM now stop it. A signal stops every later search too. */
  void start_search();
  /** Ends the search: the signals' previous handlers come back, so a Ctrl-C outside a search
   *  (while a report prints, or a GPU runs) ends the process as usual. */
  void end_search();

  /** The explorers' check, before each execution (`depth`: SearchProgress::depth). True when
   *  the search must end now; `result.stopped_because` then says why. A signal is seen at the
   *  next call; the clock (time limit, progress) is read only every `m_clock_stride` calls,
   *  a stride that adapts so that reads come about every millisecond: at half a microsecond
   *  an execution, reading it each call cost 4% of a random search (write_read_xy). */
  bool should_stop(ExplorationResult& result, size_t depth);
  /** Within an execution: whether a signal or the time limit asks the search to end now, and
   *  why (`reason`); no progress line. Only reads: safe from the jobs of a parallel search. */
  bool stop_due(std::string& reason) const;

private:
  using Clock = std::chrono::steady_clock;

  Options m_options;
  /** The time limit's verdict at `now`, and why (`reason`). */
  bool time_limit_reached(Clock::time_point now, std::string& reason) const;
  /** Counts a call of should_stop and reads the clock where this one is due to. */
  std::optional<Clock::time_point> read_clock_if_due();

  Clock::time_point m_start;
  Clock::time_point m_last_progress;
  Clock::time_point m_last_clock_read;
  uint32_t m_clock_stride = 1;      ///< should_stop reads the clock every this many calls
  uint32_t m_calls_since_clock = 0;
  bool m_progress_shown = false;
  bool m_handlers_installed = false;
};

} // namespace fencelab
