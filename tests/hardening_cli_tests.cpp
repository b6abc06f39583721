// Regression tests for issue 68 F, the black-box mutation campaign's causes: each input that
// crashed fencelab, or would not stop, run through the program as the campaign ran it. Inputs
// that ran long are stopped by SIGTERM after a second: each must end within 10 s of it, with an
// exit code of 0-2 and a message saying why.
#include "process_helpers.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using ::fencelab::testing::ProcessResult;
using ::fencelab::testing::run_fencelab;
using ::fencelab::testing::run_fencelab_signalled;
using ::fencelab::testing::SignalledResult;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string kernel_file(const std::string& name, const std::string& text) {
  return ::fencelab::testing::write_temp_file("hardening_f_" + name + ".cu", text);
}

/** Sends SIGTERM after a second; checks the command ended soon after, as the table says
 *  (0-2), with `message` in its output. */
void check_stops_on_sigterm(const std::vector<std::string>& arguments, const std::string& message) {
  const SignalledResult r = run_fencelab_signalled(arguments, SIGTERM, 1.0);
  INFO(r.process.output);
  CHECK(r.seconds_after_signal < 10);
  CHECK(r.process.exit_code >= 0);
  CHECK(r.process.exit_code <= 2);
  CHECK(contains(r.process.output, message));
}

/** A barrier loop whose counter changes every round: never a repeat, so it runs to
 *  --max-barrier-rounds (10,000,000 by default: hours under explore before the fix). */
const char* kCountingBarrierLoop = "__global__ void k() { for (int i = 0;; ++i) __syncthreads(); }\n";

} // namespace

TEST_CASE("F: printf's '*' without its argument is the call's runtime error, in every command",
          "[hardening][printf]") {
  // Was a SIGSEGV: the '*' reached snprintf with no int for it.
  for (const char* format : {"%*s", "%.*s", "%*d"}) {
    INFO(format);
    const std::string kernel = kernel_file("star", std::string("__global__ void k() { printf(\"") + format + "\"); }\n");
    for (const char* command : {"run --runs 3 --seed 1", "explore", "check", "replay"}) {
      INFO(command);
      const bool replaying = std::string(command) == "replay";
      const ProcessResult r = run_fencelab(std::string(command) + " " + kernel + (replaying ? " gpu:" : ""));
      INFO(r.output);
      CHECK(r.exit_code == 1);
      CHECK(contains(r.output, "printf: format needs an argument for '*'"));
    }
  }
  // %n stores through its argument: not a conversion the device printf has.
  const ProcessResult n = run_fencelab("run --runs 1 " +
                                       kernel_file("n", "__device__ int x;\n__global__ void k() { printf(\"%*n\", 1, x); }\n"));
  INFO(n.output);
  CHECK(n.exit_code == 1);
  CHECK(contains(n.output, "printf: '%*n' is not supported"));
}

TEST_CASE("F: printf's '*' takes an int, as C's printf does", "[hardening][printf]") {
  const std::string kernel =
      kernel_file("star_ok", "__global__ void k() { printf(\"[%*d][%-*d][%.*s][%*s]\\n\", 4, 7, 3, 5, 2, \"xyz\", -3, \"a\"); }\n");
  const ProcessResult r = run_fencelab("replay --trace " + kernel + " gpu:");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  // A negative '*' width is the '-' flag (C11 7.21.6.1p5).
  CHECK(contains(r.output, "[   7][5  ][xy][a  ]"));
}

TEST_CASE("F: a huge printf width is clamped with a warning, and the call takes no time", "[hardening][printf]") {
  // Padded 2 GB for 6 s a call, deaf to SIGTERM and --time-limit.
  const std::string kernel =
      kernel_file("wide", "__global__ void k() { printf(\"%*d|\\n\", 2147483647, 1); printf(\"%99999999999d|\\n\", 2); }\n");
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = run_fencelab("check " + kernel);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  INFO(r.output.substr(0, 2000));
  CHECK(r.exit_code == 0); // a warning only
  CHECK(contains(r.output, "warning: printf: a field width of 2147483647 is more than fencelab formats: clamped to 4096 "
                           "[printf-clamped]"));
  const ProcessResult replayed = run_fencelab("replay --trace " + kernel + " gpu:");
  CHECK(contains(replayed.output, std::string(4095, ' ') + "1|"));
  CHECK(contains(replayed.output, std::string(4095, ' ') + "2|"));
}

