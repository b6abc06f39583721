// The command line as a user meets it: exit codes, diagnostics, JSON, replay.
#include "process_helpers.h"

#include <algorithm>
#include <filesystem>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using ::fencelab::testing::ProcessResult;
using ::fencelab::testing::run_fencelab;

std::string kernel(const std::string& relative) { return std::string(FENCELAB_SOURCE_DIR) + "/kernels/" + relative; }

std::string write_temp(const std::string& name, const std::string& text) {
  return ::fencelab::testing::write_temp_file("cli_" + name, text);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/** The witness token `explore --json` gives for the outcome printed as `text`. */
std::string witness_for(const std::string& file, const std::string& text, const std::string& model = "gpu") {
  const auto r = run_fencelab("explore --json --model " + model + " " + file);
  const size_t at = r.output.find("\"text\":\"" + text + "\"");
  REQUIRE(at != std::string::npos);
  const std::string key = "\"witness\":\"";
  const size_t begin = r.output.find(key, at) + key.size();
  return r.output.substr(begin, r.output.find('"', begin) - begin);
}

} // namespace

TEST_CASE("explore prints the outcome table and exits 0 when expectations hold", "[cli]") {
  const auto r = run_fencelab("explore --model sc " + kernel("fences/write_read_xy.cu"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "3 executions (exhaustive, partial-order reduction), 3 distinct outcomes"));
  CHECK(contains(r.output, "A=1 B=2"));
  CHECK(contains(r.output, "A=10 B=20"));
  CHECK(contains(r.output, "holds"));
}

TEST_CASE("the AST interpreter (--interpreter ast) and fibers give the bytecode's report, an unknown one is refused",
          "[cli][bytecode]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  // The reports are compared without stderr: a sanitized build prints a warning with its
  // process id there (run_fencelab).
  const auto bytecode = run_fencelab("explore --model gpu " + file, false);
  const auto ast = run_fencelab("explore --model gpu --interpreter ast " + file, false);
  CHECK(bytecode.exit_code == 0);
  CHECK(ast.exit_code == 0);
  CHECK(contains(bytecode.output, "4 distinct outcomes"));
  CHECK(ast.output == bytecode.output);
  CHECK(run_fencelab("explore --model gpu --interpreter bytecode " + file, false).output == bytecode.output);
  // write_read_xy runs stackless by default; `fibers` puts its threads on fibers.
  CHECK(run_fencelab("explore --model gpu --interpreter fibers " + file, false).output == bytecode.output);
  const auto bad = run_fencelab("explore --model gpu --interpreter jit " + file);
  CHECK(bad.exit_code != 0);
  CHECK(contains(bad.output, "--interpreter"));
}

TEST_CASE("every command's --help is plain text, and a wrong name for --warp, --interpreter or --reduction is "
          "refused with the names",
          "[cli]") {
  // CLI11 listed these options' enum values beside their names as raw bytes: --help held NUL
  // and control characters, and the error for a wrong name stopped at the first NUL.
  for (const char* command : {"run", "explore", "check", "replay", "explain", "report", "compare", "draw", "list", "gpu"}) {
    INFO(command);
    const auto help = run_fencelab(std::string(command) + " --help", false);
    CHECK(help.exit_code == 0);
    CHECK(std::none_of(help.output.begin(), help.output.end(), [](char c) {
      const auto byte = static_cast<unsigned char>(c);
      return (byte < 0x20 && c != '\n') || byte == 0x7f;
    }));
  }
  const std::string file = kernel("fences/write_read_xy.cu");
  const auto warp = run_fencelab("run --warp simt " + file);
  CHECK(warp.exit_code == 2);
  CHECK(contains(warp.output, "--warp: 'simt' is not one of its, lockstep"));
  const auto interpreter = run_fencelab("explore --interpreter jit " + file);
  CHECK(interpreter.exit_code == 2);
  CHECK(contains(interpreter.output, "--interpreter: 'jit' is not one of ast, bytecode, fibers"));
  const auto reduction = run_fencelab("check --reduction sleep " + file);
  CHECK(reduction.exit_code == 2);
  CHECK(contains(reduction.output, "--reduction: 'sleep' is not one of dpor, none"));
  // The names still choose: lockstep lanes deadlock on a warp's own spin lock (its independent
  // threads complete).
  const std::string spin_lock = kernel("warps/intra_warp_spin_lock.cu");
  CHECK(contains(run_fencelab("explore --warp lockstep " + spin_lock, false).output, "can never progress"));
  CHECK_FALSE(contains(run_fencelab("explore --warp its " + spin_lock, false).output, "can never progress"));
}

