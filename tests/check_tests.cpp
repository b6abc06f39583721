// The checkers on the catalogue: every `diagnostic` expectation a kernel carries is reported,
// with a witness that reproduces it, and every kernel marked `no diagnostics` gets no report.
#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/search_verdict.h"
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"
#include "program_generator.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** What `fencelab check` does, on a smaller budget: exhaustive when small, random otherwise. */
ExplorationResult check(Machine& machine, MemoryModel& model, Checkers& checkers) {
  return explore_checked(machine, model, checkers, CheckBudget{sweep_budget(machine.program(), 4000), 400, 1});
}

bool about_diagnostics(const Expectation& e) {
  return e.kind == ExpectationKind::Diagnostic || e.kind == ExpectationKind::NoDiagnostics;
}

/** The kinds of what `check` reports on a small kernel under sc, sorted; its search completes. */
std::vector<std::string> reported_kinds(const std::string& text) {
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  auto model = create_model("sc");
  const ExplorationResult r = check(*k.machine, *model, checkers);
  REQUIRE(r.complete);
  std::vector<std::string> out;
  for (const auto& report : r.reports) out.push_back(diagnostic_kind_name(report.report.kind));
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("every catalogue kernel states what the checkers find in it", "[checkers][catalogue]") {
  // Each kernel says either which diagnostics it shows or `no diagnostics` (it is correct), so
  // that a kernel cannot leave the checks below by saying nothing.
  for (const std::string& file : catalogue_files()) {
    Kernel k = kernel_from_file(file);
    INFO(file);
    CHECK(std::any_of(k.program().expectations.begin(), k.program().expectations.end(), about_diagnostics));
  }
}

TEST_CASE("every catalogue kernel's diagnostic expectations hold: the bugs are reported with a witness "
          "that reproduces them, and correct kernels get no report",
          "[checkers][catalogue]") {
  size_t reported = 0, clean = 0;
  for (const std::string& file : catalogue_files()) {
    for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
      MachineOptions options;
      options.warp = warp;
      Kernel k = kernel_from_file(file, options);
      const Program& program = k.program();
      Checkers checkers(program);
      for (const char* model_name : kModelNames) {
        const std::string mode = mode_name(model_name, warp);
        const auto applies = [&](const Expectation& e) {
          return about_diagnostics(e) && std::find(e.models.begin(), e.models.end(), mode) != e.models.end();
        };
        if (std::none_of(program.expectations.begin(), program.expectations.end(), applies)) continue;
        auto model = create_model(model_name);
        const ExplorationResult r = check(*k.machine, *model, checkers);
        {
          // Every error the checkers report is one the file announces, so the kernel's own
          // commands exit 0 where their search completes (README "Exit codes").
          const SearchVerdict verdict = judge_search(program, r, check_expectations(program, r));
          INFO(file << " under " << mode << ": " << verdict.describe());
          CHECK(std::none_of(verdict.findings.begin(), verdict.findings.end(), [](const std::string& finding) {
            return finding.find("that no //@ expect announces") != std::string::npos;
          }));
        }
        for (const ExpectationResult& e : check_expectations(program, r)) {
          if (!applies(*e.expectation)) continue;
          INFO(file << " under " << mode << ": " << e.expectation->text << " -> " << e.detail);
          if (e.expectation->kind == ExpectationKind::NoDiagnostics) {
            CHECK(r.reports.empty());
            CHECK(e.verdict != Verdict::Fails);
            ++clean;
            continue;
          }
          REQUIRE(e.verdict == Verdict::Holds);
          ++reported;
          // Replaying the witness with the checkers on shows the same report again.
          ReplayError error;
          REQUIRE(replay(*k.machine, *model, *e.witness, &checkers, error));
          const auto again = checkers.execution_reports();
          CHECK(std::any_of(again.begin(), again.end(), [&](const CheckReport& report) {
            return e.expectation->diagnostic_kind == diagnostic_kind_name(report.kind);
          }));
        }
      }
    }
  }
  // Floors at the catalogue's present size, so that expectations cannot silently stop being checked.
  CHECK(reported >= 60 * 3);
  CHECK(clean >= 25 * 3);
}

