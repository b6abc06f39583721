// The race detector's per-location state ("shadow memory"), stored densely by memory instance.
//
// A grid of a million threads touches millions of locations, so what is kept per location is
// small: the last write and the first read since it as (thread, clock, site) triples of 12
// bytes, where a site is an index into a table of the distinct (source range, kind, mode,
// scope) tuples of the accesses, the value the last write stored (same-value races), and an
// index into a side table for the rarer rest (further reads since the last write, commuting
// updates). 40 bytes a location, in chunks of up to 64 locations allocated on first touch; a
// hash map of full records cost about 220.
//
// Between executions nothing is freed: each chunk carries the execution it was last reset in,
// and a chunk from an earlier execution is reset when it is first touched again. A new block's
// shared-memory instances (one per resident-block slot, memory_layout.h) are marked stale the
// same way.
#pragma once

#include "fencelab/machine/location.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace fencelab {

/** One access as the race detector remembers it. */
struct ShadowAccess {
  uint32_t thread = 0; ///< dense thread index
  uint32_t clock = 0;  ///< the thread's own clock component at the access
  uint32_t site = 0;   ///< index into the detector's site table
};

struct ShadowCell {
  ShadowAccess write;      ///< valid if has_write
  ShadowAccess first_read; ///< valid if has_read: the first of the reads since the last write
  uint32_t extra = 0;      ///< 0: none; else 1 + index of its ShadowExtra
  uint16_t update_kind = 0; ///< AtomicUpdate::commuting_kind_found (at most kNoOpKind, 3 << 8)
  bool has_write : 1 = false; ///< also: the location was written in this execution
  bool has_read : 1 = false;
  bool uninitialized_reported : 1 = false;
  uint64_t write_value = 0; ///< valid if has_write: the value (a canonical Word) the last write stored
};
static_assert(sizeof(ShadowCell) == 40, "a shadow cell is 40 bytes (the header says why it matters)");

/** The reads after the first since the last write, and the commuting updates since it. */
struct ShadowExtra {
  std::vector<ShadowAccess> reads;
  std::vector<ShadowAccess> updates;
};

class ShadowMemory {
public:
  /** Starts a new execution: every cell reads as fresh. */
  void begin_execution();
  /** The cell of a location of an instance with `element_count` elements, made fresh if
   *  untouched. The index is in bounds (the Machine faults an access out of bounds first). */
  ShadowCell& cell(Location location, uint32_t element_count);
  /** A new block's shared instance: its cells read as fresh again. */
  void reset_instance(uint32_t instance);
  /** Starts loading a location's cell, where it has one, into the caches (both its lines).
   *  Inlined always: g++ 12 drops a call to an inline function whose only effect is a
   *  prefetch before it inlines it, counting the prefetch as no effect (seen in the binary:
   *  Checkers::prefetch_location was an empty function). */
  [[gnu::always_inline]] void prefetch(Location location) const {
    if (location.instance >= m_instances.size()) return;
    const std::vector<Chunk>& chunks = m_instances[location.instance];
    const uint32_t number = location.index / kChunk;
    if (number >= chunks.size() || !chunks[number].cells) return;
    const ShadowCell* cell = &chunks[number].cells[location.index % kChunk];
    __builtin_prefetch(cell, 1);
    __builtin_prefetch(reinterpret_cast<const char*>(cell + 1) - 1, 1);
  }

  /** The cell's extra record, made if it has none. */
  ShadowExtra& extra(ShadowCell& cell);
  /** The cell's extra record, or null. */
  ShadowExtra* find_extra(const ShadowCell& cell) { return cell.extra ? &m_extras[cell.extra - 1] : nullptr; }

private:
  static constexpr uint32_t kChunk = 64;
  struct Chunk {
    uint64_t generation = 0; ///< the execution it was last reset in (0: stale)
    uint32_t size = 0;
    std::unique_ptr<ShadowCell[]> cells;
  };
  uint64_t m_generation = 1;
  std::vector<std::vector<Chunk>> m_instances; ///< by instance, by index / kChunk
  std::vector<ShadowExtra> m_extras;           ///< this execution's, reused across executions
  size_t m_extras_used = 0;
  std::vector<uint32_t> m_free_extras; ///< of cells of instances reset in this execution
};

} // namespace fencelab