TEST_CASE("a failed expectation exits 1 with a witness", "[cli]") {
  const auto path = write_temp("fails.cu", R"(//@ launch grid=1 block=2
//@ observe x
//@ expect sc: always x == 2
__device__ int x = 0;
__global__ void k() { int v = x; x = v + 1; }
)");
  const auto r = run_fencelab("explore --model sc " + path);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.output, "FAILS"));
  CHECK(contains(r.output, "violated by: x=1"));
}

TEST_CASE("bad input exits 2 with file:line:col and a caret", "[cli]") {
  const auto path = write_temp("bad.cu", "//@ launch grid=1 block=1\n__global__ void k() { undefined_name = 1; }\n");
  const auto r = run_fencelab("explore " + path);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, path + ":2:23: error: unknown identifier 'undefined_name'"));
  CHECK(contains(r.output, "^"));
  CHECK(run_fencelab("explore /nonexistent/file.cu").exit_code == 2);
  CHECK(run_fencelab("explore --model nonsense " + kernel("fences/write_read_xy.cu")).exit_code == 2);
  CHECK(run_fencelab("frobnicate").exit_code == 2);
  CHECK(run_fencelab("replay " + kernel("fences/write_read_xy.cu") + " not-a-token").exit_code == 2);
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
  const auto r = run_fencelab("run " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.output.starts_with(path + ":8:31: error: macro expansion produces more than 1000000 tokens (limit of the "
                                    "preprocessor); stopped expanding 'G' here\n"));
  CHECK(r.output.size() < 1000);

  std::string observe = "//@ launch grid=1 block=1\n//@ observe";
  for (int i = 0; i < 10000; ++i) observe += " x";
  const auto line = write_temp("long_line.cu", observe + "\n__device__ int x;\n__global__ void k() { x = 1; }\n");
  const auto l = run_fencelab("run " + line);
  CHECK(l.exit_code == 2);
  CHECK(contains(l.output, line + ":2:15: error: 'x' is observed twice\n"));
  CHECK(contains(l.output, line + ": 9949 more errors not shown (at most 50 errors are printed)\n"));
  CHECK(l.output.size() < 100 * 1024);
}

TEST_CASE("run prints its seed and the same seed gives the same histogram", "[cli]") {
  const auto a = run_fencelab("run --runs 2000 --seed 11 " + kernel("fences/write_read_xy.cu"), false);
  const auto b = run_fencelab("run --runs 2000 --seed 11 " + kernel("fences/write_read_xy.cu"), false);
  CHECK(a.exit_code == 1); // its `exactly` expectations stay unproven under random executions
  CHECK(contains(a.output, "(seed 11)"));
  CHECK(a.output == b.output);
  const auto unseeded = run_fencelab("run --runs 10 " + kernel("fences/write_read_xy.cu"));
  CHECK(contains(unseeded.output, "random executions (seed "));
}

TEST_CASE("run --jobs and check --jobs give the same report for any number of jobs", "[cli][jobs]") {
  // 3 chunks of runs (random_search.cpp): each job takes whole chunks, merged in order.
  const std::string racy = kernel("barriers/barrier_synchronization_demo.cu");
  const auto one = run_fencelab("run --json --runs 10000 --seed 4 --jobs 1 --model gpu " + racy, false);
  const auto three = run_fencelab("run --json --runs 10000 --seed 4 --jobs 3 --model gpu " + racy, false);
  CHECK(contains(one.output, R"("kind":"data-race")"));
  CHECK(contains(one.output, R"("executions":10000)"));
  CHECK(one.output == three.output);
  // A search of one chunk is the one made before --jobs existed: chunk 0 draws from the seed.
  const auto small = run_fencelab("run --json --runs 2000 --seed 4 --jobs 1 --model gpu " + racy, false);
  const auto small_jobs = run_fencelab("run --json --runs 2000 --seed 4 --jobs 4 --model gpu " + racy, false);
  CHECK(small.output == small_jobs.output);

  const auto checked_one = run_fencelab("check --max-executions 5 --runs 9000 --jobs 1 " + racy, false);
  const auto checked_two = run_fencelab("check --max-executions 5 --runs 9000 --jobs 2 " + racy, false);
  CHECK(contains(checked_one.output, "9000 random executions"));
  CHECK(checked_one.output == checked_two.output);

  CHECK(run_fencelab("run --jobs 0 " + racy).exit_code == 2);
}

