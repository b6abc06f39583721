// `fencelab replay FILE TOKEN`: reproduce one execution exactly; --trace prints it step by step.
#include "commands.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

struct ReplayOptions {
  CommonOptions common;
  std::string token;
  bool trace = false;
};

int execute(ReplayOptions& options) {
  std::string error;
  const auto token = ReplayToken::decode(options.token, error);
  if (!token) {
    fmt::print(stderr, "fencelab: error: bad replay token '{}': {}\n", options.token, error);
    return kBadInput;
  }
  // "gpu.lockstep:..." names the warp mode too; the token's mode wins over --warp.
  std::string model_name;
  if (!split_mode_name(token->model, model_name, options.common.machine.warp)) {
    fmt::print(stderr, "fencelab: error: bad replay token '{}': unknown warp mode in '{}' (its or lockstep)\n",
               options.token, token->model);
    return kBadInput;
  }
  if (!check_models({model_name})) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  const auto model = create_model(model_name);
  TraceRecorder recorder;
  ReplayError replay_error;
  const auto execution = replay(machine, *model, *token, options.trace ? &recorder : nullptr, replay_error);
  if (!execution) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", options.token, replay_error.message);
    return kBadInput;
  }
  if (options.common.json) {
    print_trace_json(std::cout, *program, options.token, recorder.events(), *execution);
  } else if (options.trace) {
    print_trace_text(std::cout, *program, options.token, recorder.events(), *execution);
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
  command->add_option("token", options->token, "replay token, e.g. sc:0110")->required();
  command->add_flag("--trace", options->trace, "print the execution step by step");
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
