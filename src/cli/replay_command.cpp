// `fencelab replay FILE TOKEN` (or --token-file): reproduce one execution exactly; --trace prints it step by step.
#include "commands.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

struct ReplayOptions {
  CommonOptions common;
  TokenArgument token;
  bool trace = false;
};

int execute(ReplayOptions& options) {
  const auto witness = load_token(options.token, options.common.machine);
  if (!witness) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  const auto model = create_model(witness->model);
  TraceRecorder recorder;
  ReplayError replay_error;
  const auto execution = replay(machine, *model, witness->token, options.trace ? &recorder : nullptr, replay_error);
  if (!execution) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", witness->shown, replay_error.message);
    return kBadInput;
  }
  if (options.common.json) {
    print_trace_json(std::cout, *program, witness->token.encode(), recorder.events(), *execution);
  } else if (options.trace) {
    print_trace_text(std::cout, *program, witness->shown, recorder.events(), *execution);
  } else {
    fmt::print("{}\n", execution->outcome.to_string(*program));
    if (execution->error) std::cout << render_diagnostic(execution->error->diagnostic, *program->source);
  }
  return execution->outcome.status == ExecutionStatus::Completed ? kSuccess : kFindings;
}

} // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand("replay", "reproduce the execution a witness token names");
  add_common_options(*command, options->common);
  add_token_arguments(*command, options->token, "sc:0110");
  command->add_flag("--trace", options->trace, "print the execution step by step");
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