TEST_CASE("tokens too long for a report go to files with --witness-dir, which replay and explain read with --token-file",
          "[cli][replay]") {
  // 2 x 64 threads in random order: a token of hundreds of decisions.
  const std::string grid = std::string(FENCELAB_SOURCE_DIR) + "/tools/bench/large_grid.cu --grid 2 --block 64";
  const std::string dir = "/tmp/fencelab_" + std::to_string(::getpid()) + "_witnesses";
  std::filesystem::remove_all(dir);
  // --model and -D take one argument each, never the kernel file after them.
  const auto cut = run_fencelab("run --runs 1 --seed 3 --model sc " + grid);
  CHECK(contains(cut.output, "--json prints it whole, --witness-dir saves it)"));
  CHECK(run_fencelab("run --runs 1 --model sc -D UNUSED " + grid).exit_code == 1); // out[131071] is past the grid

  const auto saved = run_fencelab("run --runs 1 --seed 3 --model sc --witness-dir " + dir + " " + grid);
  INFO(saved.output);
  const size_t at = saved.output.find("whole in " + dir + "/witness-");
  REQUIRE(at != std::string::npos);
  const std::string file = saved.output.substr(at + 9, saved.output.find(':', at + 9) - (at + 9));
  const auto outcome_line = saved.output.substr(saved.output.find("out[0]="), 22);
  const auto replayed = run_fencelab("replay --model sc " + grid + " --token-file " + file);
  CHECK(replayed.exit_code == 0);
  CHECK(contains(replayed.output, outcome_line));
  const auto explained = run_fencelab("explain " + grid + " --token-file " + file);
  CHECK(explained.exit_code == 0);
  CHECK(contains(explained.output, " under sc (sc:"));
  CHECK(contains(explained.output, "(from " + file + ")"));

  // The token, or its file: one of them.
  CHECK(run_fencelab("replay " + grid + " --token-file " + dir + "/none.token").exit_code == 2);
  CHECK(contains(run_fencelab("replay " + grid).output, "no replay token: give one, or --token-file FILE"));
  CHECK(run_fencelab("replay " + grid + " sc:0 --token-file " + file).exit_code == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("replay --trace shows each step and the outcome", "[cli][replay]") {
  const std::string token = witness_for(kernel("fences/write_read_xy.cu"), "A=10 B=2", "sc");
  const auto r = run_fencelab("replay --trace " + kernel("fences/write_read_xy.cu") + " " + token);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "store  X = 10"));
  CHECK(contains(r.output, "load   Y -> 2"));
  CHECK(contains(r.output, "outcome: A=10 B=2"));
}

TEST_CASE("JSON output (--json) carries the schema version and outcomes", "[cli][json]") {
  const auto r = run_fencelab("explore --json " + kernel("fences/write_read_xy.cu"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, R"("schema":1)"));
  CHECK(contains(r.output, R"("values":{"A":1,"B":2})"));
  CHECK(contains(r.output, R"("complete":true)"));
  CHECK(contains(r.output, R"("verdict":"holds")"));
}

TEST_CASE("list shows the catalogue", "[cli]") {
  const auto r = run_fencelab("list " + std::string(FENCELAB_SOURCE_DIR) + "/kernels");
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "fences/write_read_xy.cu"));
}

