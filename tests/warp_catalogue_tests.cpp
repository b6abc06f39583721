// The catalogue under both warp modes: every expectation that names a lockstep mode
// ("gpu/lockstep" in a directive, "gpu.lockstep" in Expectation::models) holds under
// --warp lockstep. The ITS expectations of the same files are checked by catalogue_tests.cpp,
// and the diagnostic expectations of both modes by check_tests.cpp.
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

namespace {

std::string read_text(const std::string& path) {
  SourceFile file("", "");
  std::string error;
  SourceFile::read(path, file, error);
  return file.text();
}

bool names(const Expectation& e, const std::string& mode) {
  return std::find(e.models.begin(), e.models.end(), mode) != e.models.end();
}

} // namespace

TEST_CASE("every catalogue expectation under lockstep holds",
          "[catalogue][expectations][warp]") {
  size_t checked = 0, proven = 0;
  for (const std::string& file : catalogue_files()) {
    auto compiled = compile_text(read_text(file), file);
    if (compiled->program == nullptr) continue;
    const Program& program = *compiled->program;
    // ITS expectations are catalogue_tests.cpp's; only the lockstep ones are explored here.
    const WarpMode warp = WarpMode::Lockstep;
    MachineOptions options;
    options.warp = warp;
    Machine machine(program, options);
    for (const char* model_name : kModelNames) {
      const std::string mode = mode_name(model_name, warp);
      const bool named = std::any_of(program.expectations.begin(), program.expectations.end(),
                                     [&](const Expectation& e) { return names(e, mode); });
      if (!named || !model_is_implemented(model_name)) continue;
      auto model = create_model(model_name);
      const auto exhaustive = explore_exhaustive(machine, *model, ExhaustiveOptions{sweep_budget(program, 4000)});
      const auto random = explore_random(machine, *model, RandomOptions{400, 1});
      const auto by_search = check_expectations(program, exhaustive);
      const auto by_random = check_expectations(program, random);
      REQUIRE(by_search.size() == by_random.size());
      for (size_t i = 0; i < by_search.size(); ++i) {
        const Expectation& e = *by_search[i].expectation;
        INFO(file << " [" << mode << "] line " << program.source->position(e.range.begin).line << ": " << e.text
                  << "\n  exhaustive: " << by_search[i].detail << "\n  random: " << by_random[i].detail);
        // Diagnostic expectations, lockstep ones included: tests/check_tests.cpp.
        if (e.kind == ExpectationKind::Diagnostic || e.kind == ExpectationKind::NoDiagnostics) continue;
        ++checked;
        CHECK(by_search[i].verdict != Verdict::Fails);
        CHECK(by_random[i].verdict != Verdict::Fails);
        if (exhaustive.complete) {
          CHECK(by_search[i].verdict == Verdict::Holds);
          ++proven;
        } else if (e.kind == ExpectationKind::Reachable) {
          CHECK((by_search[i].verdict == Verdict::Holds || by_random[i].verdict == Verdict::Holds));
        }
      }
    }
  }
  // Floors at the catalogue's present size, so that expectations cannot silently stop being checked.
  CHECK(checked >= 13);
  CHECK(proven >= 13);
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
