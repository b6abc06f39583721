// --time-limit, --quiet, signals and the progress line (search_session.h).
#include "search_session.h"

#include "commands.h"
#include "output_directory.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <fmt/format.h>
#include <limits>
#include <unistd.h>

namespace fencelab::cli {

void add_time_limit_option(CLI::App& command, double& seconds) {
  command
      .add_option("--time-limit", seconds,
                  "stop each search after SECONDS and report what it found so far (as Ctrl-C does)")
      ->check(finite_number(0, std::numeric_limits<double>::infinity(), false));
}

void add_search_options(CLI::App& command, SearchCommandOptions& options) {
  add_time_limit_option(command, options.time_limit);
  command.add_flag("--quiet", options.quiet, "no progress line on stderr");
  command.add_option("--witness-dir", options.witness_dir,
                     "write each witness token too long for the report to a file in DIR (for replay/explain "
                     "--token-file); DIR or its parent must exist")
      ->check(output_directory());
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
    : m_witness_dir(options.witness_dir), m_line(progress_wanted(options)),
      m_control(control_options(options, m_line)) {}

void SearchSession::begin(const std::string& label) {
  m_line.set_label(label);
  m_control.start_search();
}

void SearchSession::end() {
  m_control.end_search();
  m_line.erase();
}

void SearchSession::save_long_witnesses(ExplorationResult& result) {
  if (m_witness_dir.empty()) return;
  for (OutcomeCount& o : result.outcomes)
    if (!save_witness(o.witness)) return;
  for (ReportCount& r : result.reports)
    if (!save_witness(r.report.witness)) return;
}

bool SearchSession::save_witness(ReplayToken& token) {
  if (m_witness_dir_failed) return false;
  const std::string text = token.encode();
  if (text.size() <= ReplayToken::kDisplayLimit) return true;
  const std::filesystem::path path = std::filesystem::path(m_witness_dir) / token.file_name();
  std::error_code error;
  if (!std::filesystem::is_directory(m_witness_dir, error)) {
    // Its last component only (output_directory.h; the option's check saw its parent).
    std::filesystem::create_directory(m_witness_dir, error);
  }
  if (!error && !std::filesystem::exists(path, error)) {
    // Written beside, then renamed: a file of that name is always a whole token.
    const std::filesystem::path partial = path.string() + ".partial";
    std::ofstream out(partial);
    out << text << '\n';
    out.close();
    if (!out) error = std::make_error_code(std::errc::io_error);
    else std::filesystem::rename(partial, path, error);
  }
  if (error) {
    fmt::print(stderr, "fencelab: error: cannot write a witness token to {}: {}; reports show it cut\n", path.string(),
               error.message());
    m_witness_dir_failed = true;
    return false;
  }
  token.saved_to = path.string();
  return true;
}

} // namespace fencelab::cli
