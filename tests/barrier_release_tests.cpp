// Outcomes at barriers (issue 68): a barrier release whose participants have stores buffered
// is a step of its own, so other threads and drains may run between the last arrival and the
// release's drains (docs/architecture.md, "Barrier releases"). Each kernel below was missed by
// an earlier Machine (group A: the release was part of the last arrival's step, so
// `--reduction none` missed the outcome too) or by the reduction alone (group B: stores drained
// by a release). Every outcome set is derived by hand in the comment above it, and each is
// checked exactly, under sc, tso and gpu, by the full search and by the reduced one.
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

namespace {

struct BarrierCase {
  const char* name;
  const char* text;
  std::set<std::string> sc, tso, gpu;
};

void check_exact_outcomes(const BarrierCase& c) {
  Kernel k = kernel_from_text(c.text);
  for (const auto& [model_name, expected] :
       {std::pair<const char*, const std::set<std::string>*>{"sc", &c.sc}, {"tso", &c.tso}, {"gpu", &c.gpu}}) {
    for (const Reduction reduction : {Reduction::None, Reduction::Dpor}) {
      INFO(c.name << " under " << model_name << (reduction == Reduction::None ? ", full search" : ", dpor"));
      auto model = create_model(model_name);
      ExhaustiveOptions options{200'000};
      options.reduction = reduction;
      const ExplorationResult result = explore_exhaustive(*k.machine, *model, options);
      REQUIRE(result.complete);
      CHECK(outcome_strings(k.program(), result) == *expected);
    }
  }
}

} // namespace

// A1 (issue 68's first kernel). sc: block 0 has x=1 before y=2, block 1 y=4 before the read.
// r0=0 puts the read before x=1, so y=4 < read < x=1 < y=2: y=2. r0=1 allows either store of y
// last. tso adds r0=0 x=1 y=4: y=4 stays buffered, block 0's stores drain after the read, and
// the barrier drains y=4 last. gpu allows the same four (r0 in {0,1}, y in {2,4}: all of them).
TEST_CASE("a barrier's drains may come after other blocks' stores (tso)", "[barrier-release]") {
  check_exact_outcomes({"A1", R"(
//@ launch grid=2 block=1
//@ observe litmus.r0 x y
__device__ int x = 0, y = 0;
__global__ void litmus() {
  if (blockIdx.x == 0) { x = 1; y = 2; }
  else { y = 4; int r0 = x; __syncthreads(); }
}
)",
                        {"r0=0 x=1 y=2", "r0=1 x=1 y=2", "r0=1 x=1 y=4"},
                        {"r0=0 x=1 y=2", "r0=0 x=1 y=4", "r0=1 x=1 y=2", "r0=1 x=1 y=4"},
                        {"r0=0 x=1 y=2", "r0=0 x=1 y=4", "r0=1 x=1 y=2", "r0=1 x=1 y=4"}});
}

// A2. y=3 always. sc and tso (block 0's stores land in order; block 1 reads before it stores):
// r2=3 means x=2 < y=3 < read < x=4, so x=4; r2=0 (the read before y=3) leaves x=2 and x=4 in
// either order. gpu adds r2=3 x=2: y=3 drains before x=2, block 1 reads it and its x=4 lands,
// and the barrier drains x=2 last.
TEST_CASE("a barrier's drain of one location may come after another block's store to it (gpu)", "[barrier-release]") {
  check_exact_outcomes({"A2", R"(
//@ launch grid=2 block=1
//@ observe litmus.r2 x y
__device__ int x = 0, y = 0;
__global__ void litmus() {
  if (blockIdx.x == 0) { x = 2; y = 3; __syncthreads(); }
  else { int r2 = y; x = 4; }
}
)",
                        {"r2=0 x=2 y=3", "r2=0 x=4 y=3", "r2=3 x=4 y=3"},
                        {"r2=0 x=2 y=3", "r2=0 x=4 y=3", "r2=3 x=4 y=3"},
                        {"r2=0 x=2 y=3", "r2=0 x=4 y=3", "r2=3 x=2 y=3", "r2=3 x=4 y=3"}});
}

