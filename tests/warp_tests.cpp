// Warp operations: the pure shuffle and vote functions against the Programming Guide's
// definitions (every width, several masks), and warp operations end to end under both warp
// modes: values, rendezvous, invalid masks, lanes that never arrive, undefined shuffles,
// __activemask, traces and replay tokens.
#include "fencelab/machine/memory_model.h"
#include "fencelab/report/report.h"
#include "machine/warp_operations.h"
#include "machine_helpers.h"

#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;
using warp::ShuffleKind;

namespace {

constexpr uint32_t kWidths[] = {1, 2, 4, 8, 16, 32};
constexpr uint32_t kMasks[] = {0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x55555555u, 0x0000000fu,
                               0x80000001u, 0x00000001u, 0x00ff00ffu, 0x7ffffffeu};

/**
 * The source lane as the Programming Guide (10.22) words it, written independently of the
 * PTX pseudo-code that warp_operations.cpp follows:
 * - __shfl_sync: "the value of var held by the thread whose ID is given by srcLane"; for
 *   width < warpSize each subsection of width lanes behaves as a separate entity with lane IDs
 *   0..width-1 and "if srcLane is outside the range [0:width-1], the value returned
 *   corresponds to the value of var held by the srcLane modulo width (i.e. within the same
 *   subsection)".
 * - __shfl_up_sync: "subtracting delta from the caller's lane ID ... will not wrap around the
 *   value of width, so effectively the lower delta lanes will be unchanged".
 * - __shfl_down_sync: "adding delta ... the upper delta lanes will remain unchanged".
 * - __shfl_xor_sync: "bitwise XOR of the caller's lane ID with laneMask ... if width is less
 *   than warpSize then each group of width consecutive threads are able to access elements
 *   from earlier groups of threads, however if they attempt to access elements from later
 *   groups of threads their own value of var will be returned".
 */
uint32_t guide_source(ShuffleKind kind, uint32_t lane, uint32_t arg, uint32_t width) {
  const uint32_t base = lane / width * width, in_group = lane % width;
  switch (kind) {
  case ShuffleKind::Index: return base + arg % width;
  case ShuffleKind::Up: return in_group < arg ? lane : lane - arg;
  case ShuffleKind::Down: return in_group + arg >= width ? lane : lane + arg;
  case ShuffleKind::Xor: {
    const uint32_t source = lane ^ arg;
    return source / width > lane / width ? lane : source;
  }
  }
  return lane;
}

std::array<warp::ShuffleInput, kWarpSize> inputs_for(uint32_t arg, uint32_t width) {
  std::array<warp::ShuffleInput, kWarpSize> in{};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) in[lane] = {Word(1000 + lane), int64_t(arg), width};
  return in;
}

ExplorationResult explore(const Kernel& k, const char* model, uint64_t max_executions = 1000) {
  auto m = create_model(model);
  return explore_exhaustive(*k.machine, *m, ExhaustiveOptions{max_executions});
}

MachineOptions mode(WarpMode warp) {
  MachineOptions o;
  o.warp = warp;
  return o;
}

std::string values_of(const Program& program, const Outcome& outcome, const std::string& array, uint32_t n) {
  std::string out;
  for (uint32_t i = 0; i < n; ++i) {
    const ObservedItem* item = program.find_observed(array + "[" + std::to_string(i) + "]");
    REQUIRE(item != nullptr);
    const size_t index = size_t(item - program.observed.data());
    if (i) out += ' ';
    out += format_word(outcome.values[index], item->type);
  }
  return out;
}

} // namespace

