// `fencelab replay FILE TOKEN` (or --token-file): reproduce one execution exactly; --trace prints it step by step;
// --timeline draws its barrier timeline with box characters, as wide as the terminal.
#include "commands.h"
#include "picture_files.h"
#include "search_session.h"

#include "fencelab/draw/barrier_timeline.h"
#include "fencelab/draw/pictures.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <cstdlib>
#include <iostream>
#include <sys/ioctl.h>
#include <unistd.h>

namespace fencelab::cli {

namespace {

struct ReplayOptions {
  CommonOptions common;
  TokenArgument token;
  bool trace = false;
  bool timeline = false;
  uint32_t width = 0; ///< 0: the terminal's, else $COLUMNS, else 100
  uint64_t max_trace_events = 0; ///< 0: TraceRecorder's default
  SearchCommandOptions search;   ///< --time-limit only
  CLI::Option* trace_limit = nullptr;
};

/** The terminal's width: --width, else the terminal's (TIOCGWINSZ), else $COLUMNS, else 100. */
uint32_t terminal_width(uint32_t asked) {
  if (asked > 0) return asked;
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    const int value = std::atoi(columns);
    if (value > 0) return static_cast<uint32_t>(value);
  }
  return 100;
}

int execute(ReplayOptions& options) {
  // --max-trace-events limits what --trace and --timeline show; without them nothing is recorded.
  if (options.trace_limit->count() > 0 && !options.trace && !options.timeline) {
    fmt::print(stderr, "fencelab: error: --max-trace-events limits the events --trace and --timeline show: give one "
                       "of them, or leave it out\n");
    return kBadInput;
  }
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  const auto witness = load_token(options.token, options.common.machine, *program);
  if (!witness || !token_matches_options(options.common, *witness, "replay")) return kBadInput;
  Machine machine(*program, options.common.machine);
  if (!resident_threads_fit(machine)) return kBadInput;
  const auto model = create_model(witness->model);
  TraceRecorder recorder(options.max_trace_events != 0 ? options.max_trace_events : TraceRecorder::kDefaultLimit);
  ReplayError replay_error;
  // A long execution (a barrier loop's) stops at --time-limit or a signal, as a search does.
  SearchSession session(options.search);
  const auto execution = session.within("replay", [&] {
    return replay(machine, *model, witness->token, options.trace || options.timeline ? &recorder : nullptr,
                  replay_error, session.control());
  });
  if (!execution) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", witness->shown, replay_error.message);
    return replay_error.stopped ? stopped_exit_code() : kBadInput;
  }
  note_events_left_out(recorder.left_out(), recorder.limit());
  if (options.common.json) {
    print_trace_json(std::cout, *program, witness->token.encode(), recorder.events(), *execution);
  } else if (options.trace || options.timeline) {
    if (options.trace) print_trace_text(std::cout, *program, witness->shown, recorder.events(), *execution);
    if (options.trace && options.timeline) std::cout << "\n";
    if (options.timeline) {
      BarrierTimeline timeline = build_barrier_timeline(*program, recorder.events(), *execution);
      timeline.title = fmt::format("barrier timeline of {} ({}), outcome {}", options.common.file, witness->shown,
                                   execution->outcome.to_string(*program));
      std::cout << render_timeline_text(timeline, terminal_width(options.width));
    }
  } else {
    fmt::print("{}\n", execution->outcome.to_string(*program));
    if (execution->error) std::cout << render_diagnostic(execution->error->diagnostic, *program->source);
  }
  // An execution error the file announces (`//@ expect MODEL: diagnostic deadlock`) is what the
  // witness was for; one it does not, or an execution stopped at a limit, is not success.
  return exit_code_of({judge_execution(*program, witness->token.model, *execution)});
}

} // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand("replay", "reproduce the execution a witness token names");
  add_common_options(*command, options->common, CommonOptionSet{.stats = false});
  add_token_arguments(*command, options->token, "sc:0110");
  command->add_flag("--trace", options->trace, "print the execution step by step");
  CLI::Option* timeline =
      command->add_flag("--timeline", options->timeline, "draw the barrier timeline with box characters");
  command->add_option("--width", options->width, "columns for --timeline (default: the terminal's)")
      ->check(CLI::Range(20u, 1000u))
      ->needs(timeline); // it does nothing without one (issue 71)
  options->trace_limit = add_trace_limit_option(*command, options->max_trace_events);
  add_time_limit_option(*command, options->search.time_limit);
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
