// The command line's controls over a long search: --time-limit, Ctrl-C and SIGTERM, the progress
// line on a terminal, and check's report of which search it used when its budget ran out.
#include "process_helpers.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <pty.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using ::fencelab::testing::argv_of;
using ::fencelab::testing::fencelab_signalled;
using ::fencelab::testing::ProcessResult;
using ::fencelab::testing::read_all;
using ::fencelab::testing::run_fencelab;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/** What fencelab writes to stderr when stderr is a terminal (a pseudo-terminal here); stdout
 *  goes to /dev/null. */
std::string stderr_on_terminal(std::vector<std::string> arguments) {
  int master = -1;
  std::vector<char*> argv = argv_of(arguments);
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  std::string out = read_all(master); // ends with EIO once the child has exited
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
#if defined(FENCELAB_SANITIZED)
  // The sanitizers' own warnings ("==PID==WARNING: ...", e.g. about swapcontext) share stderr.
  for (size_t at = out.find("=="); at != std::string::npos; at = out.find("==", at)) {
    const size_t end = out.find('\n', at);
    out.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
  }
#endif
  return out;
}

/** A kernel whose exhaustive search takes days, even reduced (six threads' atomics on one
 *  location, whose results they use, are all dependent: 18!/(3!)^6 orders): the searches below
 *  end only when stopped. */
std::string long_search() {
  return ::fencelab::testing::write_temp_file(
      "cli_long_search.cu", "//@ launch grid=1 block=6\n//@ expect sc,gpu: always x == 18\n"
                            "//@ observe x\n__device__ int x;\n"
                            "__global__ void k() { for (int i = 0; i < 3; ++i) { int r = atomicAdd(&x, 1); } }\n");
}

const char* kNoExecutionLimit = "--max-executions 1000000000";

} // namespace

TEST_CASE("the --time-limit option ends explore, run and check with the partial report", "[cli][control]") {
  const auto start = std::chrono::steady_clock::now();
  const auto explored = run_fencelab("explore --time-limit 1 " + std::string(kNoExecutionLimit) + " " + long_search());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  INFO(explored.output);
  CHECK(explored.exit_code == 1); // as for any search cut short: the expectations are unproven
  CHECK(contains(explored.output, "(search not complete, stopped: time limit of 1 s reached (--time-limit); not "
                                  "every execution was explored"));
  CHECK(contains(explored.output, "x=18"));
  CHECK(contains(explored.output, "unproven line 2: expect sc,gpu: always x == 18"));

  const auto run = run_fencelab("run --runs 1000000000 --seed 5 --time-limit 1 " + long_search());
  CHECK(run.exit_code == 1);
  CHECK(contains(run.output, "random executions (seed 5; stopped: time limit of 1 s reached (--time-limit))"));

  const auto checked = run_fencelab("check --time-limit 1 " + std::string(kNoExecutionLimit) + " " + long_search());
  CHECK(checked.exit_code == 1);
  CHECK(contains(checked.output, "; exhaustive search with partial-order reduction, not complete (stopped: time limit of 1 s reached "
                                 "(--time-limit)): "));
  CHECK(contains(checked.output, "no reports"));

  const auto json = run_fencelab("explore --json --time-limit 0.5 " + std::string(kNoExecutionLimit) + " " + long_search());
  CHECK(contains(json.output, R"x("complete":false,"stopped_because":"time limit of 0.5 s reached (--time-limit)")x"));

  for (const char* bad : {"0", "-1", "soon"})
    CHECK(run_fencelab("explore --time-limit " + std::string(bad) + " " + long_search()).exit_code == 2);
}

TEST_CASE("Ctrl-C and SIGTERM end a search with the report so far", "[cli][control]") {
  using namespace std::chrono_literals;
  const auto interrupted = fencelab_signalled({"explore", "--model", "sc,gpu", "--max-executions", "1000000000",
                                               long_search()},
                                              SIGINT, 1000ms);
  INFO(interrupted.output);
  CHECK(interrupted.exit_code == 130); // Ctrl-C: as shells expect, after the partial report
  CHECK(contains(interrupted.output, "  sc: "));
  CHECK(contains(interrupted.output, " executions (cut short, stopped: interrupted)"));
  // A Ctrl-C stops the search running and every later one of the command.
  CHECK(contains(interrupted.output, "  gpu: 0 executions (cut short, stopped: interrupted)"));
  CHECK(contains(interrupted.output, "x=18"));
  CHECK(contains(interrupted.output, "expectations under sc:"));

  const auto terminated =
      fencelab_signalled({"explore", "--max-executions", "1000000000", long_search()}, SIGTERM, 1000ms);
  CHECK(terminated.exit_code == 1); // SIGTERM: a search cut short
  CHECK(contains(terminated.output, "(search not complete, stopped: interrupted (SIGTERM); "));
  CHECK(contains(terminated.output, "x=18"));

  const auto checked =
      fencelab_signalled({"check", "--max-executions", "1000000000", long_search()}, SIGINT, 1000ms);
  CHECK(checked.exit_code == 130);
  CHECK(contains(checked.output, "; exhaustive search with partial-order reduction, not complete (stopped: interrupted): "));
  CHECK(contains(checked.output, "summary: 0 errors, 0 warnings"));
}

