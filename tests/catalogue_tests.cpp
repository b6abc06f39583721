// The kernel catalogue checks itself: every file compiles (or names the unsupported feature),
// and every expectation it carries holds under each model this build implements.
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

namespace {

std::string read_file(const std::string& path) {
  SourceFile file("", "");
  std::string error;
  SourceFile::read(path, file, error);
  return file.text();
}

bool names_model(const Expectation& e, const std::string& model) {
  return std::find(e.models.begin(), e.models.end(), model) != e.models.end();
}

} // namespace

TEST_CASE("every catalogue kernel compiles, or names the feature it needs", "[catalogue]") {
  const auto files = catalogue_files();
  CHECK(files.size() >= 30);
  for (const std::string& file : files) {
    const std::string text = read_file(file);
    auto compiled = compile_text(text, file);
    INFO(compiled->rendered());
    // Warp operations run too (tests/warp_catalogue_tests.cpp checks their lockstep expectations).
    CHECK(compiled->program != nullptr);
  }
}

TEST_CASE("every catalogue kernel's expectations hold", "[catalogue][expectations]") {
  size_t proven = 0, checked = 0;
  for (const std::string& file : catalogue_files()) {
    auto compiled = compile_text(read_file(file), file);
    if (compiled->program == nullptr) continue;
    const Program& program = *compiled->program;
    Machine machine(program, {});
    for (const char* model_name : kModelNames) {
      const bool named = std::any_of(program.expectations.begin(), program.expectations.end(),
                                     [&](const Expectation& e) { return names_model(e, model_name); });
      if (!named || !model_is_implemented(model_name)) continue;
      auto model = create_model(model_name);
      const auto exhaustive = explore_exhaustive(machine, *model, ExhaustiveOptions{sweep_budget(program, 4000)});
      const auto random = explore_random(machine, *model, RandomOptions{400, 1});
      const auto by_search = check_expectations(program, exhaustive);
      const auto by_random = check_expectations(program, random);
      REQUIRE(by_search.size() == by_random.size());
      for (size_t i = 0; i < by_search.size(); ++i) {
        const Expectation& e = *by_search[i].expectation;
        // Diagnostic expectations need the checkers: tests/check_tests.cpp.
        if (e.kind == ExpectationKind::Diagnostic || e.kind == ExpectationKind::NoDiagnostics) continue;
        ++checked;
        INFO(file << " [" << model_name << "] line " << program.source->position(e.range.begin).line
                  << ": " << e.text << "\n  exhaustive: " << by_search[i].detail
                  << "\n  random: " << by_random[i].detail);
        CHECK(by_search[i].verdict != Verdict::Fails);
        CHECK(by_random[i].verdict != Verdict::Fails);
        if (exhaustive.complete) {
          CHECK(by_search[i].verdict == Verdict::Holds);
          ++proven;
        } else if (e.kind == ExpectationKind::Reachable) {
          // Without a proof either way, a reachable outcome must at least have been seen.
          CHECK((by_search[i].verdict == Verdict::Holds || by_random[i].verdict == Verdict::Holds));
        }
      }
    }
  }
  // Floors at the catalogue's present size, so that expectations cannot silently stop being checked.
  CHECK(checked >= 36);
  CHECK(proven >= 13);
}