TEST_CASE("barrier divergence groups the threads by branch", "[checkers]") {
  Kernel k = kernel_from_file(catalogue_path("barriers/incorrect_barrier_example.cu"));
  Checkers checkers(k.program());
  auto model = create_model("gpu");
  const ExplorationResult r = check(*k.machine, *model, checkers);
  REQUIRE(r.reports.size() == 1);
  const CheckReport& report = r.reports.front().report;
  CHECK(report.kind == DiagnosticKind::BarrierDivergence);
  REQUIRE(report.sites.size() == 2);
  CHECK(report.sites[0].threads == "(0,0,0), (0,0,2)");
  CHECK(report.sites[1].threads == "(0,0,1), (0,0,3)");
}

TEST_CASE("block fences between blocks are a scoped race, device fences and an atomic flag are none",
          "[checkers][scoped]") {
  for (const char* model_name : kModelNames) {
    Kernel narrow = kernel_from_file(catalogue_path("races/mp_block_fences_atomic_flag.cu"));
    Checkers narrow_checkers(narrow.program());
    auto model = create_model(model_name);
    const ExplorationResult bad = check(*narrow.machine, *model, narrow_checkers);
    REQUIRE(bad.reports.size() == 1);
    CHECK(bad.reports.front().report.kind == DiagnosticKind::ScopedRace);
    CHECK(bad.reports.front().report.message == "scoped race (RAW) on data: the fences' scope does not include both threads");

    Kernel wide = kernel_from_file(catalogue_path("races/mp_device_fences_atomic_flag.cu"));
    Checkers wide_checkers(wide.program());
    const ExplorationResult good = check(*wide.machine, *model, wide_checkers);
    CHECK(good.complete);
    CHECK(good.reports.empty());
  }
}

TEST_CASE("a chain of atomicAdds passes every block's release on: the fence-counter barrier is no race",
          "[checkers][release-sequence]") {
  // Each block writes, fences and bumps the counter; then spins until every block has and
  // fences. A block may read the count from another block's atomicAdd, which read from a third
  // block's: the atomics continue the third block's release sequence, so its write happens
  // before the read (PTX ISA, Memory Consistency Model, release patterns). Without the
  // writer's fence nothing is released, and the race is reported.
  const std::string barrier = R"(
//@ launch grid=3 block=1
//@ arg data: int[3] = zeros
//@ arg out: int[3] = zeros
__device__ volatile unsigned count;
__global__ void k(int* data, int* out) {
  data[blockIdx.x] = blockIdx.x + 1;
  WRITER_FENCE;
  atomicAdd((unsigned*)&count, 1u);
  while (count < gridDim.x) {}
  __threadfence();
  out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}
)";
  for (const auto& [fence, expect_race] : {std::pair{"__threadfence()", false}, std::pair{"(void)0", true}}) {
    Kernel k = kernel_from_text(std::string("#define WRITER_FENCE ") + fence + "\n" + barrier);
    Checkers checkers(k.program());
    auto model = create_model("gpu");
    CheckBudget budget;
    budget.max_executions = 2'000;
    budget.runs = 500;
    const ExplorationResult r = explore_checked(*k.machine, *model, checkers, budget);
    INFO(fence);
    REQUIRE(r.reports.size() == (expect_race ? 1u : 0u));
    if (expect_race) CHECK(r.reports.front().report.kind == DiagnosticKind::DataRace);
  }
}

TEST_CASE("atomicAdd_block from two blocks is a scoped race, atomicAdd is none", "[checkers][scoped]") {
  const char* text = R"(
//@ launch grid=2 block=1
__device__ int counter = 0;
__global__ void k() { ADD(&counter, 1); }
)";
  for (const auto& [op, expect_race] : {std::pair{"atomicAdd_block", true}, std::pair{"atomicAdd", false}}) {
    std::string source = std::string("#define ADD ") + op + "\n" + text;
    Kernel k = kernel_from_text(source);
    Checkers checkers(k.program());
    auto model = create_model("gpu");
    const ExplorationResult r = check(*k.machine, *model, checkers);
    INFO(op);
    CHECK(r.reports.size() == (expect_race ? 1u : 0u));
    if (expect_race) CHECK(r.reports.front().report.kind == DiagnosticKind::ScopedRace);
  }
}