TEST_CASE("the progress line shows on a terminal only, refreshed in place and erased", "[cli][progress]") {
  const std::string shown =
      stderr_on_terminal({"explore", "--time-limit", "3", "--max-executions", "1000000000", long_search()});
  INFO(shown);
  CHECK(contains(shown, "\rexplore under gpu: "));
  CHECK(contains(shown, " executions, "));
  CHECK(contains(shown, "/s, depth "));
  // Not before a second has passed, then at most four times a second: at most 9 updates from
  // 1.0 s to the 3 s limit, and (with room for a slow, loaded machine, as under the
  // sanitizers) at least 2.
  size_t lines = 0;
  for (size_t at = shown.find("executions, "); at != std::string::npos; at = shown.find("executions, ", at + 1))
    ++lines;
  CHECK(lines >= 2);
  CHECK(lines <= 9);
  REQUIRE(!shown.empty());
  CHECK(shown.back() == '\r'); // erased: blanks over the line, back to its start
  CHECK(shown.find('\n') == std::string::npos);

  CHECK(stderr_on_terminal({"explore", "--quiet", "--time-limit", "1.5", long_search()}).empty());
  const auto piped = run_fencelab("explore --time-limit 1.5 " + long_search()); // stderr into a pipe
  CHECK(piped.output.find('\r') == std::string::npos);
}

// --- Launch shape from the command line: --grid, --block (issue 11) ---------------------------

TEST_CASE("check says which search it used", "[cli][check]") {
  const std::string write_read_xy = std::string(FENCELAB_SOURCE_DIR) + "/kernels/fences/write_read_xy.cu";
  const auto exhaustive = run_fencelab("check " + write_read_xy);
  CHECK(contains(exhaustive.output, "grid (1,1,1) block (2,1,1); exhaustive search with partial-order reduction, "
                                    "complete: all 13 executions\n"));
  const auto every_order = run_fencelab("check --reduction none " + write_read_xy);
  CHECK(contains(every_order.output, "grid (1,1,1) block (2,1,1); exhaustive search, complete: all 80 executions\n"));

  const auto sampled = run_fencelab("check --max-executions 100 --runs 50 " + long_search());
  CHECK(contains(sampled.output, "; random search: 50 executions (seed 1), as the exhaustive search was cut short "
                                 "at 100 executions (--max-executions)\n"));
  const auto json = run_fencelab("check --json --max-executions 100 --runs 50 " + long_search(), false);
  CHECK(contains(json.output, R"("mode":"random","seed":1,"complete":false,"exhaustive_cut_short_at":100)"));

  // An execution too long for the reduction to analyse: sampled, not "0 executions, no
  // reports" (before, check printed that, and missed the race on out[0]).
  const std::string too_long = ::fencelab::testing::write_temp_file("cli_too_long_for_dpor.cu", R"(//@ launch grid=1 block=1024
__device__ int out[1024];
__global__ void k() {
  for (int i = 0; i < 40; ++i) out[threadIdx.x] = i;
  out[0] = threadIdx.x;
}
)");
  const auto gave_up = run_fencelab("check --model sc --runs 20 " + too_long, false);
  INFO(gave_up.output);
  CHECK(contains(gave_up.output, "; random search: 20 executions (seed 1), as the exhaustive search stopped: an "
                                 "execution of over "));
  CHECK(contains(gave_up.output, "is too long for the partial-order reduction"));
  CHECK(contains(gave_up.output, "error: data race (WAW) on out[0] [data-race]"));
  const auto gave_up_json = run_fencelab("check --json --model sc --runs 20 " + too_long, false);
  CHECK(contains(gave_up_json.output, R"("mode":"random","seed":1,"complete":false,"exhaustive_stopped_because":"an )"
                                      R"(execution of over )"));
}
