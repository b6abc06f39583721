// Spin recognition under the bytecode engine against the AST walker (bytecode_helpers.h): the
// compiled code snapshots a thread only before a read that can repeat its previous one
// (src/machine/repeatable_reads.cpp), the AST walker before every read in a loop, so a spin the
// bytecode missed would show as a different report.
#include "bytecode_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("bytecode: barriers, spins and atomics inside compiled loops", "[bytecode]") {
  check_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__device__ int ready;
__device__ int data;
__global__ void k(int* out) {
  __shared__ int s[4];
  s[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  for (int stride = 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    data = s[0];
    __threadfence();
    atomicExch(&ready, 1);
  } else if (threadIdx.x == 1) {
    while (atomicAdd(&ready, 0) == 0) { }
    __threadfence();
    out[0] = data;
  } else if (threadIdx.x == 2) {
    while (ready == 0) { }
    out[1] = data;
  }
}
)",
             1, {}, 300);
}

TEST_CASE("bytecode: reads cut off from their next turn by a barrier or fence, and spins that are not",
          "[bytecode]") {
  // The loop's read reaches itself again only through __syncthreads; the spin on `flag` comes
  // back to its read on a path without the fence; the spin through `peek` reads in a device
  // function, whose caller may call it again; the last spin fences on every path back, so it
  // is no no-op iteration on either engine. A step limit keeps a missed spin from running on.
  MachineOptions options;
  options.max_steps = 4000;
  check_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
//@ observe out[0] out[1] out[2] out[3]
__device__ int flag;
__device__ int data;
__device__ int peek(const int* p) { return *p; }
__global__ void k(int* out) {
  __shared__ int s[4];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < 2; ++i) {
    sum += s[(threadIdx.x + i) % 4];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    data = sum;
    __threadfence();
    flag = 1;
  } else if (threadIdx.x == 1) {
    while (flag == 0) {
      if (sum > 100) __threadfence();
    }
    out[1] = data;
  } else if (threadIdx.x == 2) {
    while (peek(&flag) == 0) { }
    out[2] = data + sum;
  } else {
    int tries = 0;
    while (flag == 0 && tries < 3) {
      __threadfence();
      ++tries;
    }
    out[3] = tries;
  }
}
)",
             2, options, 300);
}