TEST_CASE("F: a long barrier loop under explore and check stops on SIGTERM", "[hardening][barrier][signal]") {
  const std::string kernel = kernel_file("barrier_loop", kCountingBarrierLoop);
  check_stops_on_sigterm({"explore", kernel}, "interrupted (SIGTERM)");
  check_stops_on_sigterm({"check", kernel}, "interrupted (SIGTERM)");
  check_stops_on_sigterm({"run", "--runs", "1000000", kernel}, "interrupted (SIGTERM)");
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult limited = run_fencelab("explore --time-limit 1 " + kernel);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK(contains(limited.output, "time limit of 1 s reached (--time-limit)"));
}

TEST_CASE("F: the hardening tests' barrier loops stop on SIGTERM under explore", "[hardening][barrier][signal]") {
  // tests/hardening_tests.cpp runs these with 5,000 rounds; at the default 10,000,000 an
  // exhaustive search of each took hours.
  const char* loops[] = {
      "__global__ void k() { int t = 0; while (1) { t = 1 - t; __syncthreads(); } }\n",
      "//@ launch grid=1 block=4\n__device__ int x;\n"
      "__global__ void k() { while (1) { if (threadIdx.x == 2) x = 1; __syncthreads(); } }\n",
  };
  for (const char* text : loops) {
    INFO(text);
    check_stops_on_sigterm({"explore", "--model", "sc,gpu", kernel_file("loop", text)}, "interrupted (SIGTERM)");
  }
}

TEST_CASE("F: the reduction's time grows linearly with a barrier loop's rounds", "[hardening][barrier]") {
  // Each release walked back over the releases before it (DporChoices::trigger_of): 40,000
  // rounds took 2.7 s, so 200,000 would take over a minute; now about a second.
  const std::string kernel = kernel_file("linear", kCountingBarrierLoop);
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = run_fencelab("explore --max-barrier-rounds 200000 " + kernel);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(15));
  INFO(r.output);
  CHECK(contains(r.output, "stopped after 200000 barrier rounds (--max-barrier-rounds)"));
}

TEST_CASE("F: a grid whose threads end as they are admitted stops on SIGTERM", "[hardening][grid][signal]") {
  // The admissions ran inside settle(), which never asked for the interrupt: 4 minutes.
  const std::string kernel = kernel_file("empty_grid", "//@ launch grid=2147483647 block=1\n__global__ void k() {}\n");
  check_stops_on_sigterm({"run", "--runs", "1", kernel}, "interrupted (SIGTERM)");
  check_stops_on_sigterm({"explore", kernel}, "interrupted (SIGTERM)");
}

TEST_CASE("F: --grid and --block have the limits //@ launch has", "[hardening][grid][cli]") {
  const std::string kernel = kernel_file("shape", "__global__ void k() {}\n");
  const struct {
    const char* option;
    const char* message;
  } cases[] = {
      {"--grid 65535,65535,65535", "fencelab simulates grids of at most 4294967295 blocks, not 281462092005375"},
      {"--grid 1,65536,1", "a grid's y and z dimensions are at most 65535"},
      {"--block 1,1,65", "a block is at most 1024 x 1024 x 64 threads"},
  };
  for (const auto& c : cases) {
    INFO(c.option);
    const ProcessResult r = run_fencelab(std::string("run --runs 1 ") + c.option + " " + kernel);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, c.message));
  }
}

TEST_CASE("F: a token longer than any execution could use is bad input, not bad_alloc", "[hardening][token]") {
  const std::string kernel = kernel_file("token", "//@ launch grid=1 block=2\n__device__ int x;\n"
                                                  "__global__ void k() { x = threadIdx.x; }\n");
  for (const char* command : {"replay", "explain", "draw --timeline"}) {
    INFO(command);
    const ProcessResult r = run_fencelab(std::string(command) + " " + kernel + " sc:0[4294967295]");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, "token too long: it has more than "));
  }
  // Read without bound, then exit 3.
  const ProcessResult zero = run_fencelab("replay " + kernel + " --token-file /dev/zero");
  INFO(zero.output);
  CHECK(zero.exit_code == 2);
  CHECK(contains(zero.output, "bad replay token file '/dev/zero': token too long: more than 268435456 bytes"));
}