TEST_CASE("explore --model sc,tso,gpu prints one table and marks gpu-only outcomes", "[cli][models]") {
  const auto r = run_fencelab("explore --model sc,tso,gpu " + kernel("fences/write_read_xy.cu"));
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

TEST_CASE("explain names the cycle's shape and the fences that forbid it, and what sc allows as allowed",
          "[cli][explain]") {
  const std::string file = kernel("fences/write_read_xy.cu");
  const auto r = run_fencelab("explain " + file + " " + witness_for(file, "A=1 B=20"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.output, "outcome A=1 B=20 under gpu ("));
  CHECK(contains(r.output, "Sequential consistency forbids this outcome: the execution has the cycle po, rf, po, fr"));
  CHECK(contains(r.output, "it is the shape of message passing (MP)"));
  CHECK(contains(r.output, "block 0's thread 1 read Y=20 (line 37) and then X=1 (line 38)"));
  // The fix: a fence between the writer's stores and one between the reader's loads.
  CHECK(contains(r.output, "a fence in block 0's thread 0 between its two stores (after line 31, before line 32)"));
  CHECK(contains(r.output, "a fence in block 0's thread 1 between its two loads (after line 37, before line 38)"));
  CHECK(contains(r.output, "__threadfence_block() suffices"));
  CHECK(!contains(r.output, "store buffering"));
  // An outcome of an interleaving: allowed by sc, no fence offered.
  const auto allowed = run_fencelab("explain " + file + " " + witness_for(file, "A=1 B=2"));
  CHECK(allowed.exit_code == 0);
  CHECK(contains(allowed.output, "Sequential consistency allows this outcome: it comes from an interleaving of the "
                                 "threads, and no fence can remove it."));
  CHECK(!contains(allowed.output, "forbid"));
  // Block-scope fences between blocks: too narrow a scope.
  const std::string scoped = kernel("litmus/mp_block_fences_inter.cu");
  const auto s = run_fencelab("explain " + scoped + " " + witness_for(scoped, "r0=1 r1=0"));
  CHECK(contains(s.output, "too narrow a scope"));
  CHECK(contains(s.output, "it takes __threadfence() (device scope)"));
}

TEST_CASE("run and explore print the checkers' findings, --no-check turns them off", "[cli][checkers]") {
  const auto explored = run_fencelab("explore --model sc " + kernel("fences/write_read_xy.cu"));
  CHECK(explored.exit_code == 0);
  CHECK(explored.output.find("diagnostics (fencelab check shows each with its source lines):\n"
                             "  error    data race (WAR) on Y [data-race], lines 32, 37; 3 of 3 executions;") !=
        std::string::npos);
  CHECK(explored.output.find("holds    line 25: expect all: diagnostic data-race") != std::string::npos);

  const auto unchecked = run_fencelab("run --model sc --runs 50 --seed 1 --no-check " + kernel("fences/write_read_xy.cu"));
  CHECK(unchecked.output.find("diagnostics") == std::string::npos);
  CHECK(unchecked.output.find("the checkers did not run") != std::string::npos);

  const auto json = run_fencelab("run --model sc --runs 50 --seed 1 --json " + kernel("races/race_condition_demo.cu"), false);
  CHECK(json.output.find("\"diagnostics\":[{\"kind\":\"data-race\",\"severity\":\"error\"") != std::string::npos);
}

// --- Ending a search early: --time-limit, Ctrl-C, SIGTERM (issue 11) -------------------------

namespace {

const char* kCounter = R"(//@ launch grid=1 block=2
//@ observe count
__device__ int count = 0;
__global__ void k() { atomicAdd(&count, 1); }
)";

/** The value of `"key":"..."` of the last outcome in a JSON report. */
std::string last_witness(const std::string& json) {
  const std::string key = "\"witness\":\"";
  const size_t begin = json.rfind(key) + key.size();
  return json.substr(begin, json.find('"', begin) - begin);
}

} // namespace

TEST_CASE("the --grid and --block options replace the launch directive's shape, and the reports say so", "[cli][shape]") {
  const auto path = write_temp("counter.cu", kCounter);
  const auto as_written = run_fencelab("explore --model sc " + path);
  CHECK(contains(as_written.output, "kernel k, grid (1,1,1) block (2,1,1)\n"));
  CHECK(contains(as_written.output, "count=2 "));

  const auto scaled = run_fencelab("explore --model sc --grid 3 --block 2 " + path);
  INFO(scaled.output);
  CHECK(scaled.exit_code == 0);
  CHECK(contains(scaled.output, "kernel k, grid (3,1,1) block (2,1,1) (from --grid --block)\n"));
  CHECK(contains(scaled.output, "count=6 "));
  CHECK(contains(run_fencelab("run --model sc --runs 5 --block 1,2,3 " + path).output, "count=6 "));
  CHECK(contains(run_fencelab("explore --model sc --block 2,2 " + path).output, "grid (1,1,1) block (2,2,1) (from --block)"));

  const auto json = run_fencelab("explore --json --model sc --grid 2 " + path, false);
  CHECK(contains(json.output, R"("grid":[2,1,1],"block":[2,1,1],"shape_overrides":["--grid"])"));
  CHECK(contains(run_fencelab("explore --json --model sc " + path, false).output, R"("shape_overrides":[])"));

  const auto checked = run_fencelab("check --grid 2 " + path);
  CHECK(contains(checked.output, "under gpu, grid (2,1,1) block (2,1,1) (from --grid); exhaustive search with partial-order reduction, complete: all "));

  // A witness found under --grid replays under the same --grid, and is refused without it.
  const std::string token = last_witness(json.output);
  const auto replayed = run_fencelab("replay --grid 2 " + path + " " + token);
  CHECK(replayed.exit_code == 0);
  CHECK(contains(replayed.output, "count=4"));
  CHECK(contains(run_fencelab("replay --trace --grid 2 " + path + " " + token).output,
                 "of " + path + ", grid (2,1,1) block (2,1,1) (from --grid)"));
  CHECK(run_fencelab("replay " + path + " " + token).exit_code == 2);

  // The CUDA backend launches the shape given.
  CHECK(contains(run_fencelab("gpu --emit-cuda --block 2 " + kernel("litmus/sb_inter.cu")).output,
                 "__c.bdim = dim3(2u, 1u, 1u);"));
}

