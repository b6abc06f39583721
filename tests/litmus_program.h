// Litmus programs as data, for the reference model (reference_model.h) and the differential
// tests against fencelab (reference_tests.cpp): a launch shape, a few `__device__ int`
// locations with initial values, and per thread a straight-line list of operations. The same
// program is rendered as a CUDA kernel for fencelab and read directly by the reference, which
// shares nothing else with fencelab.
//
// Each thread's list may hold `__syncthreads()` and `__syncwarp(mask)`. The rules a
// well-formed program keeps (check_litmus_program):
// - every thread of a block that runs to its end executes the same number of `__syncthreads()`;
//   a thread with fewer exits early, right after its last operation (fencelab's barrier then
//   counts only the threads that have not exited, as bar.sync does);
// - a `__syncwarp(mask)`'s mask holds the calling lane and only lanes of the block, and each
//   lane of the mask executes the matching `__syncwarp(mask)`, in one common order, between
//   the same two `__syncthreads` (the generator gives each block one list of warp barriers
//   per phase, and each lane takes those that name it, in that order), so no program
//   deadlocks.
// Every block is one warp (the generator makes at most 4 threads): lane = threadIdx.x.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fencelab::testing {

enum class LitmusOpKind : uint8_t { Store, Load, Atomic, Fence, Syncthreads, Syncwarp };

/** The atomic functions of Programming Guide 10.14 ("Atomic Functions"), one row each. */
enum class LitmusRmw : uint8_t { Add, Sub, Exch, Cas, Min, Max, Inc, Dec, And, Or, Xor };

/** An atomic's scope suffix (`_block`, none, `_system`) or a fence's scope
 *  (`__threadfence_block`, `__threadfence`, `__threadfence_system`). */
enum class LitmusScope : uint8_t { Block, Device, System };

struct LitmusOp {
  LitmusOpKind kind = LitmusOpKind::Load;
  uint32_t location = 0;   ///< Store, Load, Atomic
  int32_t value = 0;       ///< Store: the value stored; Atomic: the operand (CAS: the new value)
  int32_t compare = 0;     ///< Atomic CAS: the compared value
  LitmusRmw rmw = LitmusRmw::Add;
  LitmusScope scope = LitmusScope::Device; ///< Atomic, Fence
  int32_t result = -1;     ///< the register it writes (Load always; Atomic when observed), or -1
  uint32_t mask = 0;       ///< Syncwarp: the lanes it names
};

struct LitmusThread {
  std::vector<LitmusOp> ops;
};

struct LitmusProgram {
  uint32_t blocks = 1;
  uint32_t threads_per_block = 1;
  std::vector<int32_t> initial;       ///< one per location (named x, y, z)
  std::vector<LitmusThread> threads;  ///< blocks * threads_per_block, block-major
  uint32_t registers = 0;             ///< r0 .. r(registers-1), each written by one op
  std::string shape;                  ///< the generator's flavour, for messages

  uint32_t block_of(uint32_t thread) const { return thread / threads_per_block; }
  uint32_t lane_of(uint32_t thread) const { return thread % threads_per_block; }
};

/** The generator's flavours (generate_litmus_program); Any draws one by weight. */
enum class LitmusShape : uint8_t {
  Any,
  Mixed,        ///< every kind of operation, barriers now and then
  BarrierDrain, ///< issue 68: stores (and atomics) buffered before a barrier, another block reading, CASing, adding
  WarpMasks,    ///< stores before __syncwarp with partial and full masks, other lanes reading
  Arrivals,     ///< some threads only arrive at the barriers; some exit before the last one
  LateRelease,  ///< issue 68's examples varied: a store, a step, a barrier; another thread sees the step
};

/** "x", "y", "z". */
std::string location_name(uint32_t location);

/** The outcome's items in order: every location, then every register ("x", "y", "r0", ...). */
std::vector<std::string> observed_labels(const LitmusProgram& program);

/** An outcome's text: "x=1 y=0 r0=2" (labels and values in observed order). */
std::string outcome_text(const LitmusProgram& program, const std::vector<int32_t>& values);

/** Why the program breaks a rule of this file's header, or "" when it keeps them all. */
std::string check_litmus_program(const LitmusProgram& program);

/** The program as a kernel with `//@ launch` and `//@ observe` lines, observing
 *  observed_labels(program) in that order (registers as `k.rN`). */
std::string render_litmus_kernel(const LitmusProgram& program);

/** A well-formed program of the given flavour (Any: one drawn by weight), the same for a seed
 *  on every machine (SplitMix64). */
LitmusProgram generate_litmus_program(uint64_t seed, LitmusShape shape = LitmusShape::Any);

} // namespace fencelab::testing
