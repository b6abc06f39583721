// `fencelab explain FILE TOKEN` (or --token-file): a witness in a few plain sentences.
#include "commands.h"
#include "picture_files.h"
#include "search_session.h"

#include "fencelab/draw/explanation.h"
#include "fencelab/draw/witness_pictures.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

struct ExplainOptions {
  CommonOptions common;
  TokenArgument token;
  std::string svg_directory; ///< --svg DIR: the witness's pictures beside the text
  uint64_t max_trace_events = 0; ///< 0: TraceRecorder's default
  SearchCommandOptions search;   ///< --time-limit only
};

int execute(const ExplainOptions& options) {
  MachineOptions machine_options = options.common.machine;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  const auto witness = load_token(options.token, machine_options, *program);
  if (!witness || !token_matches_options(options.common, *witness, "explain")) return kBadInput;
  Machine machine(*program, machine_options);
  if (!resident_threads_fit(machine)) return kBadInput;
  const auto model = create_model(witness->model);
  TraceRecorder recorder(options.max_trace_events != 0 ? options.max_trace_events : TraceRecorder::kDefaultLimit);
  ReplayError replay_error;
  SearchSession session(options.search);
  const auto execution = session.within(
      "explain", [&] { return replay(machine, *model, witness->token, &recorder, replay_error, session.control()); });
  if (!execution) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", witness->shown, replay_error.message);
    return replay_error.stopped ? stopped_exit_code() : kBadInput;
  }
  note_events_left_out(recorder.left_out(), recorder.limit());
  RecordedWitness recorded{witness->model, machine_options.warp, witness->token.display(), recorder.events(),
                           recorder.left_out(), *execution};
  // Is the outcome reachable without weak memory? Ask sc, exhaustively (bounded), under the
  // session's time limit and signals.
  const auto sc = create_model("sc");
  ExhaustiveOptions bounded{100'000};
  bounded.control = session.control();
  const ExplorationResult under_sc =
      session.run("explain under sc", [&] { return explore_exhaustive(machine, *sc, bounded); });
  ScSearch sc_search{false, under_sc.complete};
  for (const OutcomeCount& o : under_sc.outcomes) sc_search.reached |= o.outcome == execution->outcome;
  // The same sentences as the report and the pictures' captions (draw/explanation.h).
  const Explanation explanation = explain_witness(*program, machine_options, recorded, sc_search);
  fmt::print("outcome {} under {} ({}):\n", execution->outcome.to_string(*program), witness->token.model,
             witness->shown);
  for (const std::string& sentence : explanation.sentences) fmt::print("  {}\n", sentence);
  if (!options.svg_directory.empty()) {
    if (!prepare_directory(options.svg_directory)) return kBadInput;
    if (!write_witness_pictures(*program, recorded, explanation.sentences, options.svg_directory, "witness", true))
      return kBadInput;
  }
  return kSuccess;
}

} // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand("explain", "explain a witness in plain sentences");
  add_common_options(*command, options->common, CommonOptionSet{.json = false, .stats = false});
  add_token_arguments(*command, options->token, "gpu:001001");
  command->add_option("--svg", options->svg_directory,
                      "also write the witness's execution graph, barrier timeline and warp lanes as SVG into DIR "
                      "(DIR or its parent must exist)")
      ->check(output_directory());
  add_trace_limit_option(*command, options->max_trace_events);
  add_time_limit_option(*command, options->search.time_limit);
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
