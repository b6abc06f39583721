// Property tests of the reference model (reference_model.h) on tiny programs whose outcome sets
// were worked out by hand from DESIGN.md "Memory models", and of the litmus program generator
// (litmus_program.h). Each model test checks the exact outcome set.
#include "litmus_examples.h"
#include "litmus_program.h"
#include "reference_model.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace fencelab::testing;
using namespace fencelab::testing::litmus_examples;

namespace {

using Outcomes = std::set<std::string>;

Outcomes outcomes(const LitmusProgram& p, ReferenceModel model) {
  INFO(render_litmus_kernel(p));
  REQUIRE(check_litmus_program(p).empty());
  const ReferenceResult r = explore_reference(p, model);
  REQUIRE(r.complete);
  return r.outcomes;
}

constexpr ReferenceModel sc = ReferenceModel::Sc, tso = ReferenceModel::Tso, gpu = ReferenceModel::Gpu;

} // namespace

TEST_CASE("reference: store buffering, r0=0 r1=0 under tso and gpu only", "[reference][model]") {
  const LitmusProgram sb = program(2, 1, 2, {{store(x, 1), load(y, 0)}, {store(y, 1), load(x, 1)}});
  CHECK(outcomes(sb, sc) == Outcomes{"x=1 y=1 r0=0 r1=1", "x=1 y=1 r0=1 r1=0", "x=1 y=1 r0=1 r1=1"});
  const Outcomes weak = {"x=1 y=1 r0=0 r1=0", "x=1 y=1 r0=0 r1=1", "x=1 y=1 r0=1 r1=0", "x=1 y=1 r0=1 r1=1"};
  CHECK(outcomes(sb, tso) == weak);
  CHECK(outcomes(sb, gpu) == weak);
  // Fences between the store and the load forbid it under every model.
  const LitmusProgram sb_fences =
      program(2, 1, 2, {{store(x, 1), fence(), load(y, 0)}, {store(y, 1), fence(), load(x, 1)}});
  for (ReferenceModel model : {sc, tso, gpu})
    CHECK(outcomes(sb_fences, model) == Outcomes{"x=1 y=1 r0=0 r1=1", "x=1 y=1 r0=1 r1=0", "x=1 y=1 r0=1 r1=1"});
}

TEST_CASE("reference: message passing, r0=1 r1=0 under gpu only, forbidden by fences of device scope",
          "[reference][model]") {
  const Outcomes strong = {"x=1 y=1 r0=0 r1=0", "x=1 y=1 r0=0 r1=1", "x=1 y=1 r0=1 r1=1"};
  Outcomes weak = strong;
  weak.insert("x=1 y=1 r0=1 r1=0");
  const LitmusProgram mp = program(2, 1, 2, {{store(x, 1), store(y, 1)}, {load(y, 0), load(x, 1)}});
  CHECK(outcomes(mp, sc) == strong);
  CHECK(outcomes(mp, tso) == strong);
  CHECK(outcomes(mp, gpu) == weak);
  const LitmusProgram mp_fences =
      program(2, 1, 2, {{store(x, 1), fence(), store(y, 1)}, {load(y, 0), fence(), load(x, 1)}});
  for (ReferenceModel model : {sc, tso, gpu}) CHECK(outcomes(mp_fences, model) == strong);
  // Block-scope fences synchronize only within a block: between blocks gpu allows it, within
  // one block (one warp here) they forbid it.
  const std::vector<std::vector<LitmusOp>> block_fenced = {
      {store(x, 1), fence(LitmusScope::Block), store(y, 1)}, {load(y, 0), fence(LitmusScope::Block), load(x, 1)}};
  CHECK(outcomes(program(2, 1, 2, block_fenced), gpu) == weak);
  CHECK(outcomes(program(1, 2, 2, block_fenced), gpu) == strong);
  // An atomic flag orders nothing (relaxed atomics): written by atomicExch, read by
  // atomicAdd(&y, 0).
  const LitmusProgram flag = program(
      2, 1, 2, {{store(x, 1), atomic(LitmusRmw::Exch, y, 1)}, {atomic(LitmusRmw::Add, y, 0, 0), load(x, 1)}});
  CHECK(outcomes(flag, tso) == strong);
  CHECK(outcomes(flag, gpu) == weak);
}

