// The pure semantics of the warp-level primitives (Programming Guide 10.21 Warp Vote
// Functions, 10.22 Warp Shuffle Functions; PTX ISA "shfl.sync" and "vote.sync"): given each
// lane's arguments and the mask of the lanes taking part, what each lane gets. No Machine
// state: the Machine gathers the lanes (warp_schedule.cpp) and asks these functions.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/ids.h"

#include <array>
#include <cstdint>
#include <string>

namespace fencelab::warp {

/** Bit `lane` of a 32-bit lane mask. */
inline constexpr uint32_t lane_bit(uint32_t lane) { return 1u << (lane & 31u); }
inline constexpr bool in_mask(uint32_t mask, uint32_t lane) { return (mask & lane_bit(lane)) != 0; }

/** `0x0000ffff`: how masks are printed in traces and diagnostics. */
std::string format_mask(uint32_t mask);
/** "0-15, 17": the lanes of a mask, runs collapsed. */
std::string format_lanes(uint32_t mask);

enum class ShuffleKind : uint8_t {
  Index, ///< __shfl_sync(mask, var, srcLane, width)
  Up,    ///< __shfl_up_sync(mask, var, delta, width)
  Down,  ///< __shfl_down_sync(mask, var, delta, width)
  Xor,   ///< __shfl_xor_sync(mask, var, laneMask, width)
};

const char* shuffle_kind_spelling(ShuffleKind kind);

/** `width` must be a power of two in [1, warpSize] (Guide 10.22: otherwise undefined). */
bool valid_width(int64_t width);

/**
 * The lane whose `var` lane `lane` receives, as PTX `shfl.sync` computes it with the operand
 * CUDA passes for `width` (c = ((32 - width) << 8) | (Up ? 0 : 0x1f)): the lane argument `b` is
 * taken modulo 32 (b[4:0]); Index reads lane (b mod width) of the caller's width-segment; Up
 * reads lane - b and Down lane + b unless that leaves the segment, in which case the lane
 * keeps its own value; Xor reads lane ^ b unless that lies in a higher segment (then its own).
 * These agree with the Guide's descriptions for every argument the Guide defines.
 */
uint32_t shuffle_source(ShuffleKind kind, uint32_t lane, int64_t b, uint32_t width);

/** One lane's side of a shuffle. */
struct ShuffleInput {
  Word value = 0;     ///< var
  int64_t lane_arg = 0; ///< srcLane, delta or laneMask
  uint32_t width = kWarpSize;
};

/** What one lane of the mask receives. */
struct ShuffleOutput {
  uint32_t source = 0; ///< the lane read
  bool defined = true; ///< false: the source lane is not in the mask (Guide: undefined)
  Word value = 0;      ///< the source's var when defined; else 0 (the Machine picks a value)
};

/** Every lane of `mask` shuffles; lanes outside `mask` get a default ShuffleOutput. */
std::array<ShuffleOutput, kWarpSize> shuffle(ShuffleKind kind, uint32_t mask,
                                             const std::array<ShuffleInput, kWarpSize>& inputs);

/** __ballot_sync: bit N set iff lane N is in `mask` and its predicate is non-zero. */
uint32_t ballot(uint32_t mask, const std::array<bool, kWarpSize>& predicates);
/** __any_sync: non-zero iff some lane of `mask` has a non-zero predicate. */
bool any(uint32_t mask, const std::array<bool, kWarpSize>& predicates);
/** __all_sync: non-zero iff every lane of `mask` has a non-zero predicate. */
bool all(uint32_t mask, const std::array<bool, kWarpSize>& predicates);

} // namespace fencelab::warp
