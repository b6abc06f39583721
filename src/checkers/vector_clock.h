// Vector clocks for the race detector that stay small on large grids (issue 12: race detection
// at every grid size, in bounded memory).
//
// A dense clock per thread costs threads^2 entries: 4,096 threads took 134 MB. On a GPU most
// synchronization is a block's barrier, after which every thread of the block holds the same
// clock. So a clock is a sorted list of per-block chunks (one entry per thread of that block),
// and both the list and its chunks are immutable and shared: copying a clock (a barrier, a
// fence's release) copies a pointer, and a join or a raise copies only what changes
// (copy-on-write). Blocks a thread never synchronized with have no chunk (all zero). The
// owning thread's own entry is kept apart by its user (RaceDetector::ThreadState), since it
// changes at every fence and barrier.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace fencelab {

class VectorClock {
public:
  /** Entry of thread `thread` (index over the grid); 0 where nothing is known. */
  uint32_t get(uint32_t thread, uint32_t threads_per_block) const;
  /** Entrywise maximum with `other`. */
  void join(const VectorClock& other);
  /** Raises entries of one block (pairs of thread index in the block and value) to at least
   *  the values given. */
  void raise(uint32_t block, std::span<const std::pair<uint32_t, uint32_t>> entries, uint32_t threads_per_block);
  /** Every entry 0. */
  void clear() { m_chunks.reset(); }

private:
  /** Whether every entry is at least `other`'s (join has nothing to add). */
  bool covers_clock(const VectorClock& other) const;
  struct Chunk {
    uint32_t block;
    std::shared_ptr<const std::vector<uint32_t>> clocks; ///< one per thread of the block
  };
  using Chunks = std::vector<Chunk>;
  std::shared_ptr<const Chunks> m_chunks; ///< sorted by block; null: every entry 0
};

} // namespace fencelab