TEST_CASE("reference: coherence of reads (CoRR), r0=1 r1=0 forbidden", "[reference][model]") {
  const LitmusProgram corr = program(2, 1, 1, {{store(x, 1)}, {load(x, 0), load(x, 1)}});
  for (ReferenceModel model : {sc, tso, gpu})
    CHECK(outcomes(corr, model) == Outcomes{"x=1 r0=0 r1=0", "x=1 r0=0 r1=1", "x=1 r0=1 r1=1"});
  // A thread reads its own store, buffered or drained (CoWR).
  const LitmusProgram cowr = program(2, 1, 1, {{store(x, 1), load(x, 0)}, {store(x, 2)}});
  for (ReferenceModel model : {sc, tso, gpu})
    CHECK(outcomes(cowr, model) == Outcomes{"x=1 r0=1", "x=2 r0=1", "x=2 r0=2"});
}

TEST_CASE("reference: atomics read the newest value and append, also a failing CAS, atomicInc, atomicDec",
          "[reference][model]") {
  // Two increments never lose one; each reads the other's result or the initial value.
  const LitmusProgram adds = program(2, 1, 1, {{atomic(LitmusRmw::Add, x, 1, 0)}, {atomic(LitmusRmw::Add, x, 1, 1)}});
  for (ReferenceModel model : {sc, tso, gpu}) CHECK(outcomes(adds, model) == Outcomes{"x=2 r0=0 r1=1", "x=2 r0=1 r1=0"});
  // CAS against 0: one of two succeeds; the other fails and leaves the winner's value.
  const LitmusProgram cas = program(
      2, 1, 1, {{atomic(LitmusRmw::Cas, x, 7, 0, 0)}, {atomic(LitmusRmw::Cas, x, 8, 1, 0)}});
  for (ReferenceModel model : {sc, tso, gpu}) CHECK(outcomes(cas, model) == Outcomes{"x=7 r0=0 r1=7", "x=8 r0=8 r1=0"});
  // atomicInc wraps to 0 at its operand; atomicDec wraps from 0 to its operand (PG 10.14.1).
  LitmusProgram wrap = program(1, 1, 2, {{atomic(LitmusRmw::Inc, x, 2, 0), atomic(LitmusRmw::Dec, y, 3, 1)}});
  wrap.initial = {2, 0};
  for (ReferenceModel model : {sc, tso, gpu}) CHECK(outcomes(wrap, model) == Outcomes{"x=0 y=3 r0=2 r1=0"});
  // Under gpu a failing CAS still appends and raises the thread's view: after it the thread
  // cannot read older than the entry it found.
  const LitmusProgram failing = program(
      2, 1, 1, {{store(x, 1)}, {atomic(LitmusRmw::Cas, x, 5, 0, 99), load(x, 1)}});
  CHECK(outcomes(failing, gpu) == Outcomes{"x=1 r0=0 r1=0", "x=1 r0=0 r1=1", "x=1 r0=1 r1=1"});
}

TEST_CASE("reference: barriers drain and join, and exited threads are not waited for", "[reference][model]") {
  // Message passing across __syncthreads within a block: always r0=1.
  const LitmusProgram mp = program(1, 2, 1, {{store(x, 1), syncthreads()}, {syncthreads(), load(x, 0)}});
  for (ReferenceModel model : {sc, tso, gpu}) CHECK(outcomes(mp, model) == Outcomes{"x=1 r0=1"});
  // Thread 0 exits without the barrier: thread 1's barrier waits for its exit, not for its
  // buffered store, so only sc must read 1.
  const LitmusProgram exited = program(1, 2, 1, {{store(x, 1)}, {syncthreads(), load(x, 0)}});
  CHECK(outcomes(exited, sc) == Outcomes{"x=1 r0=1"});
  CHECK(outcomes(exited, tso) == Outcomes{"x=1 r0=0", "x=1 r0=1"});
  CHECK(outcomes(exited, gpu) == Outcomes{"x=1 r0=0", "x=1 r0=1"});
  // __syncwarp with a partial mask orders only its lanes: lane 2 reads either value.
  const LitmusProgram warp =
      program(1, 3, 1, {{store(x, 1), syncwarp(0x3)}, {syncwarp(0x3), load(x, 0)}, {load(x, 1)}});
  CHECK(outcomes(warp, gpu) == Outcomes{"x=1 r0=1 r1=0", "x=1 r0=1 r1=1"});
  // A lane of the mask that never arrives leaves the others waiting (litmus_program.h's rules
  // exclude such a program; the reference names the deadlock).
  const LitmusProgram stuck = program(1, 2, 1, {{store(x, 1), syncwarp(0x3)}, {load(x, 0)}});
  CHECK(!check_litmus_program(stuck).empty());
  CHECK(explore_reference(stuck, gpu).outcomes == Outcomes{"deadlock"});
}