// A3. x=2 always. sc: y=1 < exchange, read < y=6; r1=2 puts the exchange before the read, so
// y=1 < y=6: y=6; r1=0 leaves y=1 and y=6 in either order. tso is sc here (the atomic drains
// the whole buffer, so y=1 lands before the exchange). gpu's atomic drains only the thread's
// stores to x: y=1 stays buffered, and r1=2 y=1 comes from block 1 reading 2 and storing y=6
// before the barrier drains y=1.
TEST_CASE("a store left buffered past an atomic drains at the barrier (gpu)", "[barrier-release]") {
  check_exact_outcomes({"A3", R"(
//@ launch grid=2 block=1
//@ observe litmus.r1 x y
__device__ int x = 0, y = 0;
__global__ void litmus() {
  if (blockIdx.x == 0) { y = 1; atomicExch(&x, 2); __syncthreads(); }
  else { int r1 = x; y = 6; }
}
)",
                        {"r1=0 x=2 y=1", "r1=0 x=2 y=6", "r1=2 x=2 y=6"},
                        {"r1=0 x=2 y=1", "r1=0 x=2 y=6", "r1=2 x=2 y=6"},
                        {"r1=0 x=2 y=1", "r1=0 x=2 y=6", "r1=2 x=2 y=1", "r1=2 x=2 y=6"}});
}

// A4: the same at a __syncwarp whose mask is the one lane. x=4 always. sc and tso: y=3 <
// exchange, read < y=1; g0=4 gives y=3 < y=1: y=1; g0=0 either order. gpu: y=3 stays buffered
// past the exchange, lane 0 reads 4 and stores y=1, and the __syncwarp drains y=3 last.
TEST_CASE("a __syncwarp's drains may come after another lane's store", "[barrier-release]") {
  check_exact_outcomes({"A4", R"(
//@ launch grid=1 block=2
//@ observe litmus.g0 x y
__device__ int x = 0, y = 0;
__global__ void litmus() {
  if (threadIdx.x == 0) { int g0 = x; y = 1; }
  else { y = 3; atomicExch(&x, 4); __syncwarp(0x2); }
}
)",
                        {"g0=0 x=4 y=1", "g0=0 x=4 y=3", "g0=4 x=4 y=1"},
                        {"g0=0 x=4 y=1", "g0=0 x=4 y=3", "g0=4 x=4 y=1"},
                        {"g0=0 x=4 y=1", "g0=0 x=4 y=3", "g0=4 x=4 y=1", "g0=4 x=4 y=3"}});
}

// B1. Two lanes store to y and meet at __syncwarp: either store may land last, under every
// model (tso and gpu: one lane's store drains by itself before the release drains the other).
TEST_CASE("a __syncwarp that drains two lanes' stores to one location leaves either last", "[barrier-release]") {
  check_exact_outcomes({"B1", R"(
//@ launch grid=1 block=2
//@ observe y
__device__ int y = 0;
__global__ void litmus() {
  if (threadIdx.x == 0) { y = 1; __syncwarp(0x3u); }
  else if (threadIdx.x == 1) { y = 2; __syncwarp(0x3u); }
}
)",
                        {"y=1", "y=2"}, {"y=1", "y=2"}, {"y=1", "y=2"}});
}

// B2. Block 0's thread 0 reads x once; block 1's two threads store 2 and 4 and meet at the
// barrier. Under sc the read may come before both stores, between them or after both, in
// either store order: r1 in {0, 2, 4} with final x in {2, 4}, every pair (r1=2 x=4: x=2, the
// read, x=4). tso and gpu reach the same six: r1=2 x=4 needs x=2 to drain by itself, the read,
// then the barrier's drain of x=4.
TEST_CASE("another block reads between a barrier's drains of one location", "[barrier-release]") {
  const std::set<std::string> all = {"r1=0 x=2", "r1=0 x=4", "r1=2 x=2", "r1=2 x=4", "r1=4 x=2", "r1=4 x=4"};
  check_exact_outcomes({"B2", R"(
//@ launch grid=2 block=2
//@ observe litmus.r1 x
__device__ int x = 0;
__global__ void litmus() {
  if (blockIdx.x == 0) { if (threadIdx.x == 0) { int r1 = x; } }
  else { if (threadIdx.x == 0) x = 2; else x = 4; __syncthreads(); }
}
)",
                        all, all, all});
}

