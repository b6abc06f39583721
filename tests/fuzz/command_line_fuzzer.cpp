// libFuzzer target for the command line and replay tokens (hardening issue 68 F): the input's
// lines are the arguments of a command that takes the simulating commands' options (the
// common ones, the search controls, a token, the number options) and a kernel file. Parsing
// must end in options or a usage error; what parses is then applied as the commands apply it
// to a small kernel: --grid/--block through the launch-limit checks, the token decoded with
// the launch's decision bound and replayed, under small budgets. Never a crash, a hang or
// unbounded memory: a token of 2^32 decisions is refused, not allocated. No file is read or
// written (--token-file and --witness-dir are parsed only). Built with -DFENCELAB_FUZZ=ON;
// tools/fuzz --target command_line.
#include "../../src/cli/commands.h"
#include "../../src/cli/picture_files.h"
#include "../../src/cli/search_session.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/frontend/compile.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/program/launch_shape.h"
#include "fencelab/report/report.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace fencelab;

/** Two threads, a barrier loop and a store each: tokens have scheduling and read-from decisions. */
constexpr const char* kKernel = "//@ launch grid=1 block=2\n__device__ int x;\n//@ observe x\n"
                                "__global__ void k() { for (int i = 0; i < 3; ++i) { x = i; __syncthreads(); } }\n";

struct FuzzedOptions {
  cli::CommonOptions common;
  cli::SearchCommandOptions search;
  cli::TokenArgument token;
  uint64_t seed = 0, runs = 1, max_trace_events = 0;
  double bias = 0.5;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> arguments{"fencelab"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      arguments.push_back(current);
      current.clear();
    } else {
      current += char(data[i]);
    }
  }
  if (!current.empty()) arguments.push_back(current);
  if (arguments.size() > 64) return 0;

  FuzzedOptions options;
  CLI::App app{"fuzzed"};
  cli::add_common_options(app, options.common);
  cli::add_search_options(app, options.search);
  cli::add_token_arguments(app, options.token, "sc:0110");
  cli::add_trace_limit_option(app, options.max_trace_events);
  app.add_option("--seed", options.seed)->transform(cli::whole_number());
  app.add_option("--runs", options.runs)->transform(cli::whole_number(1));
  app.add_option("--bias", options.bias)->check(cli::finite_number(0.0, 1.0));
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0; // a usage error, as the program reports it
  }

  auto source = std::make_shared<SourceFile>("fuzz.cu", kKernel);
  DiagnosticSink diagnostics;
  const auto program = compile_program(source, diagnostics);
  if (!program) std::abort(); // the fixed kernel compiles
  if (!cli::apply_launch_options(*program, options.common.shape)) return 0;
  if (program->launch.grid.total() * program->launch.block.total() > 64) return 0; // large launches: the hardening tests'
  if (!cli::check_models(options.common.models)) return 0;
  MachineOptions machine = options.common.machine;
  machine.max_steps = std::min<uint64_t>(machine.max_steps == 0 ? 10'000 : machine.max_steps, 10'000);
  machine.max_barrier_rounds = std::min<uint64_t>(machine.max_barrier_rounds, 200);
  machine.max_local_steps = 20'000;
  machine.stack_size = 64 * 1024;
  machine.resident_blocks = 0;

  if (!options.token.text.empty()) {
    std::string error;
    const auto token = ReplayToken::decode(options.token.text, error, max_decisions(*program, machine));
    if (!token) return 0;
    std::string reread_error;
    const auto reread = ReplayToken::decode(token->encode(), reread_error);
    if (!reread || reread->choices != token->choices || reread->model != token->model || reread->awaits != token->awaits)
      std::abort(); // encode and decode are inverses
    std::string model_name;
    if (!split_mode_name(token->model, model_name, machine.warp) || !cli::check_models({model_name})) return 0;
    Machine simulated(*program, machine);
    const auto model = create_model(model_name);
    TraceRecorder recorder(options.max_trace_events == 0 ? 1000 : std::min<uint64_t>(options.max_trace_events, 1000));
    ReplayError replay_error;
    replay(simulated, *model, *token, &recorder, replay_error);
    return 0;
  }
  Machine simulated(*program, machine);
  for (const std::string& name : options.common.models) {
    const auto model = create_model(name);
    RandomOptions random;
    random.runs = std::min<uint64_t>(options.runs, 4);
    random.seed = options.seed;
    random.bias = options.bias;
    explore_random(simulated, *model, random);
  }
  return 0;
}
