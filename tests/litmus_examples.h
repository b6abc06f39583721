// Litmus programs written by hand (litmus_program.h), for the reference model's property tests
// (reference_model_tests.cpp) and the differential tests (reference_tests.cpp): builders of
// operations, and issue 68's examples with their outcome sets under each model, worked out by
// hand from DESIGN.md "Memory models" with the release of a barrier a step of its own.
#pragma once

#include "litmus_program.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace fencelab::testing::litmus_examples {

inline LitmusOp store(uint32_t location, int32_t value) {
  LitmusOp op;
  op.kind = LitmusOpKind::Store;
  op.location = location;
  op.value = value;
  return op;
}

inline LitmusOp load(uint32_t location, int32_t reg) {
  LitmusOp op;
  op.kind = LitmusOpKind::Load;
  op.location = location;
  op.result = reg;
  return op;
}

inline LitmusOp atomic(LitmusRmw rmw, uint32_t location, int32_t value, int32_t reg = -1, int32_t compare = 0) {
  LitmusOp op;
  op.kind = LitmusOpKind::Atomic;
  op.rmw = rmw;
  op.location = location;
  op.value = value;
  op.compare = compare;
  op.result = reg;
  return op;
}

inline LitmusOp fence(LitmusScope scope = LitmusScope::Device) {
  LitmusOp op;
  op.kind = LitmusOpKind::Fence;
  op.scope = scope;
  return op;
}

inline LitmusOp syncthreads() {
  LitmusOp op;
  op.kind = LitmusOpKind::Syncthreads;
  return op;
}

inline LitmusOp syncwarp(uint32_t mask) {
  LitmusOp op;
  op.kind = LitmusOpKind::Syncwarp;
  op.mask = mask;
  return op;
}

inline constexpr uint32_t x = 0, y = 1; ///< the locations of the examples

/** A program of `blocks` x `per_block` threads over `locations` zero-initialised locations;
 *  the register count is one more than the highest register named. */
inline LitmusProgram program(uint32_t blocks, uint32_t per_block, uint32_t locations, std::vector<std::vector<LitmusOp>> threads) {
  LitmusProgram p;
  p.blocks = blocks;
  p.threads_per_block = per_block;
  p.initial.assign(locations, 0);
  for (auto& ops : threads) {
    for (const LitmusOp& op : ops) p.registers = std::max<uint32_t>(p.registers, uint32_t(op.result + 1));
    p.threads.push_back({std::move(ops)});
  }
  return p;
}

/** One of issue 68's examples: outcomes fencelab's search missed (before the barrier release
 *  became a step of its own), with the exact outcome set under each model. */
struct Issue68Example {
  const char* name;
  LitmusProgram program;
  std::set<std::string> sc, tso, gpu;

  const std::set<std::string>& expected(const std::string& model) const {
    return model == "sc" ? sc : model == "tso" ? tso : gpu;
  }
};

inline std::vector<Issue68Example> issue68_examples() {
  std::vector<Issue68Example> examples;
  {
    // tso: block 0 x = 1; y = 2. Block 1 y = 4; r0 = x; __syncthreads(). With r0=0, y=2
    // drains after x=1, after the read; y=4 may drain after it, at the release.
    const std::set<std::string> all = {"x=1 y=2 r0=0", "x=1 y=4 r0=0", "x=1 y=2 r0=1", "x=1 y=4 r0=1"};
    examples.push_back({"a lone thread's __syncthreads drains its store after another block's stores",
                        program(2, 1, 2, {{store(x, 1), store(y, 2)}, {store(y, 4), load(x, 0), syncthreads()}}),
                        {"x=1 y=2 r0=0", "x=1 y=2 r0=1", "x=1 y=4 r0=1"}, all, all});
  }
  {
    // gpu: block 0 x = 2; y = 3; __syncthreads(). Block 1 r0 = y; x = 4. r0=3 x=2: y=3
    // drains alone, block 1 reads it and its x=4 drains, then the release drains x=2.
    const std::set<std::string> strong = {"x=2 y=3 r0=0", "x=4 y=3 r0=0", "x=4 y=3 r0=3"};
    std::set<std::string> weak = strong;
    weak.insert("x=2 y=3 r0=3");
    examples.push_back({"another block reads a drained store and overwrites one the release drains later",
                        program(2, 1, 2, {{store(x, 2), store(y, 3), syncthreads()}, {load(y, 0), store(x, 4)}}),
                        strong, strong, weak});
  }
  {
    // gpu: block 0 y = 1; atomicExch(&x, 2); __syncthreads(). Block 1 r0 = x; y = 6.
    const std::set<std::string> strong = {"x=2 y=1 r0=0", "x=2 y=6 r0=0", "x=2 y=6 r0=2"};
    std::set<std::string> weak = strong;
    weak.insert("x=2 y=1 r0=2");
    examples.push_back(
        {"another block reads an atomic's result before the release drains a store",
         program(2, 1, 2, {{store(y, 1), atomic(LitmusRmw::Exch, x, 2), syncthreads()}, {load(x, 0), store(y, 6)}}),
         strong, strong, weak});
  }
  {
    // gpu, one warp: lane 0 r0 = x; y = 1. Lane 1 y = 3; atomicExch(&x, 4); __syncwarp(0x2).
    const std::set<std::string> strong = {"x=4 y=1 r0=0", "x=4 y=3 r0=0", "x=4 y=1 r0=4"};
    std::set<std::string> weak = strong;
    weak.insert("x=4 y=3 r0=4");
    examples.push_back(
        {"a lone lane's __syncwarp drains its store after another lane's",
         program(1, 2, 2, {{load(x, 0), store(y, 1)}, {store(y, 3), atomic(LitmusRmw::Exch, x, 4), syncwarp(0x2)}}),
         strong, strong, weak});
  }
  {
    // tso, gpu: lanes 0 and 1 store 1 and 2 to x, each then __syncwarp(0x3): either last.
    const std::set<std::string> both = {"x=1", "x=2"};
    examples.push_back({"two lanes' stores to one location before their __syncwarp end in either order",
                        program(1, 2, 1, {{store(x, 1), syncwarp(0x3)}, {store(x, 2), syncwarp(0x3)}}), both, both,
                        both});
  }
  {
    // tso: block 0 thread 0 r0 = x (thread 1 nothing). Block 1 x = 2 and x = 4, each then
    // __syncthreads(). r0=2 x=4 reads x=2 drained alone, before the release drains x=4.
    const std::set<std::string> all = {"x=2 r0=0", "x=4 r0=0", "x=2 r0=2", "x=4 r0=2", "x=2 r0=4", "x=4 r0=4"};
    examples.push_back({"a read between the two drains of a __syncthreads' participants",
                        program(2, 2, 1, {{load(x, 0)}, {}, {store(x, 2), syncthreads()}, {store(x, 4), syncthreads()}}),
                        all, all, all});
  }
  return examples;
}

} // namespace fencelab::testing::litmus_examples
