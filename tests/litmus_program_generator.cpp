// The generator of litmus programs (litmus_program.h): barrier-heavy shapes for the reference
// model's differential tests, weighted so that issue 68's shapes are frequent.
//
// A program is planned block by block (BlockPlan): how many __syncthreads the block runs, the
// block's __syncwarp masks in each phase between them (each lane takes, in order, those that
// name it, so every mask completes), when each lane exits, and each lane's role, which decides
// what it does between its barriers:
// - Writer: stores (now and then an atomic) right before each barrier or exit: the buffered
//   stores a barrier release drains;
// - Observer: reads, CAS (succeeding or failing), atomicAdd(&x, 0), other atomics and stores
//   on the locations the writers wrote;
// - Arriver: nothing but its barriers;
// - General: any operation.
// The late-release flavour writes its threads' lists directly (issue 68's examples, varied).
// The values stores, exchanges and CAS write are distinct (1, 2, 3, ...): an outcome shows
// which of them a read found.
#include "fencelab/explore/exploration.h"
#include "litmus_program.h"

#include <algorithm>

namespace fencelab::testing {

namespace {

enum class Role : uint8_t { Writer, Observer, Arriver, General };

struct BlockPlan {
  uint32_t syncthreads = 0;                      ///< the block's __syncthreads count
  std::vector<std::vector<uint32_t>> warp_masks; ///< per phase (syncthreads + 1): its __syncwarp masks, in order
  std::vector<uint32_t> last_phase;              ///< per lane: the phase it exits after (syncthreads: runs to the end)
  std::vector<Role> roles;                       ///< per lane
};

class Generator {
public:
  explicit Generator(uint64_t seed) : m_random(seed) {}

  LitmusProgram generate(LitmusShape shape) {
    if (shape == LitmusShape::Any) shape = draw_shape();
    switch (shape) {
    case LitmusShape::BarrierDrain: barrier_drain(); break;
    case LitmusShape::WarpMasks: warp_masks(); break;
    case LitmusShape::Arrivals: arrivals(); break;
    case LitmusShape::LateRelease: late_release(); break;
    default: mixed(); break;
    }
    static const char* kNames[] = {"any", "mixed", "barrier-drain", "warp-masks", "arrivals", "late-release"};
    m_program.shape = kNames[uint32_t(shape)];
    return m_program;
  }

private:
  SplitMix64 m_random;
  LitmusProgram m_program;
  std::vector<BlockPlan> m_plans;
  int32_t m_next_value = 1;
  std::vector<std::vector<int32_t>> m_written; ///< per location: the values some op may write there
  std::vector<uint32_t> m_drained;             ///< locations writers stored to before a barrier
  /** Operations (barriers aside) the program may still get: 3 to 6 in all, so that fencelab's
   *  plain search of most programs fits the differential test's budget. */
  uint32_t m_ops_left = 0;

  bool chance(uint32_t percent) { return m_random.below(100) < percent; }
  uint32_t pick(uint32_t n) { return m_random.below(n); }

  // Weights: issue 68's shapes first (BarrierDrain 25%, LateRelease 20%, WarpMasks 25%,
  // Arrivals 15%), the mixed programs the rest.
  LitmusShape draw_shape() {
    const uint32_t draw = pick(100);
    return draw < 25   ? LitmusShape::BarrierDrain
           : draw < 45 ? LitmusShape::LateRelease
           : draw < 70 ? LitmusShape::WarpMasks
           : draw < 85 ? LitmusShape::Arrivals
                       : LitmusShape::Mixed;
  }

  void launch(uint32_t blocks, uint32_t per_block, uint32_t locations) {
    m_program.blocks = blocks;
    m_program.threads_per_block = per_block;
    m_program.threads.assign(blocks * per_block, {});
    m_program.initial.clear();
    for (uint32_t l = 0; l < locations; ++l) m_program.initial.push_back(chance(20) ? 5 + int32_t(l) : 0);
    m_written.assign(locations, {});
    for (uint32_t l = 0; l < locations; ++l) m_written[l].push_back(m_program.initial[l]);
    m_plans.assign(blocks, {});
    m_ops_left = 3 + pick(4);
  }

