// The Machine: runtime errors with locations, livelock, limits, residency, observation rules.
#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/report/report.h"
#include "machine_helpers.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <sys/wait.h>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** Explores a kernel exhaustively under sc and returns its only outcome. */
OutcomeCount only_outcome(const std::string& text, MachineOptions options = {}) {
  Kernel k = kernel_from_text(text, options);
  auto model = create_model("sc");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000});
  REQUIRE(r.outcomes.size() == 1);
  return r.outcomes.front();
}

/** One random execution's outcome under sc: for executions too long to keep for the
 *  exhaustive search's analysis. */
OutcomeCount one_random_outcome(const std::string& text) {
  Kernel k = kernel_from_text(text);
  auto model = create_model("sc");
  const ExplorationResult r = explore_random(*k.machine, *model, RandomOptions{1, 1});
  REQUIRE(r.outcomes.size() == 1);
  return r.outcomes.front();
}

} // namespace

TEST_CASE("an out-of-bounds write is a runtime error at its source location", "[machine][errors]") {
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=1
//@ arg a: int[4] = zeros
__global__ void k(int* a) {
  for (int i = 0; i <= 4; i++) a[i] = i;
}
)");
  CHECK(o.outcome.status == ExecutionStatus::RuntimeError);
  REQUIRE(o.error);
  CHECK(o.error->diagnostic.message == "out-of-bounds write: 'a'[4], which has 4 elements in thread (0,0,0)");
  CHECK(o.error->diagnostic.range.begin > 0);
}

TEST_CASE("division by zero, null pointers and misaligned accesses are runtime errors", "[machine][errors]") {
  CHECK(only_outcome(R"(
//@ launch grid=1 block=1
__device__ int x = 0;
__global__ void k() { int z = x; x = 10 / z; }
)").outcome.message == "integer division by zero");
  CHECK(only_outcome(R"(
//@ launch grid=1 block=1
__device__ int x;
__global__ void k() { int* p = 0; x = *p; }
)").outcome.message == "read through a null pointer");
  CHECK(only_outcome(R"(
//@ launch grid=1 block=1
//@ arg a: int[4] = zeros
__global__ void k(int* a) { char* c = (char*)a; int* q = (int*)(c + 2); *q = 1; }
)").outcome.message == "misaligned 4-byte write of 'a' at byte offset 2");
  CHECK(only_outcome(R"(
//@ launch grid=1 block=1
//@ arg a: int[4] = zeros
__global__ void k(int* a) { char* c = (char*)a; *c = 1; }
)").outcome.message == "not supported: 1-byte write of 'a', whose elements are 4-byte int");
}

TEST_CASE("threads spinning on memory nobody will change end in a deadlock", "[machine][deadlock]") {
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=2
__device__ volatile int flag = 0;
__global__ void k() { while (flag == 0) { } }
)");
  CHECK(o.outcome.status == ExecutionStatus::Deadlock);
  CHECK(o.outcome.message == "2 thread(s) can never progress: (0,0,0) at line 4 spins re-reading flag; "
                             "(0,0,1) at line 4 spins re-reading flag");
}

// A read where no function on the call stack loops takes no spin snapshot
// (Machine::Impl::read_may_repeat); one in a helper without a loop, called from a loop, must.
TEST_CASE("a spin through a helper called from a loop is recognised", "[machine][deadlock]") {
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=2
__device__ volatile int flag = 0;
__device__ int read_flag() { return flag; }
__global__ void k() { while (read_flag() == 0) { } }
)");
  CHECK(o.outcome.status == ExecutionStatus::Deadlock);
  CHECK(o.outcome.message == "2 thread(s) can never progress: (0,0,0) at line 4 spins re-reading flag; "
                             "(0,0,1) at line 4 spins re-reading flag");
}

// The kernel's own frame is left out of spin snapshots (it is the bottom of every state of the
// thread): a loop in a helper, above a kernel without one, must still be found.
TEST_CASE("a spin loop in a helper called from a kernel without a loop is recognised", "[machine][deadlock]") {
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=2
__device__ volatile int flag = 0;
__device__ void wait_for_flag() { while (flag == 0) { } }
__global__ void k() { wait_for_flag(); }
)");
  CHECK(o.outcome.status == ExecutionStatus::Deadlock);
  CHECK(o.outcome.message == "2 thread(s) can never progress: (0,0,0) at line 4 spins re-reading flag; "
                             "(0,0,1) at line 4 spins re-reading flag");
}

TEST_CASE("a spin loop that another thread ends explores to completion", "[machine][deadlock]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=2 block=1
//@ observe data
__device__ volatile int flag = 0;
__device__ int data = 0;
__global__ void k() {
  if (blockIdx.x == 0) { data = 42; flag = 1; }
  else { while (flag == 0) { } data = data + 1; }
}
)");
  auto model = create_model("sc");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, {});
  CHECK(r.complete);
  CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"data=43"});
}

