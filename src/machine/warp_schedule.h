// Warps in the Machine: the rendezvous of warp operations, and the lockstep scheduler.
//
// Warp operations (Programming Guide 10.21-10.22, __syncwarp in 10.6):
// - Each mask-taking operation (__shfl*_sync, __ballot_sync, __any_sync, __all_sync,
//   __syncwarp) is a rendezvous of the lanes in its mask. A lane arriving waits (like a
//   barrier arrival, not a scheduling decision) until every lane of the mask waits at a warp
//   operation with the same mask; then the operation completes for all of them at once: the
//   values are exchanged (warp_operations.h), __syncwarp drains and joins the participants'
//   views (MemoryModel::barrier), one Warp event is emitted, and the lanes run on, in lane
//   order, to their next visible event before the scheduler decides anything. A __syncwarp
//   whose lanes have stores buffered completes when the scheduler picks it instead (a
//   DueRelease, as a __syncthreads that drains: docs/architecture.md, "Barrier releases").
// - A mask without the calling lane is a runtime error (invalid warp mask), as is a width that
//   is not a power of two in [1, 32], and lanes of one mask performing different operations.
// - A lane of the mask that has exited, does not exist (a partial warp), or never reaches a
//   warp operation with that mask leaves the others waiting: the execution ends in deadlock,
//   and the message names the warp, the mask and the lanes missing.
// - A shuffle whose source lane is outside the mask reads an undefined value: the Machine
//   records a warning (ExecutionResult::warnings, and the Warp event says so) and picks the
//   value through the choice interface (ChoiceKind::Value) between 0 and the reading lane's
//   own `var` (one option when they are equal), so outcomes that depend on it show up.
// - __activemask() is a visible event but no rendezvous. Under ITS "the lanes currently active"
//   are defined as the lanes that perform that very call together: when a lane's __activemask
//   is scheduled, every lane of its warp that is suspended before the same call (same source
//   location, same call stack) and has not performed it yet performs it with it; all of them
//   get the mask of that group. Under lockstep that is the warp's active group.
//
// Lockstep (pre-Volta, --warp lockstep): the scheduler's options are warps, not threads. A warp
// step takes the warp's lanes that are suspended before a visible event, groups them by
// program point (the call sites of their frames, then the source position of the event), and
// runs the group at the earliest program point in source order: each lane of the group, in
// lane order, performs its event and runs on to its next one. Earliest-first runs the
// then-branch before the else-branch, and a loop's remaining iterations before the code after
// it, so diverged lanes reconverge at the end of the branch or loop (an approximation of the
// SIMT reconvergence stack by source order: a divergent `continue` reconverges late). After
// each step the warp's live lanes drain and join views (MemoryModel::barrier): a warp's
// memory operations of one step are visible within the warp before its next step.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/machine/machine.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fencelab {

struct SimThread;

/** A lane's part in a warp operation (while it waits, and its result after). */
struct WarpLaneState {
  Builtin op = Builtin::Syncwarp;
  SourceRange range;
  uint32_t mask = 0;
  Word value = 0;        ///< shuffle: var; votes: the predicate (0 or 1)
  Type value_type;
  int64_t lane_arg = 0;  ///< srcLane, delta or laneMask
  uint32_t width = kWarpSize;
  Word result = 0;       ///< set when the operation completes
  bool activemask_given = false; ///< performed __activemask with a group-mate: result is set
  friend bool operator==(const WarpLaneState&, const WarpLaneState&) = default;
};

/** Per-execution warp state of the Machine. */
struct WarpRuntime {
  /** Lanes whose warp operation completed, to run on to their next visible event. */
  std::vector<uint32_t> released;
  /** Lockstep: the warps offered at the current decision, each with its group's lanes. */
  struct Unit {
    uint32_t block_slot = 0;
    uint32_t block_index = 0; ///< linear index of the block, to notice a retired block
    uint32_t warp = 0;
    std::vector<uint32_t> lanes; ///< thread slots, in lane order
  };
  /** units[0, unit_count): the current decision's; the rest keep their memory for later ones. */
  std::vector<Unit> units;
  uint32_t unit_count = 0;
  std::vector<ThreadRef> step_lanes; ///< step_warp's scratch: the warp's lanes it synchronizes
  /** Lockstep's scratch: a suspended lane, keyed by its warp ((block slot << 32) | warp). */
  struct Candidate {
    uint64_t warp_key;
    uint32_t order; ///< in the ready list, then the spinning list
    uint32_t slot;
    bool spinning;
  };
  std::vector<Candidate> candidates;
  std::vector<RuntimeErrorReport> warnings;
};

/** A Warp-category builtin called by `thread` with evaluated `args` (on the thread's fiber). */
Word perform_warp_builtin(Machine::Impl& machine, SimThread& thread, const Call& call,
                          std::span<const Word> args);
/** The scheduler saw `thread` suspend at a warp operation: completes it if every lane is there. */
void warp_lane_arrived(Machine::Impl& machine, SimThread& thread);
/** Completes the `__syncwarp` of these lanes (thread slots in lane order), a DueRelease the
 *  scheduler picked: it drains and joins, and the lanes run on. */
void complete_due_warp_release(Machine::Impl& machine, const std::vector<uint32_t>& slots);
/** Runs lanes released by completed warp operations on to their next visible event. */
void run_released_lanes(Machine::Impl& machine);
/** Lockstep: the number of warps that can step now (computes WarpRuntime::units). */
uint32_t lockstep_units(Machine::Impl& machine);
/** Lockstep: performs one step of unit `index` of the last lockstep_units(). */
void step_warp(Machine::Impl& machine, uint32_t index);
/** Why lanes wait at warp operations forever, or empty when none waits. */
std::string warp_deadlock_message(const Machine::Impl& machine);

} // namespace fencelab