TEST_CASE("a bad --grid or --block is a usage error (exit 2) in every command", "[cli][shape]") {
  const auto path = write_temp("counter.cu", kCounter);
  for (const char* command : {"run", "explore", "check", "gpu", "compare", "replay", "explain"}) {
    const std::string token = std::string(command) == "replay" || std::string(command) == "explain" ? " sc:0" : "";
    const auto r = run_fencelab(std::string(command) + " --grid 0 " + path + token);
    INFO(command << ": " << r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "--grid: '0' is not a launch shape: give X or X,Y,Z, each a whole number from 1 to "
                             "2147483647"));
  }
  for (const char* bad : {"x", "2,", "1,2,3,4", ",1", "1.5", "4294967297"}) {
    INFO(bad);
    CHECK(run_fencelab("explore --block '" + std::string(bad) + "' " + path).exit_code == 2);
  }
  const auto too_big = run_fencelab("explore --block 33,33 " + path);
  CHECK(too_big.exit_code == 2);
  CHECK(contains(too_big.output, "--block: a block has at most 1024 threads, not 1089 (33,33)"));
}

// --- Which search a verdict rests on: check and compare (issue 11) ---------------------------

TEST_CASE("compare: only a complete search says the gpu model forbids (skips without a GPU)", "[cli][compare]") {
  // One execution of the gpu model's search reaches one outcome; the GPU shows more. (The
  // verdicts themselves are tested without a GPU in explore_tests.cpp, "model_verdict".)
  const auto cut = run_fencelab("compare --max-executions 1 --launches 4 " + kernel("litmus/mp_inter.cu"));
  INFO(cut.output);
  if (cut.exit_code == 4 && (contains(cut.output, "no CUDA") || contains(cut.output, "without the CUDA backend"))) {
    WARN("skipped: no GPU here");
    return;
  }
  CHECK(cut.exit_code == 1); // a search cut short proves nothing: inconclusive
  CHECK(contains(cut.output, "gpu: 1 executions (search cut short: --max-executions;"));
  CHECK(contains(cut.output, "not reached (search cut short)"));
  CHECK_FALSE(contains(cut.output, "forbids:"));
  CHECK_FALSE(contains(cut.output, "<- gpu model forbids"));
  const auto full = run_fencelab("compare --launches 4 " + kernel("litmus/mp_inter.cu"));
  CHECK(contains(full.output, "gpu: 80 executions (exhaustive, complete)"));
  CHECK_FALSE(contains(full.output, "not reached"));
}

TEST_CASE("a file with host code, run with --kernel and -D", "[cli][frontend]") {
  const std::string file = write_temp("host_code.cu", R"(#include <cstdio>
#include <vector>
#define CUDA_CHECK(call) do { if ((call) != cudaSuccess) { printf("%s failed\n", #call); return 1; } } while (0)
#ifndef SCALE
#define SCALE 1
#endif
//@ launch grid=1 block=2
//@ observe out
__device__ int out[2];
__global__ void first() { out[threadIdx.x] = SCALE; }
__global__ void second() { out[threadIdx.x] = SCALE * 10 + threadIdx.x; }
int main() {
  std::vector<int> host(2);
  second<<<1, 2>>>();
  CUDA_CHECK(cudaDeviceSynchronize());
  return 0;
}
)");
  const auto several = run_fencelab("run " + file);
  CHECK(several.exit_code == 2);
  CHECK(contains(several.output, "choose one with //@ kernel NAME or --kernel NAME"));
  const auto second = run_fencelab("run --kernel second -D SCALE=3 " + file);
  INFO(second.output);
  CHECK(second.exit_code == 0);
  CHECK(contains(second.output, "note: host code skipped (1 declaration: main()): only device code runs here"));
  CHECK(contains(second.output, "out[0]=30 out[1]=31"));
  const auto first = run_fencelab("explore --kernel first " + file);
  CHECK(contains(first.output, "out[0]=1 out[1]=1"));
  const auto bad = run_fencelab("run --kernel first -D 1X " + file);
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.output, "'1X' is not a macro name"));
}