TEST_CASE("shuffles follow the Programming Guide for every width, argument and mask", "[warp][shuffle]") {
  size_t cases = 0;
  for (ShuffleKind kind : {ShuffleKind::Index, ShuffleKind::Up, ShuffleKind::Down, ShuffleKind::Xor}) {
    for (uint32_t width : kWidths) {
      // srcLane beyond width and beyond warpSize wraps (modulo width); deltas and lane masks
      // stay below warpSize, as the Guide's definitions assume.
      const uint32_t args = kind == ShuffleKind::Index ? 64 : 32;
      for (uint32_t arg = 0; arg < args; ++arg) {
        for (uint32_t mask : kMasks) {
          const auto out = warp::shuffle(kind, mask, inputs_for(arg, width));
          for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
            if (!warp::in_mask(mask, lane)) continue;
            INFO(warp::shuffle_kind_spelling(kind) << " width " << width << " arg " << arg << " mask "
                                                   << warp::format_mask(mask) << " lane " << lane);
            const uint32_t source = guide_source(kind, lane, arg, width);
            REQUIRE(out[lane].source == source);
            REQUIRE(out[lane].defined == warp::in_mask(mask, source));
            if (out[lane].defined) REQUIRE(out[lane].value == Word(1000 + source));
            ++cases;
          }
        }
      }
    }
  }
  CHECK(cases > 100000);
}

TEST_CASE("shuffle widths: powers of two from 1 to 32 only", "[warp][shuffle]") {
  for (int64_t w : {1, 2, 4, 8, 16, 32}) CHECK(warp::valid_width(w));
  for (int64_t w : {0, -1, 3, 6, 12, 24, 33, 64}) CHECK_FALSE(warp::valid_width(w));
}

TEST_CASE("ballot, any and all follow the Programming Guide for every mask", "[warp][vote]") {
  // Predicate patterns: none, all, even lanes, lane 31 only, lanes 0..7, lane 0 only.
  const std::vector<std::function<bool(uint32_t)>> patterns = {
      [](uint32_t) { return false; }, [](uint32_t) { return true; }, [](uint32_t l) { return l % 2 == 0; },
      [](uint32_t l) { return l == 31; }, [](uint32_t l) { return l < 8; }, [](uint32_t l) { return l == 0; }};
  for (uint32_t mask : kMasks) {
    for (const auto& pattern : patterns) {
      std::array<bool, kWarpSize> predicates{};
      uint32_t expected_ballot = 0;
      bool expected_any = false, expected_all = true;
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        predicates[lane] = pattern(lane);
        // __ballot_sync: "the Nth bit set if and only if predicate evaluates to non-zero for
        // the Nth thread of the warp and the Nth thread is active"; __any/__all over the mask.
        if (warp::in_mask(mask, lane) && predicates[lane]) expected_ballot |= 1u << lane;
        if (warp::in_mask(mask, lane)) {
          expected_any = expected_any || predicates[lane];
          expected_all = expected_all && predicates[lane];
        }
      }
      INFO("mask " << warp::format_mask(mask));
      CHECK(warp::ballot(mask, predicates) == expected_ballot);
      CHECK(warp::any(mask, predicates) == expected_any);
      CHECK(warp::all(mask, predicates) == expected_all);
    }
  }
}

TEST_CASE("masks and lanes print compactly", "[warp]") {
  CHECK(warp::format_mask(0xffff) == "0x0000ffff");
  CHECK(warp::format_lanes(0xffff) == "0-15");
  CHECK(warp::format_lanes(0x80000005u) == "0, 2, 31");
  CHECK(warp::format_lanes(0) == "none");
}

TEST_CASE("mode names: a bare model is ITS, MODEL.lockstep lockstep", "[warp]") {
  CHECK(mode_name("gpu", WarpMode::Its) == "gpu");
  CHECK(mode_name("gpu", WarpMode::Lockstep) == "gpu.lockstep");
  std::string model;
  WarpMode warp = WarpMode::Its;
  REQUIRE(split_mode_name("sc.lockstep", model, warp));
  CHECK(model == "sc");
  CHECK(warp == WarpMode::Lockstep);
  REQUIRE(split_mode_name("gpu", model, warp));
  CHECK(warp == WarpMode::Its);
  CHECK_FALSE(split_mode_name("gpu.simd", model, warp));
}

