// The catalogue under both warp modes: every expectation that names a lockstep mode
// ("gpu/lockstep" in a directive, "gpu.lockstep" in Expectation::models) holds under
// --warp lockstep. The ITS expectations of the same files are checked by catalogue_tests.cpp,
// and the diagnostic expectations of both modes by check_tests.cpp.
#include "expectation_sweep.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("every catalogue expectation under lockstep holds",
          "[catalogue][expectations][warp]") {
  // ITS expectations are catalogue_tests.cpp's; only the lockstep ones are explored here.
  ExpectationSweep sweep;
  for (const std::string& file : catalogue_files()) {
    auto compiled = compile_text(read_source_text(file), file);
    if (compiled->program == nullptr) continue;
    MachineOptions options;
    options.warp = WarpMode::Lockstep;
    Machine machine(*compiled->program, options);
    for (const char* model_name : kModelNames)
      check_outcome_expectations(file, *compiled->program, machine, model_name,
                                 mode_name(model_name, WarpMode::Lockstep), sweep);
  }
  // Floors at the catalogue's present size, so that expectations cannot silently stop being checked.
  CHECK(sweep.checked >= 13);
  CHECK(sweep.proven >= 13);
}

TEST_CASE("the warp teaching kernels give their verdicts under each mode", "[catalogue][warp]") {
  auto outcomes = [](const std::string& relative, WarpMode warp, const char* model_name, uint64_t max) {
    MachineOptions options;
    options.warp = warp;
    Kernel k = kernel_from_file(catalogue_path(relative), options);
    auto model = create_model(model_name);
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{max});
    return std::make_pair(r.complete, outcome_strings(k.program(), r));
  };
  // Legacy warp-synchronous reduction: right under lockstep (proven), wrong sums under ITS.
  const auto lockstep = outcomes("warps/legacy_warp_reduction_volatile.cu", WarpMode::Lockstep, "gpu", 1000);
  CHECK(lockstep.first);
  CHECK(lockstep.second == std::set<std::string>{"output[0]=64"});
  const auto its = outcomes("warps/legacy_warp_reduction_volatile.cu", WarpMode::Its, "sc", 300);
  CHECK(std::any_of(its.second.begin(), its.second.end(), [](const std::string& o) { return o != "output[0]=64"; }));
  // Intra-warp spin lock: completes under ITS, never under lockstep.
  CHECK(outcomes("warps/intra_warp_spin_lock.cu", WarpMode::Its, "gpu", 10000) ==
        std::make_pair(true, std::set<std::string>{"counter=2"}));
  const auto spin = outcomes("warps/intra_warp_spin_lock.cu", WarpMode::Lockstep, "gpu", 1000);
  CHECK(spin.first);
  REQUIRE(spin.second.size() == 1);
  CHECK(spin.second.begin()->starts_with("deadlock:"));
}