TEST_CASE("a loop without visible events is stopped by the local step limit", "[machine][limits]") {
  MachineOptions options;
  options.max_local_steps = 10000;
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=1
__global__ void k() { int i = 0; while (true) { i++; } }
)", options);
  CHECK(o.outcome.status == ExecutionStatus::StepLimit);
}

TEST_CASE("an execution longer than --max-steps is stopped", "[machine][limits]") {
  MachineOptions options;
  options.max_steps = 100;
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=1
__device__ int x;
__global__ void k() { for (int i = 0; i < 1000; i++) x = i; }
)", options);
  CHECK(o.outcome.status == ExecutionStatus::StepLimit);
}

TEST_CASE("the step limit's message says which limit stopped the execution", "[machine][limits]") {
  const char* kernel = R"(
//@ launch grid=1 block=1
__device__ int x;
__global__ void k() { for (int i = 0; i < 2000000; i++) x = i; }
)";
  MachineOptions given;
  given.max_steps = 100;
  const OutcomeCount explicit_limit = only_outcome(kernel, given);
  CHECK(explicit_limit.outcome.message.find("the --max-steps limit") != std::string::npos);
  // Not given: 1,000 per thread of the launch, at least 1,000,000.
  const OutcomeCount default_limit = one_random_outcome(kernel);
  CHECK(default_limit.outcome.status == ExecutionStatus::StepLimit);
  CHECK(default_limit.outcome.message.find("stopped after 1000000 events, the default step limit") == 0);
}

TEST_CASE("the default step limit scales with the launch", "[machine][limits]") {
  // 2,048 threads each storing 600 times: 1,228,800 events, past the old fixed 1,000,000 but
  // within 1,000 per thread.
  const OutcomeCount o = one_random_outcome(R"(
//@ launch grid=8 block=256
//@ arg out: int[2048] = zeros
__global__ void k(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int n = 0; n < 600; n++) out[i] = n;
}
)");
  CHECK(o.outcome.status == ExecutionStatus::Completed);
}

namespace {

// 2,048 resident threads (prefetching starts at 1,024): a tree reduction whose barrier releases
// and block admissions resume threads in bulk, and whose random picks the Machine predicts to
// prefetch the next threads (ChoiceSource::predict) and the checkers' state for them
// (EventObserver::prefetch_thread). The read of a neighbour's element before the first barrier
// races with its store (and may come before it), so the checkers report.
const char* const kRacyLargeReduction = R"(
//@ launch grid=16 block=256 resident=8
//@ arg in: int[4096] = iota
//@ arg out: int[16] = zeros
//@ observe out[0] out[15]
__global__ void k(const int* in, int* out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  int early = s[(tid + 1) % 256];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
)";

/** The same seeds give the same random executions of `text`, event for event, with the same
 *  witnesses and reports, under the Machine options `a` and `b`. */
void check_same_random_executions(const std::string& text, const MachineOptions& a_options,
                                  const MachineOptions& b_options) {
  for (const char* model_name : {"sc", "gpu"}) {
    INFO(model_name);
    Kernel with = kernel_from_text(text, a_options);
    Kernel without = kernel_from_text(text, b_options);
    auto model = create_model(model_name);
    Checkers checkers_with(with.program()), checkers_without(without.program());
    RandomOptions options{3, 11};
    options.checkers = &checkers_with;
    const ExplorationResult a = explore_random(*with.machine, *model, options);
    options.checkers = &checkers_without;
    const ExplorationResult b = explore_random(*without.machine, *model, options);
    REQUIRE(a.outcomes.size() == b.outcomes.size());
    CHECK(outcome_strings(with.program(), a) == std::set<std::string>{"out[0]=32640 out[15]=1015680"});
    CHECK(a.events == b.events);
    for (size_t i = 0; i < a.outcomes.size(); ++i) {
      CHECK(a.outcomes[i].executions == b.outcomes[i].executions);
      CHECK(a.outcomes[i].witness.encode() == b.outcomes[i].witness.encode());
    }
    CHECK(std::any_of(a.reports.begin(), a.reports.end(),
                      [](const ReportCount& r) { return r.report.kind == DiagnosticKind::DataRace; }));
    REQUIRE(a.reports.size() == b.reports.size());
    for (size_t i = 0; i < a.reports.size(); ++i) {
      CHECK(a.reports[i].report.identity() == b.reports[i].report.identity());
      CHECK(a.reports[i].executions == b.reports[i].executions);
      CHECK(a.reports[i].report.witness.encode() == b.reports[i].report.witness.encode());
    }
  }
}

} // namespace