namespace {

/** What `runs` random executions (seed `seed`) of the kernel in `text` under `model_name` give,
 *  race detection required on: the kinds of the reports, and the outcomes. */
struct RandomFindings {
  std::set<std::string> kinds;
  std::set<std::string> outcomes;
};

RandomFindings random_findings(const std::string& text, const char* model_name, uint64_t runs, uint64_t seed) {
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  REQUIRE(checkers.races_checked());
  auto model = create_model(model_name);
  const ExplorationResult r = explore_random(*k.machine, *model, RandomOptions{runs, seed, 0.5, &checkers});
  RandomFindings out;
  for (const auto& report : r.reports) out.kinds.insert(diagnostic_kind_name(report.report.kind));
  out.outcomes = outcome_strings(k.program(), r);
  return out;
}

} // namespace

// Issue 12: races at every grid size (race detection used to stop at 4,096 threads). 64 blocks
// of 128 threads: each block's tree sum is ordered by its barriers, and the last block's thread
// 0 reads block 0's sum without synchronization; with a device fence and a flag the read is
// ordered, a block fence is too narrow.
TEST_CASE("races are found in a grid of 8,192 threads: barrier-ordered blocks, a missing fence, a scoped one",
          "[checkers][large]") {
  auto kinds = [](const char* fence) {
    const std::string text = std::string("#define FENCE ") + fence + R"(
//@ launch grid=64 block=128
__device__ int sums[64];
__device__ volatile int ready;
__global__ void k() {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    sums[blockIdx.x] = s[0];
    if (blockIdx.x == 0) { FENCE; ready = 1; }
    if (blockIdx.x == 63 && ready == 1) { FENCE; s[0] = sums[0]; }
  }
}
)";
    // Random schedules: block 0 sets the flag before block 63 reads it in some of them.
    return random_findings(text, "sc", 15, 5).kinds;
  };
  CHECK(kinds("(void)0") == std::set<std::string>{"data-race"});
  CHECK(kinds("__threadfence()").empty());
  CHECK(kinds("__threadfence_block()") == std::set<std::string>{"scoped-race"});
}

// A block barrier's joined clocks are kept once for its block, and its participants note only
// the barrier (RaceDetector::on_block_barrier); a thread that fences first takes a copy of
// them, which its release then carries. Block 0's thread 1 writes y[0] before the barrier;
// after it, block 0's thread 0 fences and sets the flag, and block 1's thread 0, having read
// the flag, fences and reads y[0]: ordered (write -> barrier -> fence -> flag -> fence ->
// read), so no race; without the fences, a data race. A release made from the thread's own
// (empty) clocks would lose thread 1's write and report a race that is not there. With a
// __syncwarp after the barrier too (a warp barrier: its participants copy the block's clocks
// and join as before). Small grids keep states by thread, more than 4,096 threads by block.
TEST_CASE("a block barrier's clocks pass through a fence's release to another block", "[checkers][large]") {
  const char* launch = GENERATE("//@ launch grid=2 block=64", "//@ launch grid=80 block=64");
  const char* warp = GENERATE("(void)0", "__syncwarp()");
  auto kinds = [&](const char* fence) {
    const std::string text = fmt::format("#define FENCE {}\n#define WARP {}\n{}\n", fence, warp, launch) + R"(
__device__ int y[80];
__device__ int out[80];
__device__ volatile int ready;
__global__ void k() {
  if (threadIdx.x == 1) y[blockIdx.x] = 7;
  __syncthreads();
  WARP;
  if (blockIdx.x == 0 && threadIdx.x == 0) { FENCE; ready = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0 && ready == 1) { FENCE; out[1] = y[0]; }
}
)";
    return random_findings(text, "sc", 40, 3).kinds;
  };
  INFO(launch << ", " << warp);
  CHECK(kinds("__threadfence()").empty());
  CHECK(kinds("(void)0") == std::set<std::string>{"data-race"});
}

