// Small value types that name simulated things (STYLE: never bare ints passed around).
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>

namespace fencelab {

/** Warps have 32 lanes (Programming Guide 4.1 SIMT Architecture; `warpSize`). */
inline constexpr uint32_t kWarpSize = 32;

/** A simulated thread as the reports name it: linear block index, warp in block, lane. */
struct ThreadId {
  uint32_t block = 0;
  uint32_t warp = 0;
  uint32_t lane = 0;
  friend auto operator<=>(const ThreadId&, const ThreadId&) = default;
  /** "(block, warp, lane)", e.g. "(0,0,1)". */
  std::string to_string() const;
  /** Its linear index in its block (threadIdx flattened). */
  uint32_t index_in_block() const { return warp * kWarpSize + lane; }
};

/**
 * A thread's index into the Machine's table of live threads in one execution. Slots of a
 * retired block are reused by the block that replaces it.
 */
struct ThreadSlot {
  uint32_t value = 0;
  friend auto operator<=>(const ThreadSlot&, const ThreadSlot&) = default;
};

/** What a memory model needs to know of the thread performing an operation. */
struct ThreadRef {
  ThreadSlot slot;
  uint32_t block_slot = 0; ///< resident-block slot: threads with equal block_slot share a block
  ThreadId id;
};

} // namespace fencelab

template <>
struct std::hash<fencelab::ThreadId> {
  size_t operator()(const fencelab::ThreadId& t) const noexcept {
    return (size_t(t.block) * 1315423911u) ^ (size_t(t.warp) << 7) ^ t.lane;
  }
};