TEST_CASE("warp operations end to end: shuffles of every kind and width, votes", "[warp][machine]") {
  const std::string text = R"(
//@ launch grid=1 block=32
//@ arg out: int[32] = zeros
//@ arg W = 8
//@ observe out
__global__ void k(int* out, int W) {
  int lane = threadIdx.x % 32;
  int v = lane * 10;
  int a = __shfl_sync(0xffffffff, v, 3, W);
  int b = __shfl_up_sync(0xffffffff, v, 2, W);
  int c = __shfl_down_sync(0xffffffff, v, 2, W);
  int d = __shfl_xor_sync(0xffffffff, v, 5, W);
  unsigned ballot = __ballot_sync(0xffffffff, lane % 3 == 0);
  int any = __any_sync(0xffffffff, lane == 7);
  int all = __all_sync(0xffffffff, lane < 31);
  out[lane] = a + 1000 * b + 1000000 * c + (d == (lane ^ 5) * 10 ? 0 : 1) +
              (ballot == 0x49249249u ? 0 : 2) + (any == 1 ? 0 : 4) + (all == 0 ? 0 : 8);
}
)";
  for (WarpMode warp : {WarpMode::Lockstep, WarpMode::Its}) {
    Kernel k = kernel_from_text(text, mode(warp));
    // Lockstep has no scheduling decisions here; ITS interleaves the 32 stores (sample).
    auto model = create_model("sc");
    const ExplorationResult r = warp == WarpMode::Lockstep
                                    ? explore_exhaustive(*k.machine, *model, ExhaustiveOptions{10})
                                    : explore_random(*k.machine, *model, RandomOptions{20, 7});
    REQUIRE(r.outcomes.size() == 1);
    const Outcome& o = r.outcomes.front().outcome;
    REQUIRE(o.status == ExecutionStatus::Completed);
    std::string expected;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t W = 8, base = lane / W * W, in = lane % W;
      const int a = int(base + 3) * 10;
      const int b = int(in < 2 ? lane : lane - 2) * 10;
      const int c = int(in + 2 >= W ? lane : lane + 2) * 10;
      if (lane) expected += ' ';
      expected += std::to_string(a + 1000 * b + 1000000 * c);
    }
    CHECK(values_of(k.program(), o, "out", 32) == expected);
  }
}

TEST_CASE("shuffles carry every value type", "[warp][machine]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ arg f: float[4] = zeros
//@ arg d: double[4] = zeros
//@ arg u: unsigned long long[4] = zeros
//@ observe f d u
__global__ void k(float* f, double* d, unsigned long long* u) {
  int lane = threadIdx.x;
  f[lane] = __shfl_xor_sync(0xf, lane + 0.5f, 1);
  d[lane] = __shfl_down_sync(0xf, lane * 1.25, 1, 4);
  u[lane] = __shfl_sync(0xf, 0xffffffff00000000ull + lane, 3);
}
)",
                              mode(WarpMode::Lockstep));
  const ExplorationResult r = explore(k, "sc");
  REQUIRE(r.outcomes.size() == 1);
  CHECK(values_of(k.program(), r.outcomes[0].outcome, "f", 4) == "1.5 0.5 3.5 2.5");
  CHECK(values_of(k.program(), r.outcomes[0].outcome, "d", 4) == "1.25 2.5 3.75 3.75");
  CHECK(values_of(k.program(), r.outcomes[0].outcome, "u", 4) ==
        "18446744069414584323 18446744069414584323 18446744069414584323 18446744069414584323");
}

TEST_CASE("a mask that omits the calling lane is an invalid warp mask", "[warp][machine][diagnostics]") {
  for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
    Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
__global__ void k(int* out) {
  int lane = threadIdx.x;
  out[lane] = __shfl_sync(0x3, lane, 0);
}
)",
                                mode(warp));
    const ExplorationResult r = explore(k, "sc", 200);
    for (const OutcomeCount& o : r.outcomes) {
      CHECK(o.outcome.status == ExecutionStatus::RuntimeError);
      REQUIRE(o.error);
      CHECK(o.error->diagnostic.message.find("invalid warp mask: __shfl_sync with mask 0x00000003 does not include "
                                             "the calling lane") != std::string::npos);
    }
  }
}