// Found by the reference's generator (tests/litmus_program_generator.cpp) against the Machine
// before releases could be scheduled; each is its program as the generator renders it.

// A5 (generator seed 7, group A). y=2 always: the atomicAdd(&y, 0) appends the value it reads,
// 0 before y=2 lands or 2 after. sc: x=1 < y=2 and the atomic < x=3; r0=2 puts y=2 before the
// atomic, so x=1 < x=3: x=3; r0=0 leaves both orders of x. tso: thread 0's stores land in
// order, so r0=2 again means x=1 landed first: as sc. gpu adds r0=2 x=1: y=2 drains before x=1,
// thread 1 reads it and its x=3 lands, and the __syncwarp(0x1) drains x=1 last.
TEST_CASE("a one-lane __syncwarp drains after another lane's store (generator seed 7)", "[barrier-release]") {
  check_exact_outcomes({"A5", R"(
//@ launch grid=1 block=3
__device__ int x = 0;
__device__ int y = 0;
//@ observe x y k.r0
__global__ void k() {
  if (threadIdx.x == 0) { x = 1; y = 2; __syncwarp(0x1); }
  if (threadIdx.x == 1) { int r0 = atomicAdd(&y, 0); x = 3; }
}
)",
                        {"x=1 y=2 r0=0", "x=3 y=2 r0=0", "x=3 y=2 r0=2"},
                        {"x=1 y=2 r0=0", "x=3 y=2 r0=0", "x=3 y=2 r0=2"},
                        {"x=1 y=2 r0=0", "x=1 y=2 r0=2", "x=3 y=2 r0=0", "x=3 y=2 r0=2"}});
}

// A6 (generator seed 61, group A). x=2 and z=0 always. sc: y=1 < the read, x=2 < y=3; r0=0
// puts the read before x=2, so y=1 < y=3: y=3; r0=2 leaves both orders of y. tso adds r0=0
// y=1 (store buffering): y=1 waits in thread 0's buffer past its read of x, thread 1's stores
// land, and the __syncwarp drains y=1 last. gpu reaches the same four.
TEST_CASE("store buffering completed by a __syncwarp's drain (generator seed 61)", "[barrier-release]") {
  check_exact_outcomes({"A6", R"(
//@ launch grid=1 block=2
__device__ int x = 0;
__device__ int y = 0;
__device__ int z = 0;
//@ observe x y z k.r0
__global__ void k() {
  if (threadIdx.x == 0) { y = 1; int r0 = x; __syncwarp(0x1); }
  if (threadIdx.x == 1) { x = 2; y = 3; }
}
)",
                        {"x=2 y=1 z=0 r0=2", "x=2 y=3 z=0 r0=0", "x=2 y=3 z=0 r0=2"},
                        {"x=2 y=1 z=0 r0=0", "x=2 y=1 z=0 r0=2", "x=2 y=3 z=0 r0=0", "x=2 y=3 z=0 r0=2"},
                        {"x=2 y=1 z=0 r0=0", "x=2 y=1 z=0 r0=2", "x=2 y=3 z=0 r0=0", "x=2 y=3 z=0 r0=2"}});
}

// A7 (generator seed 35, group A). y=2 always (the atomicAdd(&y, 0) reads 0 before the
// exchange, or 2 after it). sc: x=1 < the exchange, the add < x=3; r0=2 puts the exchange
// before the add, so x=1 < x=3: x=3; r0=0 leaves both orders of x. tso's atomic drains the
// whole buffer, so x=1 lands before the exchange: as sc. gpu's atomic drains only the thread's
// stores to y: x=1 stays buffered, block 0 reads 2 and stores x=3, and the barrier drains x=1.
TEST_CASE("a block-scope exchange leaves a store for the barrier to drain (generator seed 35)", "[barrier-release]") {
  check_exact_outcomes({"A7", R"(
//@ launch grid=2 block=1
__device__ int x = 0;
__device__ int y = 0;
//@ observe x y k.r0
__global__ void k() {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) { int r0 = atomicAdd(&y, 0); x = 3; }
  }
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) { x = 1; atomicExch_block(&y, 2); }
    __syncthreads();
  }
}
)",
                        {"x=1 y=2 r0=0", "x=3 y=2 r0=0", "x=3 y=2 r0=2"},
                        {"x=1 y=2 r0=0", "x=3 y=2 r0=0", "x=3 y=2 r0=2"},
                        {"x=1 y=2 r0=0", "x=1 y=2 r0=2", "x=3 y=2 r0=0", "x=3 y=2 r0=2"}});
}