  /** A plan of `syncthreads` barriers where every lane runs to the end in `role`. */
  BlockPlan& plan(uint32_t block, uint32_t syncthreads, Role role) {
    BlockPlan& p = m_plans[block];
    p.syncthreads = syncthreads;
    p.warp_masks.assign(syncthreads + 1, {});
    p.last_phase.assign(m_program.threads_per_block, syncthreads);
    p.roles.assign(m_program.threads_per_block, role);
    return p;
  }

  /** A random non-empty mask over the lanes of `plan` still running in `phase`; full (every
   *  such lane) when `full`. */
  uint32_t mask(const BlockPlan& plan, uint32_t phase, bool full) {
    std::vector<uint32_t> lanes;
    for (uint32_t lane = 0; lane < plan.last_phase.size(); ++lane)
      if (plan.last_phase[lane] >= phase) lanes.push_back(lane);
    if (lanes.empty()) return 0;
    uint32_t m = 0;
    if (full) {
      for (uint32_t lane : lanes) m |= 1u << lane;
      return m;
    }
    while (m == 0)
      for (uint32_t lane : lanes)
        if (chance(50)) m |= 1u << lane;
    return m;
  }

  void add_warp_barrier(BlockPlan& plan, uint32_t phase, bool full) {
    if (const uint32_t m = mask(plan, phase, full)) plan.warp_masks[phase].push_back(m);
  }

  uint32_t location() { return pick(uint32_t(m_program.initial.size())); }
  /** Mostly one a writer stored to before a barrier, when there is one. */
  uint32_t observed_location() {
    if (!m_drained.empty() && chance(80)) return m_drained[pick(uint32_t(m_drained.size()))];
    return location();
  }
  int32_t fresh(uint32_t loc) {
    m_written[loc].push_back(m_next_value);
    return m_next_value++;
  }
  int32_t new_register() { return int32_t(m_program.registers++); }

  LitmusOp store(uint32_t loc) {
    LitmusOp op;
    op.kind = LitmusOpKind::Store;
    op.location = loc;
    op.value = fresh(loc);
    return op;
  }
  LitmusOp load(uint32_t loc) {
    LitmusOp op;
    op.kind = LitmusOpKind::Load;
    op.location = loc;
    op.result = new_register();
    return op;
  }
  LitmusOp fence() {
    LitmusOp op;
    op.kind = LitmusOpKind::Fence;
    op.scope = LitmusScope(pick(3));
    return op;
  }
  LitmusOp atomic(uint32_t loc, LitmusRmw rmw, bool observed) {
    LitmusOp op;
    op.kind = LitmusOpKind::Atomic;
    op.location = loc;
    op.rmw = rmw;
    const uint32_t scope = pick(10); // plain 60%, _block 20%, _system 20%
    op.scope = scope < 6 ? LitmusScope::Device : scope < 8 ? LitmusScope::Block : LitmusScope::System;
    switch (rmw) {
    case LitmusRmw::Exch: op.value = fresh(loc); break;
    case LitmusRmw::Cas: {
      // The compared value: one the location may hold (its initial value or one stored
      // there), or one it never holds, so a CAS may succeed or fail.
      const std::vector<int32_t>& candidates = m_written[loc];
      op.compare = chance(25) ? 99 : candidates[pick(uint32_t(candidates.size()))];
      op.value = fresh(loc);
      break;
    }
    case LitmusRmw::Add: op.value = int32_t(pick(4)); break; // 0: atomicAdd(&x, 0), a read that appends
    case LitmusRmw::Sub:
    case LitmusRmw::Inc:
    case LitmusRmw::Dec: op.value = 1 + int32_t(pick(3)); break;
    case LitmusRmw::Min:
    case LitmusRmw::Max: op.value = int32_t(pick(7)); break;
    default: op.value = 1 + int32_t(pick(7)); break; // And, Or, Xor
    }
    if (observed) op.result = new_register();
    return op;
  }
  LitmusOp any_atomic(uint32_t loc) { return atomic(loc, LitmusRmw(pick(11)), chance(60)); }

