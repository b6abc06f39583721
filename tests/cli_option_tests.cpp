// Every option a command takes does what it says, or the command refuses it (exit 2, a message
// naming it): issue 71, "Options that do nothing". Each row of the table runs the command with
// the option and checks the behaviour the option promises, or the refusal.
#include "process_helpers.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using ::fencelab::testing::ProcessResult;
using ::fencelab::testing::run_fencelab;

std::string kernel(const std::string& relative) { return std::string(FENCELAB_SOURCE_DIR) + "/kernels/" + relative; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/** The first witness token `explore --json --model MODEL` prints for `file`. */
std::string first_witness(const std::string& file, const std::string& model) {
  const ProcessResult r = run_fencelab("explore --json --model " + model + " " + file, false);
  const std::string key = "\"witness\":\"";
  const size_t begin = r.output.find(key);
  REQUIRE(begin != std::string::npos);
  const size_t from = begin + key.size();
  return r.output.substr(from, r.output.find('"', from) - from);
}

/** The output with stderr left out: what a command printed as its result. */
ProcessResult result_of(const std::string& arguments) { return run_fencelab(arguments, false); }

struct Row {
  std::string arguments; ///< the command line after `fencelab`
  /** Honoured: what the option's effect looks like; refused: part of the message. */
  std::string expected;
  bool refused;
  int exit_code = 0; ///< when honoured (a random run leaves `exactly` unproven: 1)
};

void check_row(const Row& row) {
  INFO("fencelab " << row.arguments);
  if (row.refused) {
    const ProcessResult r = run_fencelab(row.arguments);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, row.expected));
    return;
  }
  const ProcessResult r = result_of(row.arguments);
  INFO(r.output);
  CHECK(r.exit_code == row.exit_code);
  CHECK(contains(r.output, row.expected));
}

} // namespace

TEST_CASE("the options --json and --stats are honoured where they exist and refused where they would do nothing",
          "[cli][options]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const std::string sc = first_witness(file, "sc");
  REQUIRE(sc.starts_with("sc:"));
  const std::string page = "/tmp/fencelab_option_tests_" + std::to_string(::getpid()) + ".html";
  const std::vector<Row> rows{
      // JSON reports name the schema and the command (docs/json.md).
      {"run --json --runs 20 --seed 1 --model sc " + file, "\"schema\":1,\"command\":\"run\"", false, 1},
      {"explore --json --model sc " + file, "\"schema\":1,\"command\":\"explore\"", false},
      {"check --json --model sc " + file, "\"schema\":1,\"command\":\"check\"", false},
      {"replay --json " + file + " " + sc, "\"schema\":1,\"command\":\"replay\"", false},
      {"explain --json " + file + " " + sc, "--json", true},
      {"draw --json " + file + " " + sc + " -o /dev/null", "--json", true},
      {"report --json " + file + " -o " + page, "--json", true},
      // --stats: the `stats:` line with the executions searched.
      {"run --stats --runs 20 --seed 1 --model sc " + file, "\nstats: 20 executions, 80 events in ", false, 1},
      {"explore --stats --model sc " + file, "\nstats: 3 executions, 12 events in ", false},
      {"check --stats --model sc " + file, "\nstats: 3 executions, 12 events in ", false},
      {"replay --stats " + file + " " + sc, "--stats", true},
      {"explain --stats " + file + " " + sc, "--stats", true},
      {"draw --stats " + file + " " + sc + " -o /dev/null", "--stats", true},
      {"report --stats " + file + " -o " + page, "--stats", true},
  };
  for (const Row& row : rows) check_row(row);
  std::remove(page.c_str());
  // Without the refused options the same commands succeed: the refusal is the option's.
  CHECK(result_of("explain " + file + " " + sc).exit_code == 0);
  CHECK(result_of("draw " + file + " " + sc + " -o /dev/null").exit_code == 0);
  CHECK(result_of("replay " + file + " " + sc).exit_code == 0);
}

TEST_CASE("a command that follows a token takes --model and --warp only where they agree with it",
          "[cli][options]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const std::string sc = first_witness(file, "sc");
  const std::string gpu = first_witness(file, "gpu");
  REQUIRE(gpu.starts_with("gpu:"));
  const std::vector<Row> rows{
      // The token's own model: the replay runs (its outcome printed) under it.
      {"replay --model sc " + file + " " + sc, "A=", false},
      {"replay --model gpu " + file + " " + sc, "the token is of model sc, but --model says gpu", true},
      {"replay --model sc,gpu " + file + " " + sc, "but --model says sc,gpu", true},
      {"explain --model sc " + file + " " + sc, "under sc", false},
      {"explain --model tso " + file + " " + sc, "the token is of model sc, but --model says tso", true},
      {"draw --model sc " + file + " " + sc, "<svg", false},
      {"draw --model gpu " + file + " " + sc + " -o /dev/null", "the token is of model sc", true},
      {"replay --warp its " + file + " " + gpu, "A=", false},
      {"replay --warp lockstep " + file + " " + gpu, "the token is of warp mode its, but --warp says lockstep", true},
      {"explain --warp lockstep " + file + " " + gpu, "but --warp says lockstep", true},
      {"draw --warp lockstep " + file + " " + gpu + " -o /dev/null", "but --warp says lockstep", true},
  };
  for (const Row& row : rows) check_row(row);
}

