// A newcomer's slips on the command line (issue 71): a misspelt command or option is named with
// the nearest that exists, ranges are stated plainly, a directory given as the kernel is named as
// a directory.
#include "process_helpers.h"

#include "cli/suggestions.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

using ::fencelab::testing::ProcessResult;
using ::fencelab::testing::run_fencelab;

std::string kernel(const std::string& relative) { return std::string(FENCELAB_SOURCE_DIR) + "/kernels/" + relative; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("edit distance counts insertions, deletions, substitutions and neighbour swaps", "[cli][suggest]") {
  using fencelab::cli::edit_distance;
  CHECK(edit_distance("explor", "explore") == 1);
  CHECK(edit_distance("--modle", "--model") == 1);
  CHECK(edit_distance("rnu", "run") == 1);
  CHECK(edit_distance("check", "chekc") == 1);
  CHECK(edit_distance("draw", "report") == 6);
  CHECK(edit_distance("kitten", "sitting") == 3);
  // Optimal string alignment edits no substring twice: "ca" to "abc" is 3 (unrestricted
  // Damerau-Levenshtein would say 2).
  CHECK(edit_distance("ca", "abc") == 3);
  CHECK(edit_distance("", "list") == 4);
  CHECK(edit_distance("same", "same") == 0);
}

TEST_CASE("the nearest name is offered only when it is near", "[cli][suggest]") {
  using fencelab::cli::closest_name;
  const std::vector<std::string> commands{"run", "explore", "replay", "list", "explain", "check", "gpu", "compare",
                                          "draw", "report"};
  CHECK(closest_name("explor", commands) == "explore");
  CHECK(closest_name("expain", commands) == "explain");
  CHECK(closest_name("repaly", commands) == "replay");
  CHECK(closest_name("comp", commands) == "compare"); // the one command it begins
  CHECK(closest_name("expl", commands).empty());      // explore and explain
  CHECK(closest_name("frobnicate", commands).empty());
  CHECK(closest_name("--modle", {"--model", "--max-steps", "--json"}) == "--model");
}

TEST_CASE("a misspelt command is named, with the nearest command", "[cli][suggest]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const ProcessResult misspelt = run_fencelab("explor " + file);
  CHECK(misspelt.exit_code == 2);
  CHECK(contains(misspelt.output, "fencelab: error: 'explor' is not a command (did you mean 'explore'?); the commands "
                                  "are run, explore, replay, list, explain, check, gpu, compare, draw, report"));
  const ProcessResult unknown = run_fencelab("frobnicate " + file);
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.output, "fencelab: error: 'frobnicate' is not a command; the commands are run,"));
  CHECK(!contains(unknown.output, "did you mean"));
}

TEST_CASE("a misspelt option is named, with the nearest option or the commands that take it", "[cli][suggest]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const ProcessResult misspelt = run_fencelab("explore --modle sc " + file);
  CHECK(misspelt.exit_code == 2);
  CHECK(contains(misspelt.output, "fencelab explore: error: unknown option '--modle' (did you mean '--model'?); "
                                  "fencelab explore --help lists its options"));
  const ProcessResult with_value = run_fencelab("run --rusn=5 " + file);
  CHECK(with_value.exit_code == 2);
  CHECK(contains(with_value.output, "unknown option '--rusn' (did you mean '--runs'?)"));
  // --jobs belongs to run and check, not explore.
  const ProcessResult elsewhere = run_fencelab("explore --jobs 2 " + file);
  CHECK(elsewhere.exit_code == 2);
  CHECK(contains(elsewhere.output, "unknown option '--jobs' (--jobs is an option of run, check, not of explore)"));
  // After `--` every argument is positional: CLI11's message, not ours.
  const ProcessResult positional = run_fencelab("explore " + file + " -- --modle");
  CHECK(positional.exit_code == 2);
  CHECK(!contains(positional.output, "unknown option"));
  // Options that exist pass through untouched.
  CHECK(run_fencelab("explore --model=sc " + file).exit_code == 0);
}

TEST_CASE("a number out of range is said plainly", "[cli][suggest]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  for (const std::string option : {"--runs", "--launches"}) {
    const ProcessResult zero = run_fencelab("gpu --emit-cuda " + option + " 0 " + file);
    INFO(zero.output);
    CHECK(zero.exit_code == 2);
    CHECK(contains(zero.output, option + ": 0 is too small: at least 1"));
    CHECK(zero.output.size() < 200); // no 300-digit bound
  }
  const ProcessResult negative = run_fencelab("gpu --emit-cuda --stress -1 " + file);
  CHECK(negative.exit_code == 2);
  CHECK(contains(negative.output, "--stress: '-1' is not a whole number"));
  const ProcessResult huge = run_fencelab("gpu --emit-cuda --sync-spins 4294967296 " + file);
  CHECK(huge.exit_code == 2);
  CHECK(contains(huge.output, "--sync-spins: Value 4294967296 not in range 0 to 4294967295"));
  CHECK(run_fencelab("run --runs 0 " + file).output.find("--runs: 0 is too small: at least 1") != std::string::npos);
}

TEST_CASE("a directory given as the kernel is named as a directory", "[cli][suggest]") {
  const std::string directory = std::string(FENCELAB_SOURCE_DIR) + "/kernels/fences";
  for (const std::string command : {"explore ", "run ", "check "}) {
    const ProcessResult r = run_fencelab(command + directory);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "fencelab: error: '" + directory + "' is a directory, not a file (fencelab list DIR lists "
                             "the kernels in a directory)"));
    CHECK(!contains(r.output, "__global__"));
  }
}
