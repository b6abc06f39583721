// `fencelab draw FILE [TOKEN] --graph|--timeline|--warps [-o out.svg]`: a witness as a picture.
// Without a token: --graph draws the first outcome sequential consistency forbids (else the
// first outcome) of an exhaustive search; --timeline and --warps draw one random execution.
#include "commands.h"
#include "picture_files.h"
#include "search_session.h"

#include "fencelab/draw/witness_pictures.h"
#include "fencelab/explore/exploration.h"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

enum class PictureKind { Graph, Timeline, Warps };

struct DrawOptions {
  CommonOptions common;
  TokenArgument token;
  bool graph = false, timeline = false, warps = false;
  std::string output;
  uint64_t seed = 1;
  uint64_t max_executions = 20'000; ///< without a token, --graph's searches stop here
  uint64_t max_trace_events = 0;    ///< 0: TraceRecorder's default
  SearchCommandOptions search;      ///< --time-limit only
  CLI::Option* seed_option = nullptr;
  CLI::Option* max_executions_option = nullptr;
};

/** --seed chooses the random execution of --timeline and --warps, --max-executions bounds the
 *  search of --graph, both only without a token: given where they would do nothing, they are
 *  refused (issue 71). Prints why and returns false. */
bool choice_options_apply(const DrawOptions& options, PictureKind kind, bool with_token) {
  const bool seed = options.seed_option->count() > 0;
  const bool max_executions = options.max_executions_option->count() > 0;
  if (with_token && (seed || max_executions)) {
    fmt::print(stderr, "fencelab: error: {} chooses the execution to draw when no token is given; the token names it "
                       "(leave {} out)\n",
               seed ? "--seed" : "--max-executions", seed ? "--seed" : "--max-executions");
    return false;
  }
  if (seed && kind == PictureKind::Graph) {
    fmt::print(stderr, "fencelab: error: --seed chooses the random execution of --timeline and --warps; --graph "
                       "draws the first weak outcome of an exhaustive search (--max-executions bounds it)\n");
    return false;
  }
  if (max_executions && kind != PictureKind::Graph) {
    fmt::print(stderr, "fencelab: error: --max-executions bounds --graph's search; --timeline and --warps draw one "
                       "random execution (--seed chooses it)\n");
    return false;
  }
  return true;
}

/** The token to draw when none was given (see the file comment); the searches stop at the
 *  session's time limit or a signal (`stopped` then says why). */
std::optional<ReplayToken> choose_witness(const Program& program, const DrawOptions& options, PictureKind kind,
                                          SearchSession& session, std::string& stopped) {
  Machine machine(program, options.common.machine);
  const std::string& model_name = options.common.models.front();
  const auto model = create_model(model_name);
  if (kind != PictureKind::Graph) {
    RandomOptions random;
    random.runs = 1;
    random.seed = options.seed;
    random.jobs = 1;
    random.control = session.control();
    const ExplorationResult result =
        session.run("draw under " + model_name, [&] { return explore_random(machine, *model, random); });
    stopped = result.stopped_because;
    if (result.outcomes.empty()) return std::nullopt;
    return result.outcomes.front().witness;
  }
  ExhaustiveOptions exhaustive{options.max_executions};
  exhaustive.control = session.control();
  const ExplorationResult result =
      session.run("draw under " + model_name, [&] { return explore_exhaustive(machine, *model, exhaustive); });
  stopped = result.stopped_because;
  if (!stopped.empty()) return result.outcomes.empty() ? std::nullopt : std::optional(result.outcomes.front().witness);
  const auto sc = create_model("sc");
  const ExplorationResult under_sc =
      session.run("draw under sc", [&] { return explore_exhaustive(machine, *sc, exhaustive); });
  for (const OutcomeCount& o : result.outcomes) {
    const bool under_sc_too = std::any_of(under_sc.outcomes.begin(), under_sc.outcomes.end(),
                                          [&](const OutcomeCount& s) { return s.outcome == o.outcome; });
    if (!under_sc_too) return o.witness;
  }
  if (result.outcomes.empty()) return std::nullopt;
  return result.outcomes.front().witness;
}

