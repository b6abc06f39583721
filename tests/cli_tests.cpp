// The command line as a user meets it: exit codes, diagnostics, JSON, replay.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct ProcessResult {
  int exit_code = -1;
  std::string output;
};

/** Runs fencelab; stderr joins stdout unless `with_stderr` is false (sanitized builds print a
 *  warning with the process id there). */
ProcessResult fencelab(const std::string& arguments, bool with_stderr = true) {
  ProcessResult result;
  const std::string command =
      std::string(FENCELAB_BINARY) + " " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string kernel(const std::string& relative) { return std::string(FENCELAB_SOURCE_DIR) + "/kernels/" + relative; }

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/fencelab_cli_" + name;
  FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  return path;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/** The witness token `explore --json` gives for the outcome printed as `text`. */
std::string witness_for(const std::string& file, const std::string& text, const std::string& model = "gpu") {
  const auto r = fencelab("explore --json --model " + model + " " + file);
  const size_t at = r.output.find("\"text\":\"" + text + "\"");
  REQUIRE(at != std::string::npos);
  const std::string key = "\"witness\":\"";
  const size_t begin = r.output.find(key, at) + key.size();
  return r.output.substr(begin, r.output.find('"', begin) - begin);
}

} // namespace

TEST_CASE("explore prints the outcome table and exits 0 when expectations hold", "[cli]") {
  const auto r = fencelab("explore --model sc " + kernel("fences/write_read_xy.cu"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "6 executions (exhaustive), 3 distinct outcomes"));
  CHECK(contains(r.output, "A=1 B=2"));
  CHECK(contains(r.output, "A=10 B=20"));
  CHECK(contains(r.output, "holds"));
}

TEST_CASE("a failed expectation exits 1 with a witness", "[cli]") {
  const auto path = write_temp("fails.cu", R"(//@ launch grid=1 block=2
//@ observe x
//@ expect sc: always x == 2
__device__ int x = 0;
__global__ void k() { int v = x; x = v + 1; }
)");
  const auto r = fencelab("explore --model sc " + path);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.output, "FAILS"));
  CHECK(contains(r.output, "violated by: x=1"));
}

TEST_CASE("bad input exits 2 with file:line:col and a caret", "[cli]") {
  const auto path = write_temp("bad.cu", "//@ launch grid=1 block=1\n__global__ void k() { undefined_name = 1; }\n");
  const auto r = fencelab("explore " + path);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, path + ":2:23: error: unknown identifier 'undefined_name'"));
  CHECK(contains(r.output, "^"));
  CHECK(fencelab("explore /nonexistent/file.cu").exit_code == 2);
  CHECK(fencelab("explore --model nonsense " + kernel("fences/write_read_xy.cu")).exit_code == 2);
  CHECK(fencelab("frobnicate").exit_code == 2);
  CHECK(fencelab("replay " + kernel("fences/write_read_xy.cu") + " not-a-token").exit_code == 2);
}

TEST_CASE("a macro bomb and 10,000 errors on one line exit 2 with bounded output", "[cli][limits]") {
  // Before: the bomb ran out of memory (exit 3, or minutes at 6 GB); the line printed 300 MB.
  std::string bomb = "#define A x x x x x x x x x x x x x x x x\n";
  for (char name = 'B'; name <= 'G'; ++name) {
    bomb += std::string("#define ") + name;
    for (int i = 0; i < 16; ++i) bomb += std::string(" ") + char(name - 1);
    bomb += "\n";
  }
  const auto path = write_temp("bomb.cu", bomb + "__global__ void k() { int y = G; }\n");
  const auto r = fencelab("run " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.output.starts_with(path + ":8:31: error: macro expansion produces more than 1000000 tokens (limit of the "
                                    "preprocessor); stopped expanding 'G' here\n"));
  CHECK(r.output.size() < 1000);

  std::string observe = "//@ launch grid=1 block=1\n//@ observe";
  for (int i = 0; i < 10000; ++i) observe += " x";
  const auto line = write_temp("long_line.cu", observe + "\n__device__ int x;\n__global__ void k() { x = 1; }\n");
  const auto l = fencelab("run " + line);
  CHECK(l.exit_code == 2);
  CHECK(contains(l.output, line + ":2:15: error: 'x' is observed twice\n"));
  CHECK(contains(l.output, line + ": 9949 more errors not shown (at most 50 errors are printed)\n"));
  CHECK(l.output.size() < 100 * 1024);
}

