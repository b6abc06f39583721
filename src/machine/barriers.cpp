// __syncthreads: arriving, the release (the model drains and joins; the _count/_and/_or
// results), and recognising a barrier loop that can never end (see machine_impl.h).
#include "machine_impl.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <fmt/format.h>

namespace fencelab {

namespace {

/** Calls f(i) for every set bit i of `bits` (bit i in word i / 64), in increasing order. */
template <class F> void for_each_bit(const std::vector<uint64_t>& bits, F&& f) {
  for (size_t word = 0; word < bits.size(); ++word)
    for (uint64_t rest = bits[word]; rest != 0; rest &= rest - 1)
      f(static_cast<uint32_t>(word * 64 + std::countr_zero(rest)));
}

} // namespace

void Machine::Impl::release_barrier(ResidentBlock& block, bool scheduled) {
  // __syncthreads: "waits until all threads in the thread block have reached this point and
  // all global and shared memory accesses made by these threads prior to __syncthreads() are
  // visible to all threads in the block" (Programming Guide 10.6). The model drains and joins.
  // The participants are known from the block's bits, without reading their SimThreads, which
  // a large grid has left cold: those are read once, below, each prefetched ahead.
  const uint32_t block_slot = static_cast<uint32_t>(&block - blocks.data());
  std::vector<ThreadRef>& participants = block.participants; // kept: no allocation per release
  participants.clear();
  for_each_bit(block.waiting_bits, [&](uint32_t index) { participants.push_back(thread_ref(block, block_slot, index)); });
  // A release that drains buffered stores is a step the scheduler takes when it chooses: other
  // threads may run after the last arrival and before those stores land (docs/architecture.md,
  // "Barrier releases"). Until then nothing of the block changes: every live thread waits.
  if (!scheduled && model->barrier_drains(participants)) {
    due_releases.push_back(DueRelease{ObjectId::barrier(block_slot), block_slot, {}});
    return;
  }
  const Word count = block.predicates_set;
  bool all_quiet = true; // every participant's arrival was quiet
  for (size_t word = 0; word < block.waiting_bits.size(); ++word)
    all_quiet = all_quiet && (block.waiting_bits[word] & ~block.quiet_bits[word]) == 0;
  std::fill(block.waiting_bits.begin(), block.waiting_bits.end(), 0);
  std::fill(block.quiet_bits.begin(), block.quiet_bits.end(), 0);
  block.predicates_set = 0;
  if (barrier_loop_detected(block, participants, all_quiet)) return;
  // The release is a step of its own for the reduction, by the block's barrier: attributed to
  // whichever arrival came last, it would make every arrival order look different. One that
  // drains nothing follows the last arrival at once (a scheduled one is the step chosen).
  if (recording_footprints && !scheduled) announce_at_once_step(ObjectId::barrier(block_slot));
  model->barrier(participants);
  // After the model's drains: the participants run on only once their buffers are empty, and
  // the reduction orders what they do next after those drains (dpor.cpp, collect_events).
  if (recording_footprints) {
    for (uint32_t slot : block.thread_slots) touch(ObjectId::arrival(slot), false);
    for (const ThreadRef& ref : participants) touch(ObjectId::thread(ref.slot.value), true);
  }
  // Every release fills the same event, whose lists keep their memory (issue 12: no heap
  // allocation per release for the checkers).
  const bool observed = observing();
  Event& e = release_event;
  if (observed) e.waiting.clear();
  const size_t count_participants = participants.size();
  // The first resumptions' SimThreads, before the event's checkers have their turn (the loop
  // below prefetches the rest, each 16 resumptions ahead).
  if (prefetching)
    for (size_t i = 0; i < std::min<size_t>(16, count_participants); ++i)
      prefetch_thread(threads[participants[i].slot.value], PrefetchReach::BarrierRound);
  if (observed) {
    // Its text only for observers that read text. The participants' barriers are the ranges
    // their arrivals left in the block (count_barrier_arrival), not read from their
    // SimThreads, which a large grid has left cold: those are first read at their resumptions,
    // below.
    e.kind = EventKind::BarrierRelease;
    e.thread = thread_ref(block, block_slot, 0).id;
    for (const ThreadRef& ref : participants)
      e.waiting.emplace_back(ref.id, block.arrival_ranges[ref.id.index_in_block()]);
    e.text.clear();
    if (observer_wants_text) {
      e.text = fmt::format("{} threads of block {}", count_participants, block.linear_index);
      const std::string detail = model->explain_last_barrier();
      if (!detail.empty()) e.text += "; " + detail;
    }
    e.exited.clear();
    for_each_bit(block.exited_bits, [&](uint32_t index) { e.exited.push_back(thread_ref(block, block_slot, index).id); });
    emit_event(e);
  }
  block.arrived = 0;
  // Released threads run on to their next visible event (local work needs no decision), each
  // told its barrier's result first. Their SimThreads are prefetched 16 resumptions ahead
  // (only what a barrier round reads: PrefetchReach), a fiber's stack closer (a resumption is
  // a few hundred instructions: enough for a line to arrive from the last-level cache). Done
  // in one pass: a first pass that set each participant's status and result waited for each
  // one's line, 16 participants after its prefetch, a few instructions each (perf, 2^20
  // reduction: half of release_barrier's time).
  const bool prefetch_stacks = prefetching && stackless_kernel == nullptr;
  const Word total = count_participants;
  for (size_t i = 0; i < count_participants; ++i) {
    if (execution_fault) {
      for (; i < count_participants; ++i) release_from_barrier(threads[participants[i].slot.value], count, total);
      return;
    }
    if (prefetching && i + 16 < count_participants)
      prefetch_thread(threads[participants[i + 16].slot.value], PrefetchReach::BarrierRound);
    if (prefetching && i + 8 < count_participants)
      prefetch_buffers(threads[participants[i + 8].slot.value], PrefetchReach::BarrierRound);
    if (prefetch_stacks) prefetch_before_resumption(i, count_participants, [&](size_t j) { return participants[j].slot.value; });
    SimThread& t = threads[participants[i].slot.value];
    assert(t.ref.id == participants[i].id);
    release_from_barrier(t, count, total);
    resume(t);
  }
}

void Machine::Impl::release_from_barrier(SimThread& t, Word count, Word total) {
  assert(t.status == ThreadStatus::AtBarrier && t.pending.kind == EventKind::BarrierArrive);
  // __syncthreads_count returns how many threads' predicate was non-zero; _and whether all
  // were; _or whether any was (Programming Guide 10.6).
  switch (t.barrier_kind) {
  case Builtin::SyncthreadsCount: t.barrier_result = count; break;
  case Builtin::SyncthreadsAnd: t.barrier_result = count == total ? 1 : 0; break;
  case Builtin::SyncthreadsOr: t.barrier_result = count > 0 ? 1 : 0; break;
  default: t.barrier_result = 0; break;
  }
  t.status = ThreadStatus::AtEvent;
}

bool Machine::Impl::barrier_loop_detected(ResidentBlock& block, const std::vector<ThreadRef>& participants,
                                          bool all_quiet) {
  // Every participant arrives at the same barrier in the same private state as last round,
  // having performed no visible event since, and no thread exited in between: each round
  // computes only from that state, so the block repeats this round forever (hardening issue,
  // case B: `while (1) __syncthreads();`).
  //
  // Only a quiet round (every participant's arrival quiet, the same participants) can repeat
  // the one before, so only at a quiet round's release are the participants' states compared
  // and kept. Their states are the ones they arrived in: nothing runs between a thread's
  // arrival and its release. Kept at every arrival instead, as a fingerprint of the state,
  // this cost a tree reduction, whose rounds are never quiet (some thread loads and stores in
  // each), 5% of its instructions (callgrind, 256 x 256 under sc). Whether every arrival was
  // quiet comes from the block's bits (`all_quiet`): read from each participant's SimThread,
  // it was the first touch of a cold line per participant, ahead of release_barrier's
  // prefetching pass (cachegrind, 256 x 256 under sc: 1.4M of the run's 4.6M last-level misses).
  const bool quiet_round = participants.size() == block.last_round_size && all_quiet;
  block.last_round_size = static_cast<uint32_t>(participants.size());
  const SimThread& first = threads[participants.front().slot.value];
  if (quiet_round) {
    bool same_round = block.snapshots_kept;
    for (const ThreadRef& ref : participants) {
      SimThread& t = threads[ref.slot.value];
      // Taken into `snapshot`, free between reads (before_read_event takes it afresh), whose
      // buffers then change places with the kept snapshot's: no allocation per round.
      take_snapshot(t, t.barrier_range, Location{}, nullptr, t.snapshot);
      same_round = same_round && t.snapshot == t.barrier_snapshot;
      std::swap(t.barrier_snapshot, t.snapshot);
    }
    block.snapshots_kept = true;
    if (same_round) {
      stop_execution(first, first.pending.range,
                     fmt::format("block {} repeats __syncthreads at line {} forever: its threads return to it "
                                 "with nothing changed (an infinite loop)",
                                 block.linear_index, program.source->position(first.pending.range.begin).line),
                     ExecutionStatus::Livelock);
      return true;
    }
  } else {
    block.snapshots_kept = false;
  }
  if (++barrier_rounds > options.max_barrier_rounds) {
    stop_execution(first, first.pending.range,
                   fmt::format("stopped after {} barrier rounds (--max-barrier-rounds): a block may loop forever",
                               options.max_barrier_rounds),
                   ExecutionStatus::StepLimit);
    return true;
  }
  return false;
}

void Machine::Impl::arrive_at_barrier(SimThread& thread, SourceRange range) {
  // The switch to the scheduler is the caller's (wait_at_barrier, inlined where it is called).
  thread.pending = PendingEvent{EventKind::BarrierArrive, range};
  thread.status = ThreadStatus::AtBarrier;
  thread.reset_local_steps();
  // For barrier_loop_detected, which compares states only at a quiet round's release.
  thread.barrier_quiet = thread.events_at_barrier == thread.visible_events &&
                         thread.barrier_predicate == thread.barrier_predicate_before && thread.barrier_range == range;
  thread.barrier_range = range;
  ++thread.visible_events; // a barrier is a visible event (it ends a spin iteration)
  thread.events_at_barrier = thread.visible_events;
  thread.barrier_predicate_before = thread.barrier_predicate;
  if (observer_wants_arrivals) {
    Event& e = arrival_event; // only its thread and range change: not built per arrival
    e.kind = EventKind::BarrierArrive;
    e.thread = thread.ref.id;
    e.range = range;
    emit_event(e);
  } else {
    pass_over_event();
  }
}

} // namespace fencelab
