// libFuzzer target for running kernels (issue 15): any bytes in as a kernel file; what the
// front end accepts is run under sc, tso and gpu, a few random executions and a short
// exhaustive search each, with the checkers on and small budgets (steps, local steps, barrier
// rounds, threads). Every run must end in an outcome, a diagnostic or a limit: never a crash, a
// hang or unbounded memory. Each run is made by both interpreters (src/machine/bytecode.h), and
// their outcomes and reports must be the same: a difference aborts. Built with
// -DFENCELAB_FUZZ=ON (clang); tools/fuzz --target kernel.
#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/frontend/compile.h"
#include "fencelab/machine/machine.h"
#include "fencelab/machine/memory_model.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>

namespace {

// Launches beyond this many threads are the front end's and the hardening tests' business:
// here they would only make each input slow.
constexpr uint64_t kMaxThreads = 256;

/** What a search found, as text: outcomes with their counts, and the reports' identities. The
 *  call depth at which deep recursion ends is left out: it is counted, the same in both
 *  interpreters, but this sanitized build's frames can outgrow a level's share of the stack
 *  first, and then the native check behind the count ends it (docs/architecture.md,
 *  "Compiled functions"). */
std::string summary(const fencelab::Program& program, const fencelab::ExplorationResult& result) {
  std::string text = std::to_string(result.executions) + " executions\n";
  for (const auto& o : result.outcomes) text += o.outcome.to_string(program) + " x" + std::to_string(o.executions) + "\n";
  for (const auto& r : result.reports) text += r.report.identity() + "\n";
  static const std::regex depth("recursion too deep at call depth [0-9]+");
  return std::regex_replace(text, depth, "recursion too deep");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fencelab;
  auto source = std::make_shared<SourceFile>("fuzz.cu", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticSink diagnostics;
  const auto program = compile_program(source, diagnostics);
  if (!program || program->launch.grid.total() * program->launch.block.total() > kMaxThreads) return 0;
  MachineOptions options;
  options.stack_size = 64 * 1024;
  options.max_steps = 1'000;
  options.max_local_steps = 20'000;
  options.max_barrier_rounds = 200;
  for (const char* name : {"sc", "tso", "gpu"}) {
    for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
      options.warp = warp;
      std::string found[2];
      for (Engine engine : {Engine::Bytecode, Engine::Ast}) {
        options.engine = engine;
        Machine machine(*program, options);
        Checkers checkers(*program);
        auto model = create_model(name);
        RandomOptions random;
        random.runs = 4;
        random.seed = size;
        random.checkers = &checkers;
        std::string& text = found[engine == Engine::Ast];
        text = summary(*program, explore_random(machine, *model, random));
        ExhaustiveOptions exhaustive;
        exhaustive.max_executions = 16;
        exhaustive.checkers = &checkers;
        text += summary(*program, explore_exhaustive(machine, *model, exhaustive));
      }
      if (found[0] != found[1]) {
        std::fprintf(stderr, "the interpreters differ under %s:\nbytecode:\n%s\nast:\n%s\n", name, found[0].c_str(),
                     found[1].c_str());
        std::abort();
      }
    }
  }
  return 0;
}