TEST_CASE("F: several models in one command do not run out of fiber stacks", "[hardening][memory]") {
#if defined(FENCELAB_SANITIZED)
  SUCCEED("AddressSanitizer reserves more address space than the limit this test sets");
#else
  // Threads on fibers (a warp operation keeps the kernel off the stackless path), under a 4 GB
  // address-space limit: sc's search kept its stacks mapped, and tso's first execution threw
  // bad_alloc (exit 3). Each search now starts with the stacks given back; what does not fit
  // is the execution's runtime error, named.
  const std::string kernel = kernel_file("stacks", "//@ launch grid=65535 block=4\n__global__ void k() { __syncwarp(0xf); }\n");
  for (const char* command : {"run --runs 2 --seed 1 --model sc,tso", "explore --model sc,tso"}) {
    INFO(command);
    const ProcessResult r =
        ::fencelab::testing::run_process("ulimit -v 4000000; " + std::string(FENCELAB_BINARY) + " " + command + " " + kernel);
    INFO(r.output);
    CHECK((r.exit_code == 0 || r.exit_code == 1));
    CHECK(!contains(r.output, "internal error"));
    CHECK(contains(r.output, "under tso"));
  }
#endif
}

TEST_CASE("F: a long barrier loop's timeline is drawn cut, and stops on SIGTERM", "[hardening][draw][signal]") {
  const std::string kernel = kernel_file("timeline", kCountingBarrierLoop);
  // 20,000 rounds of two threads: 40,000 arrivals; the picture keeps the first 1,000 events.
  const ProcessResult cut =
      run_fencelab("draw --timeline --max-barrier-rounds 20000 --max-trace-events 1000 -o /dev/null " + kernel);
  INFO(cut.output);
  CHECK(cut.exit_code == 0);
  CHECK(contains(cut.output, "only its first 1000 are shown, the rest are left out (--max-trace-events 1000 limits "
                             "them: raise it to see more)"));
  check_stops_on_sigterm({"draw", "--timeline", "-o", "/dev/null", kernel}, "interrupted (SIGTERM)");
  const std::string directory = ::fencelab::testing::write_temp_file("svg_dir_marker", "") + "_svg";
  check_stops_on_sigterm({"check", "--svg", directory, kernel}, "interrupted (SIGTERM)");
  std::remove((directory + "/gpu-finding-1-livelock-timeline.svg").c_str());
  std::remove(directory.c_str());
}

TEST_CASE("F: report and draw stop on SIGTERM and --time-limit with what they have", "[hardening][report][signal]") {
  const std::string kernel = kernel_file("report", kCountingBarrierLoop);
  const std::string page = ::fencelab::testing::write_temp_file("report_page.html", "");
  check_stops_on_sigterm({"report", kernel, "-o", page}, "wrote " + page);
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult limited = run_fencelab("report --time-limit 1 " + kernel + " -o " + page);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20)); // three models, a second each
  INFO(limited.output);
  CHECK(contains(limited.output, "time limit of 1 s reached (--time-limit)"));
  CHECK(contains(limited.output, "wrote " + page));
  const ProcessResult drawn = run_fencelab("draw --graph --time-limit 1 -o /dev/null " + kernel);
  INFO(drawn.output);
  CHECK(drawn.exit_code == 1);
  CHECK(contains(drawn.output, "no execution to draw: the search stopped (time limit of 1 s reached (--time-limit))"));
}

TEST_CASE("F: --witness-dir, --seed, --bias and other numbers are checked", "[hardening][cli]") {
  const std::string kernel = kernel_file("options", "__global__ void k() {}\n");
  const struct {
    std::string options;
    const char* message;
  } cases[] = {
      {"--witness-dir /nonexistent-fencelab-parent/witnesses", "does not exist, nor does its parent directory"},
      {"--seed 18446744073709551616", "18446744073709551616 is out of range: at most 18446744073709551615"},
      {"--seed -1", "'-1' is not a whole number"},
      {"--runs 99999999999999999999", "is out of range"},
      {"--max-steps 0x10", "'0x10' is not a whole number"},
      {"--bias nan", "nan is not a finite number"},
      {"--bias inf", "inf is not a finite number"},
      {"--bias -0.5", "-0.5 is out of range: from 0 to 1"},
      {"--time-limit nan", "nan is not a finite number"},
  };
  for (const auto& c : cases) {
    INFO(c.options);
    const ProcessResult r = run_fencelab("run " + c.options + " " + kernel);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.output, c.message));
  }
  // A leading zero is decimal, not octal: seed 010 is seed 10.
  CHECK(contains(run_fencelab("run --runs 1 --seed 010 " + kernel).output, "seed 10"));
  // One missing level is made; the directory exists afterwards.
  const std::string parent = ::fencelab::testing::write_temp_file("witness_parent_marker", "") + "_dir";
  const ProcessResult made = run_fencelab("check --svg " + parent + " " + kernel);
  INFO(made.output);
  CHECK(made.exit_code == 0);
  CHECK(std::remove(parent.c_str()) == 0);
}