TEST_CASE("a lane of the mask that exits leaves the others waiting: deadlock naming them", "[warp][machine]") {
  for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
    Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
__global__ void k(int* out) {
  int lane = threadIdx.x;
  if (lane < 3) out[lane] = __shfl_down_sync(0xf, lane, 1);
}
)",
                                mode(warp));
    const ExplorationResult r = explore(k, "sc", 200);
    REQUIRE(r.outcomes.size() == 1);
    CHECK(r.outcomes[0].outcome.status == ExecutionStatus::Deadlock);
    CHECK(r.outcomes[0].outcome.message ==
          "a warp operation can never complete (every lane named in its mask must arrive): in block 0 warp 0, "
          "lanes 0-2 wait at __shfl_down_sync (line 6) with mask 0x0000000f, but lanes 3 have exited");
  }
}

TEST_CASE("lanes past the end of a partial warp do not exist: a full mask works", "[warp][machine]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out
__global__ void k(int* out) {
  __syncwarp();
  out[threadIdx.x] = __ballot_sync(0xffffffff, 1) + __all_sync(0xffffffff, 1);
}
)");
  const ExplorationResult r = explore(k, "sc");
  CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=4 out[1]=4"});
}

TEST_CASE("lanes of one mask performing different warp operations is a runtime error", "[warp][machine]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
__global__ void k(int* out) {
  int lane = threadIdx.x;
  if (lane == 0) out[0] = __shfl_sync(0x3, 5, 1);
  else out[1] = __ballot_sync(0x3, 1);
}
)");
  const ExplorationResult r = explore(k, "sc");
  REQUIRE(r.outcomes.size() == 1);
  CHECK(r.outcomes[0].outcome.status == ExecutionStatus::RuntimeError);
  CHECK(r.outcomes[0].outcome.message.find("perform different warp operations with mask 0x00000003") != std::string::npos);
}

TEST_CASE("a shuffle from a lane outside the mask is undefined: a warning and a chosen value", "[warp][machine]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
//@ observe out[0]
__global__ void k(int* out) {
  int lane = threadIdx.x;
  if (lane < 2) {
    int v = __shfl_sync(0x3, lane + 7, 3);
    if (lane == 0) out[0] = v;
  }
}
)",
                              mode(WarpMode::Lockstep));
  const ExplorationResult r = explore(k, "sc");
  CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=0", "out[0]=7"});
  // Each witness replays with the warning naming the lanes and the mask.
  auto model = create_model("sc");
  for (const OutcomeCount& o : r.outcomes) {
    CHECK(o.witness.model == "sc.lockstep");
    TraceRecorder trace;
    ReplayError error;
    const auto execution = replay(*k.machine, *model, o.witness, &trace, error);
    REQUIRE(execution);
    REQUIRE(execution->warnings.size() == 1);
    CHECK(execution->warnings[0].diagnostic.severity == Severity::Warning);
    CHECK(execution->warnings[0].diagnostic.message ==
          "shuffle from an inactive lane: __shfl_sync with mask 0x00000003: lane 0 reads lane 3, 1 reads lane 3, "
          "outside the mask, so the value is undefined (Programming Guide 10.22); fencelab picks 0 or the "
          "reading lane's own value");
    bool seen = false;
    for (const Event& e : trace.events()) seen = seen || (e.kind == EventKind::Warp && e.warp_undefined);
    CHECK(seen);
  }
}

