// Findings that do not depend on how the code is spelt (issue 68 E): a long finite loop stopped
// by a limit is a step limit, not a livelock; a livelock is a loop whose state repeats; a
// same-value race is graded by the values the two stores wrote, not by the source text.
#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/** OLCF's grid-stride sum at its own N = 2^23 (each thread reads every 64th element), over a
 *  small launch: 131,072 loads a thread, 8.4 million in all, far past any small --max-steps and
 *  past the default limit (1,000 a thread, at least 1,000,000). It ends; it is no livelock. */
const char* const kGridStrideSum = R"(//@ launch grid=2 block=32
//@ arg data: int[8388608] = 1
//@ arg sums: int[64] = zeros
//@ arg n = 8388608
//@ observe sums[0]
__global__ void grid_stride_sum(int* data, int* sums, int n) {
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += data[i];
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
)";

/** The kinds of the reports one random execution under sc gives, in the order found. */
std::vector<std::string> kinds_of_one_execution(const std::string& text, MachineOptions options = {}) {
  Kernel k = kernel_from_text(text, options);
  Checkers checkers(k.program());
  auto model = create_model("sc");
  RandomOptions random;
  random.runs = 1;
  random.checkers = &checkers;
  const ExplorationResult r = explore_random(*k.machine, *model, random);
  std::vector<std::string> kinds;
  for (const ReportCount& report : r.reports) kinds.push_back(diagnostic_kind_name(report.report.kind));
  return kinds;
}

/** What `check` reports, exhaustively (the kernels below are small): each report's kind and
 *  message, sorted. */
std::vector<std::string> checked_reports(const std::string& text) {
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  auto model = create_model("gpu");
  const ExplorationResult r = explore_checked(*k.machine, *model, checkers, CheckBudget{});
  REQUIRE(r.complete);
  std::vector<std::string> out;
  for (const ReportCount& report : r.reports)
    out.push_back(std::string(diagnostic_kind_name(report.report.kind)) + ": " + report.report.message);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("check of a 2^23-element grid-stride loop past --max-steps says step limit, not livelock",
          "[checkers][limits][cli]") {
  const std::string file = write_temp_file("grid_stride_sum.cu", kGridStrideSum);
  const ProcessResult r = run_fencelab("check --max-steps 5000 --max-executions 2 --runs 1 " + file);
  INFO(r.output);
  CHECK(r.exit_code == 1); // the search proved nothing about those executions
  CHECK(contains(r.output, "warning: step limit: stopped after 5000 events, the --max-steps limit: the execution "
                           "needs more events or never ends; raise --max-steps to let it run further [step-limit]"));
  CHECK(!contains(r.output, "livelock"));
  CHECK(contains(r.output, "summary: 0 errors, 1 warning (1 step-limit)"));
  CHECK(contains(r.output, "result: inconclusive: "));
  CHECK(contains(r.output, "1 execution stopped before finishing (step limit: stopped after 5000 events"));
  // With room for every event it completes: 131,072 ones in each thread's sum.
  MachineOptions room;
  room.max_steps = 9'000'000;
  Kernel k = kernel_from_text(kGridStrideSum, room);
  auto model = create_model("sc");
  RandomOptions once;
  once.runs = 1;
  const ExplorationResult done = explore_random(*k.machine, *model, once);
  CHECK(outcome_strings(k.program(), done) == std::set<std::string>{"sums[0]=131072"});
}

TEST_CASE("check of the 2^23-element grid-stride loop at the default step limit says step limit",
          "[.slow][checkers][limits][cli]") {
  // Hidden (run with "[.slow]"): one execution of a million events.
  const std::string file = write_temp_file("grid_stride_sum_default.cu", kGridStrideSum);
  const ProcessResult r = run_fencelab("check --max-executions 1 --runs 1 " + file);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.output, "warning: step limit: stopped after 1000000 events, the default step limit"));
  CHECK(!contains(r.output, "livelock"));
}

