// --time-limit, --quiet, signals and the progress line (search_session.h).
#include "search_session.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace fencelab::cli {

void add_search_options(CLI::App& command, SearchCommandOptions& options) {
  command
      .add_option("--time-limit", options.time_limit,
                  "stop each search after SECONDS and report what it found so far (as Ctrl-C does)")
      ->check(CLI::PositiveNumber);
  command.add_flag("--quiet", options.quiet, "no progress line on stderr");
}

void ProgressLine::show(const SearchProgress& progress) {
  if (!m_enabled) return;
  const double rate = progress.seconds > 0 ? double(progress.executions) / progress.seconds : 0.0;
  const std::string text = fmt::format("{}: {} executions, {:.0f}/s, depth {}", m_label, progress.executions, rate,
                                       progress.depth);
  // Pad with spaces over what a longer previous line left.
  const size_t width = std::max(text.size(), m_shown_width);
  fmt::print(stderr, "\r{:<{}}", text, width);
  std::fflush(stderr);
  m_shown_width = text.size();
}

void ProgressLine::erase() {
  if (m_shown_width == 0) return;
  fmt::print(stderr, "\r{:<{}}\r", "", m_shown_width);
  std::fflush(stderr);
  m_shown_width = 0;
}

namespace {

/** The progress line is for a person watching: not with --quiet, nor when stderr is a file or
 *  a pipe. */
bool progress_wanted(const SearchCommandOptions& options) { return !options.quiet && ::isatty(STDERR_FILENO); }

SearchControl::Options control_options(const SearchCommandOptions& options, ProgressLine& line) {
  SearchControl::Options control;
  control.time_limit_seconds = options.time_limit;
  control.handle_signals = true;
  if (progress_wanted(options)) control.progress = [&line](const SearchProgress& progress) { line.show(progress); };
  return control;
}

} // namespace

SearchSession::SearchSession(const SearchCommandOptions& options)
    : m_line(progress_wanted(options)), m_control(control_options(options, m_line)) {}

void SearchSession::begin(const std::string& label) {
  m_line.set_label(label);
  m_control.start_search();
}

void SearchSession::end() {
  m_control.end_search();
  m_line.erase();
}

} // namespace fencelab::cli