TEST_CASE("prefetching resumptions changes no execution", "[machine][residency]") {
  // With threads on fibers (whose stacks are prefetched) and stackless.
  for (const Engine engine : {Engine::BytecodeOnFibers, Engine::Bytecode}) {
    MachineOptions on, off;
    on.engine = off.engine = engine;
    off.prefetch_resumptions = false;
    check_same_random_executions(kRacyLargeReduction, on, off);
  }
}

namespace {

/** Records every event it is sent, but asks for no barrier arrivals (as the checkers do). */
class RecorderWithoutArrivals final : public EventObserver {
public:
  void on_event(const Event& event) override { events.push_back(event); }
  bool wants_barrier_arrivals() const override { return false; }
  std::vector<Event> events;
};

} // namespace

TEST_CASE("an observer that wants no barrier arrivals is sent the other events, in their places",
          "[machine][observers]") {
  const char* const text = R"(
//@ launch grid=2 block=8
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__global__ void k(int* out) {
  __shared__ int s[8];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  for (int stride = 4; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
)";
  for (const char* model_name : {"sc", "gpu"}) {
    INFO(model_name);
    Kernel k = kernel_from_text(text);
    auto model = create_model(model_name);
    const ExplorationResult random = explore_random(*k.machine, *model, RandomOptions{5, 3});
    REQUIRE_FALSE(random.outcomes.empty());
    ReplayError error;
    TraceRecorder all;
    RecorderWithoutArrivals without;
    REQUIRE(replay(*k.machine, *model, random.outcomes[0].witness, &all, error));
    REQUIRE(replay(*k.machine, *model, random.outcomes[0].witness, &without, error));
    std::vector<Event> expected;
    std::copy_if(all.events().begin(), all.events().end(), std::back_inserter(expected),
                 [](const Event& e) { return e.kind != EventKind::BarrierArrive; });
    // 16 threads, each arriving at four barriers.
    CHECK(all.events().size() - expected.size() == 16 * 4);
    REQUIRE(without.events.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      INFO(i);
      CHECK(without.events[i].kind == expected[i].kind);
      CHECK(without.events[i].thread == expected[i].thread);
      CHECK(without.events[i].sequence == expected[i].sequence);
    }
  }
}

TEST_CASE("stackless threads run a large grid as threads on fibers do", "[machine][residency]") {
  MachineOptions stackless, fibers;
  fibers.engine = Engine::BytecodeOnFibers;
  CHECK(kernel_from_text(kRacyLargeReduction, stackless).machine->runs_stackless());
  CHECK_FALSE(kernel_from_text(kRacyLargeReduction, fibers).machine->runs_stackless());
  check_same_random_executions(kRacyLargeReduction, stackless, fibers);
}

TEST_CASE("an execution too long for the reduction's analysis ends the search cleanly", "[machine][limits]") {
  // 1,024 threads x 300 stores: 307,200 scheduling points with up to 1,024 threads enabled
  // at each, past the 2^24 entries the reduction keeps (its clocks would need 2^28 more): the
  // first execution is abandoned part-way and the search stops, cut short, saying why.
  Kernel k = kernel_from_text(R"(
//@ launch grid=4 block=256
//@ arg out: int[1024] = zeros
__global__ void k(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int n = 0; n < 300; n++) out[i] = n;
}
)");
  auto model = create_model("sc");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{});
  CHECK(r.executions == 0);
  CHECK(r.abandoned == 0);
  CHECK_FALSE(r.complete);
  CHECK(r.stopped_because.find("too long for the partial-order reduction") != std::string::npos);
}