// B3 (generator seed 311, group B). Block 0's two lanes store 1 and 2 to x, in either order, and
// meet at __syncwarp; lane 1 then reads the newest (gpu: the join of the two views is at the
// later entry, each lane's view raised by its own drain). Block 1's read comes before both
// stores, between them or after: r1 is 0, the first value or the second. Six outcomes under
// every model: x=r0 in {1, 2}, r1 in {0, 1, 2}.
TEST_CASE("a __syncwarp's two drains of one location in either order (generator seed 311)", "[barrier-release]") {
  const std::set<std::string> six = {"x=1 r0=1 r1=0", "x=1 r0=1 r1=1", "x=1 r0=1 r1=2",
                                     "x=2 r0=2 r1=0", "x=2 r0=2 r1=1", "x=2 r0=2 r1=2"};
  check_exact_outcomes({"B3", R"(
//@ launch grid=2 block=2
__device__ int x = 0;
//@ observe x k.r0 k.r1
__global__ void k() {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) { x = 1; __syncwarp(0x3); }
    if (threadIdx.x == 1) { x = 2; __syncwarp(0x3); int r0 = x; }
  }
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) { int r1 = x; }
  }
}
)",
                        six, six, six});
}

// B4 (generator seed 272, group B). x=2 and y=0 always. z's stores are z=1 (lane 0) and z=3,
// z=4 (lane 1, in that order), so z ends 1 (z=1 last) or 4; independently block 1 reads x
// before or after x=2 lands. Four outcomes under every model.
TEST_CASE("a __syncwarp drains one lane's store to z after the other's two (generator seed 272)", "[barrier-release]") {
  const std::set<std::string> four = {"x=2 y=0 z=1 r0=0", "x=2 y=0 z=1 r0=2", "x=2 y=0 z=4 r0=0", "x=2 y=0 z=4 r0=2"};
  check_exact_outcomes({"B4", R"(
//@ launch grid=2 block=2
__device__ int x = 0;
__device__ int y = 0;
__device__ int z = 0;
//@ observe x y z k.r0
__global__ void k() {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) { z = 1; x = 2; __syncwarp(0x3); }
    if (threadIdx.x == 1) { z = 3; z = 4; __syncwarp(0x3); }
  }
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) { int r0 = x; }
  }
}
)",
                        four, four, four});
}

// B5 (generator seed 302, group B). x=0 always. y's stores: y=1 then y=2 (lane 0), y=3 (lane 1)
// before or between or after them: y ends 2 or 3. Block 1's read sees 0 or any value stored
// before it; each final value goes with each of 0, 1, 2, 3 (y=3, y=1, y=2: r0 in {0, 3, 1, 2};
// y=1, y=2, y=3: r0 in {0, 1, 2, 3}). Eight outcomes under every model.
TEST_CASE("a __syncwarp that drains three stores to one location (generator seed 302)", "[barrier-release]") {
  std::set<std::string> eight;
  for (const char* y : {"2", "3"})
    for (const char* r0 : {"0", "1", "2", "3"}) eight.insert(std::string("x=0 y=") + y + " r0=" + r0);
  check_exact_outcomes({"B5", R"(
//@ launch grid=2 block=2
__device__ int x = 0;
__device__ int y = 0;
//@ observe x y k.r0
__global__ void k() {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) { y = 1; y = 2; __syncwarp(0x3); }
    if (threadIdx.x == 1) { y = 3; __syncwarp(0x3); }
  }
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) { int r0 = y; }
  }
}
)",
                        eight, eight, eight});
}