TEST_CASE("draw's --seed and --max-executions only where they choose the picture's execution", "[cli][options]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const std::string sc = first_witness(file, "sc");
  const std::vector<Row> rows{
      {"draw --model sc --timeline --seed 3 " + file, "<svg", false},
      {"draw --model sc --graph --max-executions 50 " + file, "<svg", false},
      {"draw --model sc --seed 3 " + file + " " + sc + " -o /dev/null", "--seed chooses the execution to draw when no token",
       true},
      {"draw --model sc --max-executions 5 " + file + " " + sc + " -o /dev/null", "(leave --max-executions out)", true},
      {"draw --model sc --graph --seed 3 " + file + " -o /dev/null", "--seed chooses the random execution of --timeline",
       true},
      {"draw --model sc --seed 3 " + file + " -o /dev/null", "--seed chooses the random execution of --timeline", true},
      {"draw --model sc --warps --max-executions 5 " + file + " -o /dev/null", "--max-executions bounds --graph's search",
       true},
  };
  for (const Row& row : rows) check_row(row);
  // The seed is honoured: two seeds whose executions differ draw different timelines, one seed
  // draws the same one twice.
  const std::string one = result_of("draw --model gpu --timeline --seed 1 " + file).output;
  CHECK(one == result_of("draw --model gpu --timeline --seed 1 " + file).output);
  bool differs = false;
  for (int seed = 2; seed < 12 && !differs; ++seed)
    differs = result_of("draw --model gpu --timeline --seed " + std::to_string(seed) + " " + file).output != one;
  CHECK(differs);
}

namespace {

/** The widest lane line ("(0, 3) ...") of a text timeline, in columns: UTF-8 sequences, as the
 *  box characters are 3 bytes each. */
size_t widest_lane(const std::string& timeline) {
  size_t widest = 0, start = 0;
  while (start < timeline.size()) {
    size_t end = timeline.find('\n', start);
    if (end == std::string::npos) end = timeline.size();
    size_t columns = 0;
    for (size_t i = start; i < end; ++i) columns += (static_cast<unsigned char>(timeline[i]) & 0xC0) != 0x80;
    if (timeline[start] == '(') widest = std::max(widest, columns);
    start = end + 1;
  }
  return widest;
}

} // namespace

TEST_CASE("replay --width needs --timeline, and sets its width", "[cli][options]") {
  // The gallery's token (tools/gallery): 48 columns of lanes when the width allows.
  const std::string arguments =
      kernel("barriers/barrier_synchronization_demo.cu") + " 'gpu:23101012201130[3]100100'";
  const ProcessResult alone = run_fencelab("replay --width 60 " + arguments);
  CHECK(alone.exit_code == 2);
  CHECK(contains(alone.output, "--width requires --timeline"));
  const ProcessResult narrow = result_of("replay --timeline --width 40 " + arguments);
  const ProcessResult wide = result_of("replay --timeline --width 100 " + arguments);
  REQUIRE(narrow.exit_code == 0);
  REQUIRE(wide.exit_code == 0);
  CHECK(widest_lane(narrow.output) == 31);
  CHECK(widest_lane(wide.output) == 48);
}

TEST_CASE("the option --max-trace-events only where a trace or picture is recorded", "[cli][options]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const std::string sc = first_witness(file, "sc");
  const std::string limited = "only its first 2 are shown, the rest are left out (--max-trace-events 2 limits them";
  const std::vector<Row> rows{
      {"replay --max-trace-events 2 " + file + " " + sc, "--max-trace-events limits the events --trace and --timeline",
       true},
      {"check --max-trace-events 2 --model sc " + file, "--max-trace-events requires --svg", true},
  };
  for (const Row& row : rows) check_row(row);
  // Honoured: the note (on stderr) says how many events the trace keeps.
  const ProcessResult traced = run_fencelab("replay --trace --max-trace-events 2 " + file + " " + sc);
  CHECK(traced.exit_code == 0);
  CHECK(contains(traced.output, limited));
  const ProcessResult explained = run_fencelab("explain --max-trace-events 2 " + file + " " + sc);
  CHECK(explained.exit_code == 0);
  CHECK(contains(explained.output, limited));
}

TEST_CASE("compare refuses --emit-cuda and --witness-dir, which gpu and the searching commands honour",
          "[cli][options]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const std::vector<Row> rows{
      {"gpu --emit-cuda " + file, "__global__", false},
      {"compare --emit-cuda " + file, "unknown option '--emit-cuda' (--emit-cuda is an option of gpu, not of compare)",
       true},
      {"compare --witness-dir /tmp " + file,
       "unknown option '--witness-dir' (--witness-dir is an option of run, explore, check, not of compare)", true},
  };
  for (const Row& row : rows) check_row(row);
}

TEST_CASE("report --help states report's default models", "[cli][options]") {
  const ProcessResult help = run_fencelab("report --help");
  CHECK(help.exit_code == 0);
  CHECK(contains(help.output, "(comma-separated; default sc,tso,gpu)"));
  CHECK(!contains(help.output, "default gpu)"));
  CHECK(!contains(help.output, "--json"));
  CHECK(!contains(help.output, "--stats"));
  CHECK(contains(run_fencelab("explore --help").output, "(comma-separated; default gpu)"));
}
