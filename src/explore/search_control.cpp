// SearchControl: time limit, signal-requested stop, progress (search_control.h).
#include "fencelab/explore/search_control.h"

#include "fencelab/explore/exploration.h"

#include <csignal>
#include <optional>
#include <fmt/format.h>
#include <signal.h>

namespace fencelab {

namespace {

/** The signal that asked the searches to stop; only ever set, never cleared (a Ctrl-C stops the
 *  search running and every later one of the same command). */
volatile std::sig_atomic_t g_stop_signal = 0;

/** The handlers SIGINT and SIGTERM had before start_search, restored by end_search. */
struct sigaction g_previous_int, g_previous_term;

extern "C" void on_stop_signal(int signal) { g_stop_signal = signal; }

/** SA_RESETHAND: a second Ctrl-C, while the first is being honoured, ends the process as usual. */
void install_handlers() {
  struct sigaction action{};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

void restore_handlers() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

std::string signal_reason(int signal) { return signal == SIGINT ? "interrupted" : "interrupted (SIGTERM)"; }

double seconds_between(std::chrono::steady_clock::time_point start, std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

} // namespace

bool interrupted_by_sigint() { return g_stop_signal == SIGINT; }

SearchControl::SearchControl(Options options)
    : m_options(std::move(options)), m_start(Clock::now()), m_last_progress(m_start) {}

SearchControl::~SearchControl() {
  if (m_handlers_installed) restore_handlers();
}

void SearchControl::start_search() {
  m_start = m_last_progress = m_last_clock_read = Clock::now();
  m_clock_stride = 1;
  m_calls_since_clock = 0;
  m_progress_shown = false;
  if (m_options.handle_signals && !m_handlers_installed) {
    install_handlers();
    m_handlers_installed = true;
  }
}

void SearchControl::end_search() {
  if (!m_handlers_installed) return;
  restore_handlers();
  m_handlers_installed = false;
}

bool SearchControl::stop_due(std::string& reason) const {
  if (g_stop_signal != 0) {
    reason = signal_reason(g_stop_signal);
    return true;
  }
  return m_options.time_limit_seconds > 0 && time_limit_reached(Clock::now(), reason);
}

bool SearchControl::time_limit_reached(Clock::time_point now, std::string& reason) const {
  if (m_options.time_limit_seconds <= 0 || seconds_between(m_start, now) < m_options.time_limit_seconds) return false;
  reason = fmt::format("time limit of {:g} s reached (--time-limit)", m_options.time_limit_seconds);
  return true;
}

std::optional<SearchControl::Clock::time_point> SearchControl::read_clock_if_due() {
  // The stride doubles while reads come less than a millisecond apart and halves when they
  // come more than four apart, so a time limit or a progress line is late by a few ms at most.
  constexpr double kSoonest = 0.001, kLatest = 0.004;
  constexpr uint32_t kLongestStride = 4096;
  if (++m_calls_since_clock < m_clock_stride) return std::nullopt;
  m_calls_since_clock = 0;
  const Clock::time_point now = Clock::now();
  const double since_read = seconds_between(m_last_clock_read, now);
  m_last_clock_read = now;
  if (since_read < kSoonest && m_clock_stride < kLongestStride) m_clock_stride *= 2;
  else if (since_read > kLatest && m_clock_stride > 1) m_clock_stride /= 2;
  return now;
}

bool InterruptibleChoices::interrupted() {
  if (m_flag != nullptr && m_flag->load(std::memory_order_relaxed)) {
    m_interrupted_because = "stopped"; // the watching thread's SearchControl says why
    return true;
  }
  return m_control != nullptr && m_control->stop_due(m_interrupted_because);
}

bool SearchControl::should_stop(ExplorationResult& result, size_t depth) {
  if (g_stop_signal != 0) {
    result.stopped_because = signal_reason(g_stop_signal);
    return true;
  }
  const std::optional<Clock::time_point> read = read_clock_if_due();
  if (!read) return false;
  const Clock::time_point now = *read;
  if (time_limit_reached(now, result.stopped_because)) return true;
  const double elapsed = seconds_between(m_start, now);
  // Progress: not for short searches, and a few times a second at most.
  if (m_options.progress && elapsed >= m_options.progress_delay &&
      (!m_progress_shown || seconds_between(m_last_progress, now) >= m_options.progress_interval)) {
    m_options.progress(SearchProgress{result.executions, elapsed, depth});
    m_last_progress = now;
    m_progress_shown = true;
  }
  return false;
}

} // namespace fencelab
