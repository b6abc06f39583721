// `fencelab explain FILE TOKEN`: a witness in a few plain sentences.
#include "commands.h"

#include "fencelab/explore/explanation.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

struct ExplainOptions {
  CommonOptions common;
  std::string token;
};

int execute(const ExplainOptions& options) {
  std::string error;
  const auto token = ReplayToken::decode(options.token, error);
  if (!token) {
    fmt::print(stderr, "fencelab: error: bad replay token '{}': {}\n", options.token, error);
    return kBadInput;
  }
  // "gpu.lockstep:..." names the warp mode too; the token's mode wins over --warp.
  std::string model_name;
  MachineOptions machine_options = options.common.machine;
  if (!split_mode_name(token->model, model_name, machine_options.warp)) {
    fmt::print(stderr, "fencelab: error: bad replay token '{}': unknown warp mode in '{}' (its or lockstep)\n",
               options.token, token->model);
    return kBadInput;
  }
  if (!check_models({model_name})) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, machine_options);
  const auto model = create_model(model_name);
  TraceRecorder recorder;
  ReplayError replay_error;
  const auto execution = replay(machine, *model, *token, &recorder, replay_error);
  if (!execution) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", options.token, replay_error.message);
    return kBadInput;
  }
  // Is the outcome reachable without weak memory? Ask sc, exhaustively (bounded).
  ExplanationContext context{model_name, false};
  const auto sc = create_model("sc");
  const ExplorationResult under_sc = explore_exhaustive(machine, *sc, ExhaustiveOptions{100'000});
  for (const OutcomeCount& o : under_sc.outcomes) context.reachable_under_sc |= o.outcome == execution->outcome;

  fmt::print("outcome {} under {} ({}):\n", execution->outcome.to_string(*program), token->model, options.token);
  if (!context.reachable_under_sc)
    fmt::print("  sequential consistency {} this outcome.\n",
               under_sc.complete ? "forbids" : "did not reach (in a bounded search)");
  for (const std::string& sentence : explain_execution(*program, recorder.events(), context))
    fmt::print("  {}\n", sentence);
  return kSuccess;
}

} // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand("explain", "explain a witness in plain sentences");
  add_common_options(*command, options->common);
  command->add_option("token", options->token, "replay token, e.g. gpu:001001")->required();
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
