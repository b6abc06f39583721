// `fencelab draw FILE [TOKEN] --graph|--timeline|--warps [-o out.svg]`: a witness as a picture.
// Without a token: --graph draws the first outcome sequential consistency forbids (else the
// first outcome) of an exhaustive search; --timeline and --warps draw one random execution.
#include "commands.h"
#include "picture_files.h"

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
};

/** The token to draw when none was given (see the file comment). */
std::optional<ReplayToken> choose_witness(const Program& program, const DrawOptions& options, PictureKind kind) {
  Machine machine(program, options.common.machine);
  const std::string& model_name = options.common.models.front();
  const auto model = create_model(model_name);
  if (kind != PictureKind::Graph) {
    RandomOptions random;
    random.runs = 1;
    random.seed = options.seed;
    const ExplorationResult result = explore_random(machine, *model, random);
    if (result.outcomes.empty()) return std::nullopt;
    return result.outcomes.front().witness;
  }
  const ExplorationResult result = explore_exhaustive(machine, *model, ExhaustiveOptions{options.max_executions});
  const auto sc = create_model("sc");
  const ExplorationResult under_sc = explore_exhaustive(machine, *sc, ExhaustiveOptions{options.max_executions});
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
  std::optional<ReplayToken> token;
  if (!options.token.text.empty() || !options.token.file.empty()) {
    auto witness = load_token(options.token, options.common.machine);
    if (!witness) return kBadInput;
    token = std::move(witness->token);
  }
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  if (!resident_threads_fit(Machine(*program, options.common.machine))) return kBadInput;
  if (!token) token = choose_witness(*program, options, kind);
  if (!token) {
    fmt::print(stderr, "fencelab: error: the kernel has no execution to draw (the search ran none)\n");
    return kNotShownCorrect;
  }
  std::string error;
  const auto witness = record_witness(*program, options.common.machine, *token, error);
  if (!witness) {
    fmt::print(stderr, "fencelab: error: cannot replay '{}': {}\n", token->display(), error);
    return kBadInput;
  }
  std::string picture;
  switch (kind) {
  case PictureKind::Graph:
    picture = draw_witness_graph(*program, *witness, explain_witness(*program, options.common.machine, *witness, {}));
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
  add_common_options(*command, options->common);
  add_token_arguments(*command, options->token, "gpu:001001 (optional: see --help)");
  command->add_flag("--graph", options->graph, "the execution graph: po, rf, co, fr, the sc cycle (default)");
  command->add_flag("--timeline", options->timeline, "the barrier timeline: a lane per thread, time across");
  command->add_flag("--warps", options->warps, "the lanes of a warp: active mask per step, divergence");
  command->add_option("-o,--output", options->output, "write the SVG to FILE (default: standard output)");
  command->add_option("--max-executions", options->max_executions,
                      "without a token, --graph explores at most this many executions per model (default 20000)");
  command->add_option("--seed", options->seed, "without a token, --timeline and --warps draw a random execution from this seed");
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