  LitmusOp writer_op() {
    const uint32_t loc = location();
    if (chance(75)) return store(loc);
    return chance(50) ? atomic(loc, LitmusRmw::Exch, chance(40)) : any_atomic(loc);
  }
  LitmusOp observer_op() {
    const uint32_t loc = observed_location();
    const uint32_t draw = pick(100);
    if (draw < 30) return load(loc);
    if (draw < 48) return atomic(loc, LitmusRmw::Cas, chance(70));
    if (draw < 62) {
      LitmusOp op = atomic(loc, LitmusRmw::Add, chance(70));
      op.value = 0;
      return op;
    }
    if (draw < 72) return any_atomic(loc);
    if (draw < 95) return store(loc);
    return fence();
  }
  LitmusOp general_op() {
    const uint32_t draw = pick(10);
    if (draw < 3) return store(location());
    if (draw < 6) return load(location());
    if (draw < 8) return any_atomic(location());
    return fence();
  }

  /** Appends `op`, counting it against the program's budget of operations. */
  void add(std::vector<LitmusOp>& ops, const LitmusOp& op) {
    ops.push_back(op);
    if (m_ops_left > 0) --m_ops_left;
  }
  bool room() const { return m_ops_left > 0; }

  /** What a lane of `role` does between two of its barriers (or before its exit, `before_wait`
   *  then true; false for the code after its last barrier). A writer's first store and an
   *  observer's first access are always made, so that each program has its shape; the rest
   *  only while the program's budget of operations lasts. */
  void chunk(Role role, bool before_wait, std::vector<LitmusOp>& ops) {
    switch (role) {
    case Role::Arriver: return;
    case Role::Writer:
      if (!before_wait) {
        if (room() && chance(40)) add(ops, chance(50) ? load(location()) : store(location()));
        return;
      }
      for (uint32_t i = 0, n = 1 + pick(2); i < n && (i == 0 || room()); ++i) {
        add(ops, writer_op());
        m_drained.push_back(ops.back().location);
      }
      // Now and then a read or an atomic last: a step after which another thread may run
      // before the release drains the stores (issue 68's examples 1, 3 and 4).
      if (room() && chance(45)) add(ops, chance(50) ? load(location()) : atomic(location(), LitmusRmw::Exch, chance(50)));
      return;
    case Role::Observer:
      for (uint32_t i = 0, n = 1 + pick(2); i < n && (i == 0 || room()); ++i) add(ops, observer_op());
      return;
    case Role::General:
      for (uint32_t i = 0, n = pick(3); i < n && room(); ++i) add(ops, general_op());
      return;
    }
  }

  /** The ops of every lane of `block` from its plan: per phase, the lane's chunks between the
   *  warp barriers that name it, then __syncthreads unless it exits. Writers first, so that
   *  observers find the locations they drained. */
  void build(uint32_t block) {
    const BlockPlan& plan = m_plans[block];
    for (const bool writers : {true, false})
      for (uint32_t lane = 0; lane < m_program.threads_per_block; ++lane)
        if ((plan.roles[lane] == Role::Writer) == writers) build_lane(block, lane);
  }

