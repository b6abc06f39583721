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
//
// The sharing counts are not atomic (boost::local_shared_ptr): a clock is only ever used by
// the one thread that runs its detector (`run --jobs` gives each job its own Checkers). With
// std::shared_ptr, each barrier's copy of the joined clock to every participant cost two
// locked read-modify-writes per participant: 130 instructions per visible event of the 2^20
// reduction, and each locked operation waits for the stores before it.
#pragma once

#include <bit>
#include <cstdint>
#include <boost/smart_ptr/local_shared_ptr.hpp>
#include <span>
#include <utility>
#include <vector>

namespace fencelab {

/** A thread's index over the grid, split into its block and its index in the block. */
struct ThreadIndexSplit {
  uint32_t block;
  uint32_t in_block;
};

/** Splits `index` by shift and mask where the block's size is a power of two (nearly every
 *  launch), else by division: a division costs the latency of about twenty simple
 *  instructions, and the detector splits an index at every access and barrier participant. */
inline ThreadIndexSplit split_thread_index(uint32_t index, uint32_t threads_per_block) {
  // Not std::has_single_bit: without -mpopcnt it calls libgcc's __popcountdi2.
  if ((threads_per_block & (threads_per_block - 1)) == 0)
    return {index >> std::countr_zero(threads_per_block), index & (threads_per_block - 1)};
  return {index / threads_per_block, index % threads_per_block};
}

class VectorClock {
public:
  /** Entry of thread `thread` (index over the grid); 0 where nothing is known. */
  uint32_t get(uint32_t thread, uint32_t threads_per_block) const;
  /** Entrywise maximum with `other`. Inline where the two share their chunks (or `other` is
   *  all zero): after a barrier every participant holds the same clock, which the next
   *  barrier joins again for each of them. */
  void join(const VectorClock& other) {
    if (other.m_chunks == m_chunks || !other.m_chunks) return;
    join_other(other);
  }
  /** Raises entries of one block (pairs of thread index in the block and value) to at least
   *  the values given. */
  void raise(uint32_t block, std::span<const std::pair<uint32_t, uint32_t>> entries, uint32_t threads_per_block);
  /** Every entry 0. */
  void clear() { m_chunks.reset(); }
  /** Whether the two share their chunks (then they are equal). */
  bool shares_chunks(const VectorClock& other) const { return m_chunks == other.m_chunks; }

private:
  void join_other(const VectorClock& other); ///< join's general case
  /** Whether every entry is at least `other`'s (join has nothing to add). */
  bool covers_clock(const VectorClock& other) const;
  struct Chunk {
    uint32_t block;
    boost::local_shared_ptr<const std::vector<uint32_t>> clocks; ///< one per thread of the block
  };
  using Chunks = std::vector<Chunk>;
  boost::local_shared_ptr<const Chunks> m_chunks; ///< sorted by block; null: every entry 0
};

} // namespace fencelab