TEST_CASE("run prints its seed and the same seed gives the same histogram", "[cli]") {
  const auto a = fencelab("run --runs 2000 --seed 11 " + kernel("fences/write_read_xy.cu"), false);
  const auto b = fencelab("run --runs 2000 --seed 11 " + kernel("fences/write_read_xy.cu"), false);
  CHECK(a.exit_code == 0);
  CHECK(contains(a.output, "(seed 11)"));
  CHECK(a.output == b.output);
  const auto unseeded = fencelab("run --runs 10 " + kernel("fences/write_read_xy.cu"));
  CHECK(contains(unseeded.output, "random executions (seed "));
}

TEST_CASE("replay --trace shows each step and the outcome", "[cli][replay]") {
  const std::string token = witness_for(kernel("fences/write_read_xy.cu"), "A=10 B=2", "sc");
  const auto r = fencelab("replay --trace " + kernel("fences/write_read_xy.cu") + " " + token);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "store  X = 10"));
  CHECK(contains(r.output, "load   Y -> 2"));
  CHECK(contains(r.output, "outcome: A=10 B=2"));
}

TEST_CASE("JSON output (--json) carries the schema version and outcomes", "[cli][json]") {
  const auto r = fencelab("explore --json " + kernel("fences/write_read_xy.cu"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, R"("schema":1)"));
  CHECK(contains(r.output, R"("values":{"A":1,"B":2})"));
  CHECK(contains(r.output, R"("complete":true)"));
  CHECK(contains(r.output, R"("verdict":"holds")"));
}

TEST_CASE("list shows the catalogue", "[cli]") {
  const auto r = fencelab("list " + std::string(FENCELAB_SOURCE_DIR) + "/kernels");
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "fences/write_read_xy.cu"));
}

TEST_CASE("explore --model sc,tso,gpu prints one table and marks gpu-only outcomes", "[cli][models]") {
  const auto r = fencelab("explore --model sc,tso,gpu " + kernel("fences/write_read_xy.cu"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "explore under sc, tso, gpu"));
  // A=1 B=20: forbidden under sc and tso (both explored exhaustively), allowed under gpu.
  const size_t row = r.output.find("A=1 B=20 ");
  REQUIRE(row != std::string::npos);
  const std::string line = r.output.substr(row, r.output.find('\n', row) - row);
  CHECK(contains(line, "forbidden   forbidden"));
  CHECK(contains(line, "<- only gpu"));
  CHECK(contains(r.output, "expectations under gpu:"));
}

TEST_CASE("explain names the stale read and the fences that forbid it", "[cli][explain]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const auto r = fencelab("explain " + file + " " + witness_for(file, "A=1 B=20"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "sequential consistency forbids this outcome"));
  CHECK(contains(r.output, "read X=1 (line "));
  CHECK(contains(r.output, "although X=10 had already been written"));
  CHECK(contains(r.output, "the read was stale"));
  CHECK(contains(r.output, "in both threads, between the accesses, forbids this outcome"));
  const std::string scoped = kernel("litmus/mp_block_fences_inter.cu");
  const auto s = fencelab("explain " + scoped + " " + witness_for(scoped, "r0=1 r1=0"));
  CHECK(contains(s.output, "use __threadfence() in both threads"));
}

TEST_CASE("run and explore print the checkers' findings; --no-check turns them off", "[cli][checkers]") {
  const auto explored = fencelab("explore --model sc " + kernel("fences/write_read_xy.cu"));
  CHECK(explored.exit_code == 0);
  CHECK(explored.output.find("diagnostics (fencelab check shows each with its source lines):\n"
                             "  error    data race (WAR) on Y [data-race], lines 32, 37; 6 of 6 executions;") !=
        std::string::npos);
  CHECK(explored.output.find("holds    line 25: expect all: diagnostic data-race") != std::string::npos);

  const auto unchecked = fencelab("run --model sc --runs 50 --seed 1 --no-check " + kernel("fences/write_read_xy.cu"));
  CHECK(unchecked.output.find("diagnostics") == std::string::npos);
  CHECK(unchecked.output.find("the checkers did not run") != std::string::npos);

  const auto json = fencelab("run --model sc --runs 50 --seed 1 --json " + kernel("races/race_condition_demo.cu"), false);
  CHECK(json.output.find("\"diagnostics\":[{\"kind\":\"data-race\",\"severity\":\"error\"") != std::string::npos);
}