  void build_lane(uint32_t block, uint32_t lane) {
    const BlockPlan& plan = m_plans[block];
    std::vector<LitmusOp>& ops = m_program.threads[block * m_program.threads_per_block + lane].ops;
    for (uint32_t phase = 0; phase <= plan.last_phase[lane]; ++phase) {
      for (uint32_t m : plan.warp_masks[phase]) {
        if ((m >> lane & 1) == 0) continue;
        chunk(plan.roles[lane], true, ops);
        LitmusOp wait;
        wait.kind = LitmusOpKind::Syncwarp;
        wait.mask = m;
        ops.push_back(wait);
      }
      const bool waits_after = phase < plan.syncthreads; // at __syncthreads, or exits early
      chunk(plan.roles[lane], waits_after, ops);
      if (phase < plan.last_phase[lane]) {
        LitmusOp wait;
        wait.kind = LitmusOpKind::Syncthreads;
        ops.push_back(wait);
      }
    }
  }

  // Every kind of operation, a barrier now and then (the litmus_generator.h shapes).
  void mixed() {
    static constexpr uint32_t kShapes[][2] = {{1, 2}, {1, 3}, {1, 4}, {2, 1}, {2, 2}};
    const auto& shape = kShapes[pick(5)];
    launch(shape[0], shape[1], 1 + pick(3));
    for (uint32_t b = 0; b < shape[0]; ++b) {
      BlockPlan& p = plan(b, chance(30) ? 1 : 0, Role::General);
      if (p.syncthreads > 0 && shape[1] > 1 && chance(20)) p.last_phase[pick(shape[1])] = 0;
      for (uint32_t phase = 0; phase <= p.syncthreads; ++phase)
        if (chance(25)) add_warp_barrier(p, phase, chance(30));
      build(b);
    }
  }

  // Issue 68: a block whose threads store (or exchange) and then wait at a barrier, and
  // another block whose threads read, CAS, add (atomicAdd(&x, 0) too) or store the locations
  // that barrier drains; now and then the observing block has a barrier of its own.
  void barrier_drain() {
    const uint32_t per_block = 1 + pick(2);
    launch(2, per_block, 1 + pick(2));
    const uint32_t writers = pick(2), observers = 1 - writers;
    BlockPlan& w = plan(writers, chance(70) ? 1 : 0, Role::Writer);
    if (w.syncthreads == 0) add_warp_barrier(w, 0, chance(40));
    if (per_block == 2 && chance(20)) w.roles[pick(2)] = Role::Arriver;
    build(writers);
    BlockPlan& o = plan(observers, chance(25) ? 1 : 0, Role::Observer);
    if (per_block == 2 && chance(30)) o.roles[pick(2)] = Role::General;
    build(observers);
  }

  // __syncwarp with partial and full masks in one warp: lanes of the mask store before it,
  // the others read and update; now and then a second block of one observing thread.
  void warp_masks() {
    const bool second_block = chance(25);
    const uint32_t per_block = second_block ? 2 : 2 + pick(3);
    launch(second_block ? 2 : 1, per_block, 1 + pick(3));
    BlockPlan& p = plan(0, chance(20) ? 1 : 0, Role::Observer);
    for (uint32_t phase = 0; phase <= p.syncthreads; ++phase)
      for (uint32_t i = 0, n = 1 + (chance(30) ? 1 : 0); i < n; ++i) add_warp_barrier(p, phase, chance(30));
    for (uint32_t lane = 0; lane < per_block; ++lane) {
      bool in_a_mask = false;
      for (const auto& masks : p.warp_masks)
        for (uint32_t m : masks) in_a_mask = in_a_mask || (m >> lane & 1) != 0;
      if (in_a_mask) p.roles[lane] = chance(65) ? Role::Writer : chance(50) ? Role::Arriver : Role::General;
    }
    build(0);
    if (second_block) {
      plan(1, 0, Role::Observer);
      m_plans[1].roles[1] = Role::Arriver;
      build(1);
    }
  }