TEST_CASE("a step limit is the step-limit kind, and a loop whose state repeats is a livelock at its line",
          "[checkers][limits]") {
  // A finite store loop longer than --max-steps: a limit.
  MachineOptions small;
  small.max_steps = 200;
  CHECK(kinds_of_one_execution("__device__ int x;\n__global__ void k() { for (int i = 0; i < 1000; i++) x = i; }\n",
                               small) == std::vector<std::string>{"step-limit"});
  // Loops that can never end: the local state repeats, or a barrier round repeats the last.
  for (const char* loop : {"__global__ void k() { int i = 0; for (;;) i = (i + 1) % 7; }\n",
                           "__global__ void k() { while (1) __syncthreads(); }\n"}) {
    INFO(loop);
    Kernel k = kernel_from_text(loop);
    Checkers checkers(k.program());
    auto model = create_model("gpu");
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{100, &checkers});
    REQUIRE(r.outcomes.size() == 1);
    CHECK(r.outcomes[0].outcome.status == ExecutionStatus::Livelock);
    CHECK(r.outcomes[0].outcome.to_string(k.program()).starts_with("livelock: "));
    REQUIRE(r.reports.size() == 1);
    const CheckReport& report = r.reports[0].report;
    CHECK(report.kind == DiagnosticKind::Livelock);
    REQUIRE(report.sites.size() == 1);
    CHECK(report.sites[0].role == "loops");
    CHECK(k.program().source->position(report.sites[0].range.begin).line == 1);
  }
}

TEST_CASE("an expectation may not name step-limit", "[frontend][limits]") {
  auto c = compile_text("//@ expect all: diagnostic step-limit\n__global__ void k() {}\n");
  CHECK(c->program == nullptr);
  CHECK(contains(c->rendered(), "'step-limit' cannot be expected: an execution stopped at a limit proves nothing"));
  auto unknown = compile_text("//@ expect all: diagnostic stepping\n__global__ void k() {}\n");
  CHECK(!contains(unknown->rendered(), "step-limit"));
}

TEST_CASE("a same-value race is graded by the values stored, however the source spells them", "[checkers][races]") {
  // Both threads store 2 into c[0]: as a literal, through a local, and computed from memory.
  const std::string head = "//@ launch grid=1 block=2\n//@ arg c: int[2] = zeros\n//@ arg src: int[2] = 1\n"
                           "//@ arg two = 2\n"
                           "__global__ void k(int* c, int* src, int two) {\n  int t = threadIdx.x;\n  ";
  const std::string same = "same-value-race: data race (WAW) on c[0]: both stores write the same value, so no outcome "
                           "depends on their order; under the PTX memory model it is still a data race";
  for (const char* store : {"c[t / 2] = 2;", "c[t / 2] = two;", "int local = 2; c[t / 2] = local;",
                            "c[t / 2] = src[t] + 1;", "c[t / 2] = 1 + t * 0 + 1;"}) {
    INFO(store);
    CHECK(checked_reports(head + store + "\n}\n") == std::vector<std::string>{same});
  }
  // Different values: a data race, whether spelt as literals or computed.
  for (const char* store : {"c[t / 2] = t == 0 ? 2 : 3;", "c[t / 2] = src[t] + t;"}) {
    INFO(store);
    CHECK(checked_reports(head + store + "\n}\n") == std::vector<std::string>{"data-race: data race (WAW) on c[0]"});
  }
}

TEST_CASE("check grades c[i] = 2, c[i] = two and c[i] = src[t] + 1 alike on the command line", "[checkers][races][cli]") {
  std::vector<std::string> summaries;
  for (const char* store : {"c[t / 2] = 2;", "c[t / 2] = two;", "c[t / 2] = src[t] + 1;"}) {
    const std::string file = write_temp_file(
        "same_value_grade.cu", std::string("//@ launch grid=1 block=2\n//@ arg c: int[2] = zeros\n//@ arg src: int[2] = 1\n"
                                           "//@ arg two = 2\n__global__ void k(int* c, int* src, int two) {\n"
                                           "  int t = threadIdx.x;\n  ") +
                                   store + "\n}\n");
    const ProcessResult r = run_fencelab("check " + file);
    INFO(r.output);
    CHECK(r.exit_code == 0); // a warning fails nothing
    CHECK(contains(r.output, "warning: data race (WAW) on c[0]: both stores write the same value"));
    const size_t at = r.output.find("summary: ");
    REQUIRE(at != std::string::npos);
    summaries.push_back(r.output.substr(at, r.output.find('\n', at) - at));
  }
  CHECK(summaries == std::vector<std::string>(3, "summary: 0 errors, 1 warning (1 same-value-race)"));
}