// Issue 68: outcomes the models allow because a barrier's release may come after other
// threads' steps (and drains) that follow the last arrival; fencelab's search missed each.
TEST_CASE("reference: issue 68, the barrier release is a step of its own", "[reference][model][issue68]") {
  for (const Issue68Example& example : issue68_examples()) {
    INFO(example.name);
    CHECK(outcomes(example.program, sc) == example.sc);
    CHECK(outcomes(example.program, tso) == example.tso);
    CHECK(outcomes(example.program, gpu) == example.gpu);
  }
}

TEST_CASE("litmus programs: the generator is deterministic, well formed and makes issue 68's shapes",
          "[reference][generator]") {
  uint32_t partial_warp_after_store = 0, syncthreads_after_store = 0, other_block_updates = 0, arrive_only = 0,
           early_exit = 0;
  const uint32_t count = 1000;
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const LitmusProgram p = generate_litmus_program(seed);
    INFO("seed " << seed << "\n" << render_litmus_kernel(p));
    REQUIRE(check_litmus_program(p).empty());
    CHECK(render_litmus_kernel(generate_litmus_program(seed)) == render_litmus_kernel(p));
    REQUIRE(p.threads.size() <= 4);
    std::vector<uint32_t> drained_by_block(p.blocks, 0); // location bits stored right before a barrier
    bool partial = false, syncthreads_drain = false, updates = false, arrives = false, exits = false;
    for (uint32_t t = 0; t < p.threads.size(); ++t) {
      const std::vector<LitmusOp>& ops = p.threads[t].ops;
      bool only_barriers = !ops.empty();
      for (size_t i = 0; i < ops.size(); ++i) {
        const bool barrier = ops[i].kind == LitmusOpKind::Syncthreads || ops[i].kind == LitmusOpKind::Syncwarp;
        only_barriers = only_barriers && barrier;
        if (!barrier || i == 0 || ops[i - 1].kind != LitmusOpKind::Store) continue;
        drained_by_block[p.block_of(t)] |= 1u << ops[i - 1].location;
        if (ops[i].kind == LitmusOpKind::Syncthreads) syncthreads_drain = true;
        else if (ops[i].mask != (1u << p.threads_per_block) - 1) partial = true;
      }
      arrives = arrives || only_barriers;
    }
    for (uint32_t b = 0; b < p.blocks; ++b) {
      uint32_t most = 0;
      for (uint32_t lane = 0; lane < p.threads_per_block; ++lane) {
        const auto& ops = p.threads[b * p.threads_per_block + lane].ops;
        most = std::max<uint32_t>(most, uint32_t(std::count_if(ops.begin(), ops.end(), [](const LitmusOp& op) {
                                    return op.kind == LitmusOpKind::Syncthreads;
                                  })));
      }
      for (uint32_t lane = 0; lane < p.threads_per_block; ++lane) {
        const auto& ops = p.threads[b * p.threads_per_block + lane].ops;
        exits = exits || uint32_t(std::count_if(ops.begin(), ops.end(), [](const LitmusOp& op) {
                           return op.kind == LitmusOpKind::Syncthreads;
                         })) < most;
      }
    }
    for (uint32_t t = 0; t < p.threads.size(); ++t)
      for (const LitmusOp& op : p.threads[t].ops) {
        const bool reads_or_updates = op.kind == LitmusOpKind::Load || op.kind == LitmusOpKind::Atomic;
        for (uint32_t b = 0; b < p.blocks; ++b)
          if (b != p.block_of(t) && reads_or_updates && (drained_by_block[b] >> op.location & 1) != 0) updates = true;
      }
    partial_warp_after_store += partial;
    syncthreads_after_store += syncthreads_drain;
    other_block_updates += updates;
    arrive_only += arrives;
    early_exit += exits;
  }
  WARN("of " << count << " programs: " << partial_warp_after_store << " with a store right before a partial __syncwarp, "
             << syncthreads_after_store << " before a __syncthreads, " << other_block_updates
             << " with another block reading or updating a location stored before a barrier, " << arrive_only
             << " with a thread that only arrives, " << early_exit << " with a thread that exits before a barrier");
  CHECK(partial_warp_after_store >= count / 10);
  CHECK(syncthreads_after_store >= count / 5);
  CHECK(other_block_updates >= count / 10);
  CHECK(arrive_only >= count / 10);
  CHECK(early_exit >= count / 50);
}
