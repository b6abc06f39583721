// What a step touches, for partial-order reduction (DESIGN "Reduction").
//
// A *step* is everything the Machine does between two scheduling decisions: the chosen
// thread's visible event and the private work after it, up to its next event, with whatever
// that causes (a barrier released, a block retired and the next one admitted), or one drain of
// a store buffer. Its *footprint* is the set of shared objects it read or wrote. Two steps are
// dependent when they have the same actor, or touch a common object and one of them writes
// it; independent steps commute, which is what lets the explorer skip orders.
//
// The model reports what its operations touch (histories, buffer lanes, views, fence views);
// the Machine reports whose step it is and what only it knows (which threads a step enabled).
#pragma once

#include "fencelab/machine/location.h"

#include <compare>
#include <cstdint>

namespace fencelab {

enum class ObjectKind : uint8_t {
  History,    ///< a location's history of stores (its memory)
  BufferLane, ///< the stores one thread has buffered for one location (gpu) or at all (tso)
  View,       ///< a thread's view (gpu): which history entries it may still read
  FenceView,  ///< a scope instance's fence view (gpu): a block's, the device's, the system's
  Thread,     ///< a thread's control: written by whatever enables it (a barrier release, a
              ///< warp operation completing, a block admitted, a store waking a spinner)
  Arrival,    ///< that a thread has arrived at its block's barrier (or exited): each arrival
              ///< writes its own, the release reads them all, so the release follows every
              ///< arrival and arrivals stay independent of one another
  Barrier,    ///< a block's barrier, or a warp's __syncwarp of one mask, as the actor of its
              ///< release (a step of its own)
  Admission,  ///< which block becomes resident next
  Observed,   ///< an observed local variable's recorded value
  LanePoint,  ///< whether a lane waits at __activemask, which its warp-mates' __activemask reads
  Accesses,   ///< a location's accesses in the order observers see them (the race detector
              ///< keeps the last write and the reads since, so their order shapes its reports)
  BufferedEntries, ///< tso: one thread's buffered stores to one location, within its one lane.
                   ///< A load reads it (whether it reads its own buffer), a drain of that
                   ///< location writes it: drains of other locations do not change what the
                   ///< load returns, so they commute with it
};

/** A shared object: its kind and up to 96 bits naming the instance (a thread slot, a location,
 *  both for a buffer lane). Also names an actor: a thread (Thread, slot) or a buffer lane. */
struct ObjectId {
  ObjectKind kind = ObjectKind::History;
  uint32_t owner = 0; ///< thread slot (BufferLane, View, Thread), block slot (FenceView), or 0
  uint64_t key = 0;   ///< Location::key() (History, BufferLane under gpu), scope (FenceView), item
  friend auto operator<=>(const ObjectId&, const ObjectId&) = default;

  static ObjectId history(Location l) { return {ObjectKind::History, 0, l.key()}; }
  static ObjectId lane(uint32_t slot, uint64_t lane_key) { return {ObjectKind::BufferLane, slot, lane_key}; }
  static ObjectId view(uint32_t slot) { return {ObjectKind::View, slot, 0}; }
  static ObjectId thread(uint32_t slot) { return {ObjectKind::Thread, slot, 0}; }
  static ObjectId arrival(uint32_t slot) { return {ObjectKind::Arrival, slot, 0}; }
  static ObjectId barrier(uint32_t block_slot) { return {ObjectKind::Barrier, block_slot, 0}; }
  /** The release of a `__syncwarp(mask)` of warp `warp`: one actor per warp and mask (two
   *  masks of one warp due at once share no lane). */
  static ObjectId warp_barrier(uint32_t block_slot, uint32_t warp, uint32_t mask) {
    return {ObjectKind::Barrier, block_slot, uint64_t(mask) << 32 | (uint64_t(warp) + 1)};
  }
  /** Whether writing it enables a step (one that reads it can never run before the writer). */
  bool enables() const { return kind == ObjectKind::Thread || kind == ObjectKind::Arrival; }
};

/** Who takes a step: a thread (ObjectId::thread) or a buffer lane (ObjectId::lane). */
using ActorId = ObjectId;

/** Receives what the current step touches. */
class FootprintSink {
public:
  virtual ~FootprintSink() = default;
  virtual void touch(const ObjectId& object, bool write) = 0;
  /** The current step updates `object` in a way that commutes with every other update of the
   *  same `kind` (nonzero; AtomicUpdate::commuting_kind): a write, except that two updates of
   *  one kind are independent. A sink that does not distinguish takes it as a write. */
  virtual void touch_commuting(const ObjectId& object, uint32_t kind) { touch(object, true); }
  /** The current step read a value that only one order of `object`'s commuting updates
   *  leaves (gpu: a stale read of an entry between two of them): in this execution, those
   *  updates are ordered like writes. */
  virtual void commuting_order_seen(const ObjectId& object) {}
  /** The current step needs `lane` empty (a fence, an atomic or a barrier that would have
   *  drained it), and an earlier step of the lane drained it by itself: the step is ordered
   *  after that drain, which in the other order it would have forced at the same point, with
   *  the same state after both. So it is dependent with the drain but never a race with it. A
   *  sink that does not distinguish takes it as a read. */
  virtual void touch_emptied(const ObjectId& lane) { touch(lane, false); }
  /** The current step takes a step of another actor within itself: a fence, an atomic, a
   *  barrier or the kernel's end draining a buffer lane that could have drained by itself. The
   *  touches until end_forced_step() are that drain's. The reduction orders such a drain as a
   *  step of the lane's own, just before what forced it (docs/architecture.md, "Forced
   *  drains"), so that only the races it really has make the explorer drain it earlier. */
  virtual void begin_forced_step(const ActorId& actor) = 0;
  virtual void end_forced_step() = 0;
  /** The newest value of `location` may have changed (a store reached its history, or an
   *  atomic changed it): threads spinning on it may now read something new. */
  virtual void location_changed(Location location) = 0;
};

} // namespace fencelab

template <>
struct std::hash<fencelab::ObjectId> {
  size_t operator()(const fencelab::ObjectId& o) const noexcept {
    uint64_t h = o.key * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t(o.owner) << 8 | uint64_t(o.kind)) + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
    return size_t(h);
  }
};