TEST_CASE("blocks beyond the residency limit run after earlier ones retire", "[machine][residency]") {
  MachineOptions options;
  options.resident_blocks = 2;
  Kernel k = kernel_from_text(R"(
//@ launch grid=64 block=4
//@ arg out: int[256] = zeros
//@ observe out[0] out[255]
//@ expect sc: always out[255] == 255
__global__ void k(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x; }
)", options);
  CHECK(k.machine->resident_block_limit() == 2);
  auto model = create_model("sc");
  const ExplorationResult r = explore_random(*k.machine, *model, RandomOptions{20, 3});
  CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=0 out[255]=255"});
}

TEST_CASE("the default residency is an H100's, capped at 16384 resident threads", "[machine][residency]") {
  // 132 SMs x min(32 blocks, 2048 / 32 threads) = 4224 blocks; the cap allows 16384 / 32 = 512.
  CHECK(kernel_from_text("//@ launch grid=100000 block=32\n__global__ void k() { }\n")
            .machine->resident_block_limit() == 512);
  // 132 SMs x min(32 blocks, 2048 / 1024 threads) = 264 blocks; the cap allows 16.
  CHECK(kernel_from_text("//@ launch grid=100000 block=1024\n__global__ void k() { }\n")
            .machine->resident_block_limit() == 16);
  // Small grids are fully resident.
  CHECK(kernel_from_text("//@ launch grid=3 block=2\n__global__ void k() { }\n")
            .machine->resident_block_limit() == 3);
}

TEST_CASE("an observed local assigned by two threads is an error", "[machine][observe]") {
  const OutcomeCount o = only_outcome(R"(
//@ launch grid=1 block=2
//@ observe k.r
__global__ void k() { int r = threadIdx.x; }
)");
  CHECK(o.outcome.status == ExecutionStatus::RuntimeError);
  CHECK(o.outcome.message.find("assigned by more than one thread") != std::string::npos);
}

TEST_CASE("__syncthreads orders a block's phases and its count form counts", "[machine][barrier]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=3
//@ arg out: int[3] = zeros
//@ observe out
__shared__ int s[3];
__global__ void k(int* out) {
  s[threadIdx.x] = threadIdx.x + 1;
  int n = __syncthreads_count(threadIdx.x != 1);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 3] * 10 + n;
}
)");
  auto model = create_model("sc");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, {});
  CHECK(r.complete);
  CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=22 out[1]=32 out[2]=12"});
}

TEST_CASE("a kernel recursing past its stack gets a runtime error, not a crash", "[machine][stack]") {
  const std::string kernel = write_temp_file("overflow_test.cu", "//@ launch grid=1 block=1\n__device__ int x;\n"
                                              "__device__ int deep(int n) { return n == 0 ? x : deep(n - 1) + 1; }\n"
                                              "__global__ void k() { x = deep(900); }\n");
  const ProcessResult r = run_process(std::string(FENCELAB_BINARY) + " run --runs 1 --seed 1 --stack-size 16384 " + kernel);
  INFO(r.output);
  // Measured against the fiber stack before each call, so it never reaches the guard page
  // (whose handler remains for fencelab's own overflows: "internal error", exit 3).
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("recursion too deep") != std::string::npos);
  CHECK(r.output.find("raise --stack-size") != std::string::npos);
}

TEST_CASE("a search gives its fiber stacks back, and the next search on the Machine runs on new ones",
          "[machine][residency]") {
  // Under Boost.Context's ucontext implementation (the sanitized builds) a fiber that ends is
  // handed back to its resumer and keeps its stack until that handle is dropped; the stacks
  // were unmapped under it, and the next search's first thread unwound a record that was no
  // longer there (CI, ASan: "invalid vptr" in fiber::resume, then exit from __start_context).
  MachineOptions fibers;
  fibers.engine = Engine::BytecodeOnFibers;
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ observe x
__device__ int x = 0;
__global__ void k() { atomicAdd(&x, 1); __syncwarp(0xfu); }
)",
                              fibers);
  REQUIRE_FALSE(k.machine->runs_stackless());
  auto model = create_model("tso");
  const ExplorationResult random = explore_random(*k.machine, *model, RandomOptions{8, 1});
  CHECK(k.machine->fiber_stacks_mapped() == 0);
  const ExplorationResult exhaustive = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000});
  CHECK(k.machine->fiber_stacks_mapped() == 0);
  REQUIRE(random.outcomes.size() == 1);
  REQUIRE(exhaustive.outcomes.size() == 1);
  CHECK(exhaustive.outcomes.front().outcome.to_string(k.program()) == "x=4");
  CHECK(random.outcomes.front().outcome.to_string(k.program()) == "x=4");
}