// A grid of more than 4,096 threads in many small blocks: the detector kept the states of
// started threads in a hash map and a pointer to the last one asked for, which a barrier's
// making room for its participants left dangling (a use after free that valgrind showed in
// barrier_intra relaunched as 80 blocks of 64; under ASan this test fails on it). Each block's
// thread 32 reads what its thread 0 wrote before the barrier: no race; without the barrier, one.
// Blocks of 64 threads, and of 96: a size that is not a power of two splits a
// thread's index by division, a power of two by shift and mask (split_thread_index).
TEST_CASE("race detection in a grid of many small blocks: barriers order, their absence races",
          "[checkers][large]") {
  const char* launch = GENERATE("//@ launch grid=80 block=64", "//@ launch grid=80 block=96");
  auto findings = [launch](const char* barrier) {
    const std::string text = std::string("#define BARRIER ") + barrier + "\n" + launch + R"(
//@ observe r[0] r[79]
__device__ int x[80];
__device__ int r[80];
__global__ void k() {
  if (threadIdx.x == 0) x[blockIdx.x] = 1;
  BARRIER;
  if (threadIdx.x == 32) r[blockIdx.x] = x[blockIdx.x];
}
)";
    return random_findings(text, "gpu", 20, 7);
  };
  // With the barrier every execution gives each block's thread 32 the 1 its thread 0 wrote.
  const RandomFindings ordered = findings("__syncthreads()");
  CHECK(ordered.kinds.empty());
  CHECK(ordered.outcomes == std::set<std::string>{"r[0]=1 r[79]=1"});
  // Without it the read may come first; nothing else is possible.
  const RandomFindings racy = findings("(void)0");
  CHECK(racy.kinds == std::set<std::string>{"data-race"});
  const std::set<std::string> possible{"r[0]=0 r[79]=0", "r[0]=0 r[79]=1", "r[0]=1 r[79]=0", "r[0]=1 r[79]=1"};
  CHECK(!racy.outcomes.empty());
  CHECK(std::includes(possible.begin(), possible.end(), racy.outcomes.begin(), racy.outcomes.end()));
}

// Issue 13: every thread setting a flag to the same value is a lesser finding. Issue 68 E: graded
// by the values the stores wrote, not by how the source spells them (finding_grade_tests.cpp
// has the `c[i] = 2` / `two` / `src[t] + 1` family).
TEST_CASE("two stores of the same value race as a same-value-race warning, of different values as a data race",
          "[checkers]") {
  auto kinds = [](const char* body) {
    return reported_kinds(std::string("//@ launch grid=1 block=2\n__device__ int x;\n__global__ void k() { ") + body +
                          " }\n");
  };
  CHECK(kinds("x = 1;") == std::vector<std::string>{"same-value-race"});
  CHECK(kinds("x = -1.0f;") == std::vector<std::string>{"same-value-race"});
  CHECK(kinds("x = 1 + (int)threadIdx.x * 0;") == std::vector<std::string>{"same-value-race"}); // 1 either way
  CHECK(kinds("x = threadIdx.x + 1;") == std::vector<std::string>{"data-race"});
  // A load and a store race whatever the values; the two stores write 0 and 1, or (when thread 1
  // added first) 1 and 1: that execution's store pair is a same-value race of its own.
  CHECK(kinds("x += threadIdx.x;") == std::vector<std::string>{"data-race", "same-value-race"});
}

TEST_CASE("reads of uninitialized shared memory are reported", "[checkers]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
__global__ void k(int* out) {
  __shared__ int s[2];
  out[threadIdx.x] = s[threadIdx.x];
}
)");
  Checkers checkers(k.program());
  auto model = create_model("sc");
  const ExplorationResult r = check(*k.machine, *model, checkers);
  REQUIRE(!r.reports.empty());
  CHECK(r.reports.front().report.kind == DiagnosticKind::UninitializedRead);
  CHECK(r.reports.front().report.message.rfind("read of uninitialized s[", 0) == 0);
}

TEST_CASE("a buffer behind a const parameter is read unchecked only while no cast can make it writable",
          "[checkers]") {
  // The race detector skips the reads of a buffer that only a `const int*` parameter reaches
  // (nothing can write it, so no read of it can race). A cast that drops the const makes it
  // writable: then the same reads are checked again, and the write below races with them.
  const auto reports = [](const std::string& write, const char* init) {
    return reported_kinds(std::string("//@ launch grid=1 block=2\n//@ arg in: int[2] = ") + init +
                          "\n//@ arg out: int[2] = zeros\n"
                          "__global__ void k(const int* in, int* out) {\n"
                          "  out[threadIdx.x] = in[0];\n  " + write + "\n}\n");
  };
  CHECK(reports("", "iota").empty());
  CHECK(reports("if (threadIdx.x == 1) ((int*)in)[0] = 5;", "iota") == std::vector<std::string>{"data-race"});
  CHECK(reports("if (threadIdx.x == 1) ((int*)(void*)in)[0] = 5;", "iota") ==
        std::vector<std::string>{"data-race"});
  // A cast that keeps the const changes nothing.
  CHECK(reports("const int* again = (const int*)in; out[threadIdx.x] += again[1];", "iota").empty());
  // An uninitialized one is still watched, for its uninitialized reads.
  CHECK(reports("", "uninit") == std::vector<std::string>{"uninitialized-read"});
}