  // Issue 68's examples, varied: a thread stores to L, then takes a step E on M (a store or
  // an exchange, or a read: a load, a CAS, atomicAdd(&m, 0)) and waits at a barrier whose
  // release may come after other threads' steps; another thread (of another block, or a lane
  // outside the __syncwarp's mask) reads M after E's write, or writes M before E's read, and
  // then stores to or reads L, so that the outcome shows L's store drained after it. The
  // barrier's other lanes only arrive (or exit at once).
  void late_release() {
    const bool warp = chance(30); // a __syncwarp in one block; else __syncthreads, two blocks
    const uint32_t locations = chance(20) ? 3 : 2, per_block = warp ? 2 + pick(2) : 1 + pick(2);
    launch(warp ? 1 : 2, per_block, locations);
    const uint32_t l = pick(locations), m = (l + 1 + pick(locations - 1)) % locations;
    const uint32_t drainer_block = warp ? 0 : pick(2);
    const uint32_t drainer = drainer_block * per_block, observer = warp ? 1 : (1 - drainer_block) * per_block;
    std::vector<LitmusOp>& d = m_program.threads[drainer].ops;
    add(d, store(l));
    m_drained.push_back(l);
    const bool step_writes = chance(60);
    if (step_writes) add(d, chance(50) ? store(m) : atomic(m, LitmusRmw::Exch, chance(40)));
    else if (chance(50)) add(d, load(m));
    else add(d, zero_add_or_cas(m));
    LitmusOp wait;
    wait.kind = warp ? LitmusOpKind::Syncwarp : LitmusOpKind::Syncthreads;
    wait.mask = 1;
    for (uint32_t lane = 2; warp && lane < per_block; ++lane)
      if (chance(50)) wait.mask |= 1u << lane;
    d.push_back(wait);
    if (chance(30)) add(d, load(chance(50) ? l : m));
    // The barrier's other lanes: arrivals only (or, at __syncthreads, now and then an exit).
    for (uint32_t lane = 1; lane < per_block; ++lane) {
      const uint32_t t = drainer_block * per_block + lane;
      if (warp ? (wait.mask >> lane & 1) != 0 : chance(75)) m_program.threads[t].ops.push_back(wait);
    }
    std::vector<LitmusOp>& o = m_program.threads[observer].ops;
    if (!step_writes) add(o, store(m));
    else if (chance(50)) add(o, load(m));
    else add(o, zero_add_or_cas(m));
    add(o, chance(60) ? store(l) : load(l));
    if (!warp && per_block == 2 && chance(50)) add(m_program.threads[observer + 1].ops, general_op());
  }

  /** A read that appends: atomicAdd(&m, 0), or a CAS that may fail; its result observed. */
  LitmusOp zero_add_or_cas(uint32_t loc) {
    if (chance(50)) return atomic(loc, LitmusRmw::Cas, true);
    LitmusOp op = atomic(loc, LitmusRmw::Add, true);
    op.value = 0;
    return op;
  }

  // Threads that only arrive: a block with one or two __syncthreads, a writer, one or two
  // lanes with nothing but the barriers, now and then a lane that exits before the last
  // barrier; a second block (when there is room) observes.
  void arrivals() {
    const bool second_block = chance(50);
    const uint32_t per_block = second_block ? 2 : 2 + pick(3);
    launch(second_block ? 2 : 1, per_block, 1 + pick(2));
    BlockPlan& p = plan(0, 1 + (chance(30) ? 1 : 0), Role::Arriver);
    p.roles[pick(per_block)] = Role::Writer;
    for (uint32_t lane = 0; lane < per_block; ++lane)
      if (p.roles[lane] == Role::Arriver && chance(30)) {
        p.roles[lane] = chance(50) ? Role::Observer : Role::Writer;
        if (chance(50)) p.last_phase[lane] = pick(p.syncthreads); // exits early
      }
    if (chance(30)) add_warp_barrier(p, 0, chance(50));
    build(0);
    if (second_block) {
      plan(1, chance(20) ? 1 : 0, Role::Observer);
      build(1);
    }
  }
};

} // namespace

LitmusProgram generate_litmus_program(uint64_t seed, LitmusShape shape) { return Generator(seed).generate(shape); }

} // namespace fencelab::testing
