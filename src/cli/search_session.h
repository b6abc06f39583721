// The searches of one command under the user's control: --time-limit, Ctrl-C (SIGINT) and
// SIGTERM end a search with the report so far; a progress line on stderr shows a long one;
// --witness-dir keeps the tokens too long to print.
#pragma once

#include "fencelab/explore/exploration.h"
#include "fencelab/explore/search_control.h"

#include <CLI/CLI.hpp>
#include <string>

namespace fencelab::cli {

/** The options of every command that searches (run, explore, check, compare). */
struct SearchCommandOptions {
  double time_limit = 0; ///< seconds per search; 0: none
  bool quiet = false;    ///< no progress line
  std::string witness_dir; ///< --witness-dir: where tokens too long for a report are written
};

void add_search_options(CLI::App& command, SearchCommandOptions& options);
/** `--time-limit SECONDS` alone (draw, report: the commands that search, then write). */
void add_time_limit_option(CLI::App& command, double& seconds);

/**
 * `\r`-refreshed status line on stderr: "explore under gpu: 123456 executions, 45678/s,
 * depth 37". Shown only when stderr is a terminal and not --quiet; erased before the report.
 */
class ProgressLine {
public:
  explicit ProgressLine(bool enabled) : m_enabled(enabled) {}
  void set_label(std::string label) { m_label = std::move(label); }
  void show(const SearchProgress& progress);
  /** Clears the line (if one was shown) so the report starts on a clean line. */
  void erase();

private:
  bool m_enabled;
  std::string m_label;
  size_t m_shown_width = 0; ///< characters on the line now
};

/** A SearchControl for one command, with the progress line it feeds. */
class SearchSession {
public:
  explicit SearchSession(const SearchCommandOptions& options);
  SearchControl* control() { return &m_control; }

  /** Runs one search (`search()` returns its result); `label` names it on the progress line.
   *  The time limit counts from here, and the progress line is gone when this returns. */
  template <class Search>
  ExplorationResult run(const std::string& label, Search&& search) {
    begin(label);
    ExplorationResult result = search();
    end();
    save_long_witnesses(result);
    return result;
  }
  /** Runs other work under the same control (a replay, say, given control()): the time limit
   *  counts from here, and SIGINT and SIGTERM stop it instead of the process. */
  template <class Work> auto within(const std::string& label, Work&& work) {
    begin(label);
    auto result = work();
    end();
    return result;
  }

private:
  void begin(const std::string& label);
  void end();
  /** With --witness-dir, writes each witness longer than a report shows to a file there and
   *  notes the file in the token, so reports name it (ReplayToken::display). */
  void save_long_witnesses(ExplorationResult& result);
  bool save_witness(ReplayToken& token);

  std::string m_witness_dir;
  bool m_witness_dir_failed = false; ///< said once; later tokens stay cut
  ProgressLine m_line;
  SearchControl m_control;
};

} // namespace fencelab::cli