int execute(DrawOptions& options) {
  const int kinds = int(options.graph) + int(options.timeline) + int(options.warps);
  if (kinds > 1) {
    fmt::print(stderr, "fencelab: error: draw one picture at a time: --graph, --timeline or --warps\n");
    return kBadInput;
  }
  const PictureKind kind = options.timeline ? PictureKind::Timeline : options.warps ? PictureKind::Warps : PictureKind::Graph;
  if (options.common.models.size() != 1 || !check_models(options.common.models)) {
    if (options.common.models.size() != 1) fmt::print(stderr, "fencelab: error: draw takes one --model\n");
    return kBadInput;
  }
  const bool with_token = !options.token.text.empty() || !options.token.file.empty();
  if (!choice_options_apply(options, kind, with_token)) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  std::optional<ReplayToken> token;
  if (with_token) {
    auto witness = load_token(options.token, options.common.machine, *program);
    if (!witness || !token_matches_options(options.common, *witness, "draw")) return kBadInput;
    token = std::move(witness->token);
  }
  if (!resident_threads_fit(Machine(*program, options.common.machine))) return kBadInput;
  SearchSession session(options.search);
  std::string stopped;
  if (!token) token = choose_witness(*program, options, kind, session, stopped);
  if (!token) {
    if (!stopped.empty()) {
      fmt::print(stderr, "fencelab: error: no execution to draw: the search stopped ({})\n", stopped);
      return stopped_exit_code();
    }
    fmt::print(stderr, "fencelab: error: the kernel has no execution to draw (the search ran none)\n");
    return kNotShownCorrect;
  }
  std::string error;
  const WitnessRecording how{options.max_trace_events, session.control()};
  const auto witness =
      session.within("draw", [&] { return record_witness(*program, options.common.machine, *token, error, how); });
  if (!witness) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", token->display(), error);
    return error.starts_with("stopped: ") ? stopped_exit_code() : kBadInput;
  }
  note_events_left_out(*witness);
  std::string picture;
  switch (kind) {
  case PictureKind::Graph:
    picture = draw_witness_graph(*program, *witness,
                                 explain_witness(*program, options.common.machine, *witness, std::nullopt).sentences);
    break;
  case PictureKind::Timeline: picture = draw_witness_timeline(*program, *witness); break;
  case PictureKind::Warps: {
    auto warps = draw_witness_warps(*program, *witness);
    if (!warps) {
      fmt::print(stderr, "fencelab: error: the execution has no warp events to draw (--warps needs a kernel with "
                         "warp operations; --graph or --timeline draw this one)\n");
      return kBadInput;
    }
    picture = std::move(*warps);
    break;
  }
  }
  if (options.output.empty() || options.output == "-") {
    std::cout << picture;
    return kSuccess;
  }
  if (!write_text_file(options.output, picture)) return kBadInput;
  fmt::print(stderr, "wrote {} ({})\n", options.output, token->display());
  return kSuccess;
}

} // namespace

void add_draw_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<DrawOptions>();
  CLI::App* command = app.add_subcommand("draw", "draw a witness as SVG: execution graph, barrier timeline, warp lanes");
  add_common_options(*command, options->common, CommonOptionSet{.json = false, .stats = false});
  add_token_arguments(*command, options->token, "gpu:001001 (optional: see --help)");
  command->add_flag("--graph", options->graph, "the execution graph: po, rf, co, fr, the sc cycle (default)");
  command->add_flag("--timeline", options->timeline, "the barrier timeline: a lane per thread, time across");
  command->add_flag("--warps", options->warps, "the lanes of a warp: active mask per step, divergence");
  command->add_option("-o,--output", options->output, "write the SVG to FILE (default: standard output)");
  options->max_executions_option = command->add_option("--max-executions", options->max_executions,
                      "without a token, --graph explores at most this many executions per model (default 20000)")
      ->transform(whole_number(1));
  options->seed_option = command->add_option("--seed", options->seed, "without a token, --timeline and --warps draw a random execution from this seed")
      ->transform(whole_number());
  add_trace_limit_option(*command, options->max_trace_events);
  add_time_limit_option(*command, options->search.time_limit);
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
