// The kernel catalogue checks itself: every file compiles (or names the unsupported feature),
// and every expectation it carries holds under each model this build implements.
#include "expectation_sweep.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("every catalogue kernel compiles, or names the feature it needs", "[catalogue]") {
  const auto files = catalogue_files();
  CHECK(files.size() >= 30);
  for (const std::string& file : files) {
    const std::string text = read_source_text(file);
    auto compiled = compile_text(text, file);
    INFO(compiled->rendered());
    // Warp operations run too (tests/warp_catalogue_tests.cpp checks their lockstep expectations).
    CHECK(compiled->program != nullptr);
  }
}

TEST_CASE("every catalogue kernel's expectations hold", "[catalogue][expectations]") {
  ExpectationSweep sweep;
  for (const std::string& file : catalogue_files()) {
    auto compiled = compile_text(read_source_text(file), file);
    if (compiled->program == nullptr) continue;
    Machine machine(*compiled->program, {});
    for (const char* model_name : kModelNames)
      check_outcome_expectations(file, *compiled->program, machine, model_name, model_name, sweep);
  }
  // Floors at the catalogue's present size, so that expectations cannot silently stop being checked.
  CHECK(sweep.checked >= 36);
  CHECK(sweep.proven >= 13);
}
