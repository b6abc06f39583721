// libFuzzer target for running kernels (issue 15): any bytes in as a kernel file; what the
// front end accepts is run under sc, tso and gpu, a few random executions and a short
// exhaustive search each, with the checkers on and small budgets (steps, local steps, barrier
// rounds, threads). Every run must end in an outcome, a diagnostic or a limit: never a crash, a
// hang or unbounded memory. Built with -DFENCELAB_FUZZ=ON (clang); tools/fuzz --target kernel.
#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/frontend/compile.h"
#include "fencelab/machine/machine.h"
#include "fencelab/machine/memory_model.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

// Launches beyond this many threads are the front end's and the hardening tests' business:
// here they would only make each input slow.
constexpr uint64_t kMaxThreads = 256;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fencelab;
  auto source = std::make_shared<SourceFile>("fuzz.cu", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticSink diagnostics;
  const auto program = compile_program(source, diagnostics);
  if (!program || program->launch.grid.total() * program->launch.block.total() > kMaxThreads) return 0;
  MachineOptions options;
  options.stack_size = 64 * 1024;
  options.max_steps = 2'000;
  options.max_local_steps = 20'000;
  options.max_barrier_rounds = 200;
  for (const char* name : {"sc", "tso", "gpu"}) {
    for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
      options.warp = warp;
      Machine machine(*program, options);
      Checkers checkers(*program);
      auto model = create_model(name);
      RandomOptions random;
      random.runs = 4;
      random.seed = size;
      random.checkers = &checkers;
      explore_random(machine, *model, random);
      ExhaustiveOptions exhaustive;
      exhaustive.max_executions = 16;
      exhaustive.checkers = &checkers;
      explore_exhaustive(machine, *model, exhaustive);
    }
  }
  return 0;
}