TEST_CASE("__activemask: the lanes that perform the call together", "[warp][machine]") {
  for (WarpMode warp : {WarpMode::Its, WarpMode::Lockstep}) {
    Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=8
//@ arg out: unsigned[8] = zeros
//@ observe out[0] out[3] out[5]
__global__ void k(unsigned* out) {
  int lane = threadIdx.x;
  if (lane < 4) out[lane] = __activemask();
  else out[lane] = __activemask();
}
)",
                                mode(warp));
    auto model = create_model("sc");
    const ExplorationResult r = explore_random(*k.machine, *model, RandomOptions{50, 3});
    CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=15 out[3]=15 out[5]=240"});
  }
}

TEST_CASE("__activemask under ITS: lanes that diverged through memory events run it apart", "[warp][machine]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=2
//@ arg out: unsigned[2] = zeros
//@ observe out
__device__ int x;
__global__ void k(unsigned* out) {
  int lane = threadIdx.x;
  x = lane;
  out[lane] = __activemask();
}
)");
  const ExplorationResult r = explore(k, "sc");
  REQUIRE(r.complete);
  const auto outcomes = outcome_strings(k.program(), r);
  CHECK(outcomes.count("out[0]=3 out[1]=3") == 1);
  CHECK(outcomes.count("out[0]=1 out[1]=2") == 1);
}

TEST_CASE("__syncwarp orders the lanes' memory like __syncthreads does for a block", "[warp][machine]") {
  const std::string text = R"(
//@ launch grid=1 block=2
//@ arg out: int[1] = zeros
//@ observe out[0]
__shared__ int s[2];
__global__ void k(int* out) {
  int lane = threadIdx.x;
  s[lane] = lane + 1;
  SYNC
  if (lane == 0) out[0] = s[1];
}
)";
  auto outcomes_with = [&](const std::string& sync, const char* model_name) {
    std::string source = text;
    source.replace(source.find("SYNC"), 4, sync);
    Kernel k = kernel_from_text(source);
    const ExplorationResult r = explore(k, model_name, 10000);
    REQUIRE(r.complete);
    return outcome_strings(k.program(), r);
  };
  CHECK(outcomes_with("__syncwarp();", "gpu") == std::set<std::string>{"out[0]=2"});
  CHECK(outcomes_with("__syncwarp(0x3);", "tso") == std::set<std::string>{"out[0]=2"});
  CHECK(outcomes_with(";", "sc") == std::set<std::string>{"out[0]=0", "out[0]=2"});
}

TEST_CASE("replay --trace shows each warp operation with its mask and values", "[warp][report]") {
  Kernel k = kernel_from_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[1] = zeros
__global__ void k(int* out) {
  int lane = threadIdx.x;
  int v = lane + 1;
  v += __shfl_down_sync(0xf, v, 2, 4);
  unsigned b = __ballot_sync(0xf, v > 4);
  if (lane == 0) out[0] = v + b;
}
)",
                              mode(WarpMode::Lockstep));
  auto model = create_model("gpu");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{100});
  REQUIRE(r.outcomes.size() == 1);
  const ReplayToken token = r.outcomes[0].witness;
  CHECK(token.model == "gpu.lockstep");
  TraceRecorder trace;
  ReplayError error;
  const auto execution = replay(*k.machine, *model, token, &trace, error);
  REQUIRE(execution);
  std::ostringstream out;
  print_trace_text(out, k.program(), token.encode(), trace.events(), *execution);
  INFO(out.str());
  CHECK(out.str().find("warp   __shfl_down_sync mask 0x0000000f (lanes 0-3): 0<-2=3 1<-3=4 2<-2=3 3<-3=4") !=
        std::string::npos);
  CHECK(out.str().find("warp   __ballot_sync mask 0x0000000f (lanes 0-3): predicates true in lanes 1-3 -> "
                       "0x0000000e") != std::string::npos);
  // The same token refuses to replay under ITS: the warp mode is part of the token.
  Kernel its = kernel_from_text(k.compiled->source->text());
  CHECK_FALSE(replay(*its.machine, *model, token, nullptr, error));
  CHECK(error.message == "the token was made under model 'gpu.lockstep', not 'gpu'");
}