TEST_CASE("generated kernels with a const input: read-only buffers report what tracking every access reports",
          "[checkers][generated]") {
  // The reference tracks the read-only buffer's accesses as any other's. Half of the kernels
  // also write `in` through a cast that drops the const; there the detector must track it,
  // and its reads race with those writes.
  const uint64_t count = kSanitizedBuild ? 16 : 120;
  MachineOptions options;
  options.max_local_steps = 100'000;
  const auto reports = [](Kernel& k, const char* model_name, CheckerOptions checker_options) {
    Checkers checkers(k.program(), checker_options);
    auto model = create_model(model_name);
    const ExplorationResult r = explore_checked(*k.machine, *model, checkers, CheckBudget{150, 60, 1});
    std::string text = fmt::format("{} executions, complete {}\n", r.executions, r.complete);
    for (const ReportCount& found : r.reports) {
      text += fmt::format("{} in {} executions: {}, witness {}\n", diagnostic_kind_name(found.report.kind),
                          found.executions, found.report.message, found.report.witness.encode());
      for (const ReportSite& site : found.report.sites)
        text += fmt::format("  {} at {}-{} by {}\n", site.role, site.range.begin, site.range.end, site.threads);
    }
    return text;
  };
  size_t races_on_in = 0, unchecked = 0;
  for (uint64_t seed = 10'400'000; seed < 10'400'000 + count; ++seed) {
    const std::string text = ProgramGenerator(seed, seed % 2 == 0).with_const_input().kernel();
    Kernel k = kernel_from_text(text, options);
    INFO("program generator seed " << seed << "\n" << text);
    if (!k.program().unit.casts_away_const) ++unchecked;
    for (const char* model : {"sc", "gpu"}) {
      INFO("model " << model);
      const std::string fast = reports(k, model, {});
      CHECK(fast == reports(k, model, CheckerOptions{.track_read_only_buffers = true}));
      if (fast.find(" on in[") != std::string::npos) ++races_on_in;
    }
  }
  // Both kinds of kernel were met, and the casts' writes raced with reads.
  CHECK(unchecked >= count / 4);
  CHECK(unchecked <= count - count / 4);
  CHECK(races_on_in > 0);
}

TEST_CASE("a resident block spinning on a block that can never become resident is a deadlock",
          "[checkers][residency]") {
  // The kernel's launch says resident=2 for a grid of 4: blocks 0 and 1 spin until all four
  // arrive, and blocks 2 and 3 wait for a slot that never frees.
  for (const char* model_name : kModelNames) {
    INFO(model_name);
    Kernel limited = kernel_from_file(catalogue_path("interblock/grid_barrier_oversubscribed.cu"));
    CHECK(limited.machine->resident_block_limit() == 2);
    Checkers checkers(limited.program());
    auto model = create_model(model_name);
    const ExplorationResult r = check(*limited.machine, *model, checkers);
    CHECK(r.complete);
    REQUIRE(r.reports.size() == 1);
    const CheckReport& report = r.reports.front().report;
    CHECK(report.kind == DiagnosticKind::Deadlock);
    CHECK(report.message == "deadlock: no thread can make progress; the resident blocks wait for blocks that can "
                            "never become resident (at most 2 resident at once)");
    REQUIRE(report.sites.size() == 2);
    CHECK(report.sites[0].threads == "(0,0,0), (1,0,0)");
    CHECK(report.sites[1].role == "never resident");
    CHECK(report.sites[1].threads == "blocks 2-3");

    // With room for the whole grid the same kernel completes, and nothing is reported.
    MachineOptions roomy;
    roomy.resident_blocks = 4;
    Kernel whole = kernel_from_file(catalogue_path("interblock/grid_barrier_oversubscribed.cu"), roomy);
    Checkers whole_checkers(whole.program());
    const ExplorationResult ok = check(*whole.machine, *model, whole_checkers); // random: 4 spinners
    CHECK(ok.reports.empty());
    REQUIRE(ok.outcomes.size() == 1);
    CHECK(ok.outcomes.front().outcome.status == ExecutionStatus::Completed);
  }
}
