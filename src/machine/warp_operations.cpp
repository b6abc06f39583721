// Warp shuffles and votes as pure functions (warp_operations.h).
#include "warp_operations.h"

#include <bit>
#include <fmt/format.h>

namespace fencelab::warp {

std::string format_mask(uint32_t mask) { return fmt::format("{:#010x}", mask); }

std::string format_lanes(uint32_t mask) {
  std::string out;
  for (uint32_t lane = 0; lane < kWarpSize;) {
    if (!in_mask(mask, lane)) {
      ++lane;
      continue;
    }
    uint32_t end = lane;
    while (end + 1 < kWarpSize && in_mask(mask, end + 1)) ++end;
    if (!out.empty()) out += ", ";
    out += end == lane ? fmt::format("{}", lane) : fmt::format("{}-{}", lane, end);
    lane = end + 1;
  }
  return out.empty() ? "none" : out;
}

const char* shuffle_kind_spelling(ShuffleKind kind) {
  switch (kind) {
  case ShuffleKind::Index: return "__shfl_sync";
  case ShuffleKind::Up: return "__shfl_up_sync";
  case ShuffleKind::Down: return "__shfl_down_sync";
  case ShuffleKind::Xor: return "__shfl_xor_sync";
  }
  return "?";
}

bool valid_width(int64_t width) {
  return width >= 1 && width <= int64_t(kWarpSize) && std::has_single_bit(uint64_t(width));
}

uint32_t shuffle_source(ShuffleKind kind, uint32_t lane, int64_t b, uint32_t width) {
  // PTX ISA, shfl.sync: segmask = c[12:8] = 32 - width; cval = c[4:0].
  const uint32_t segmask = (kWarpSize - width) & 31u;
  const uint32_t cval = kind == ShuffleKind::Up ? 0u : 31u;
  const uint32_t bval = uint32_t(uint64_t(b) & 31u);
  const uint32_t min_lane = lane & segmask;
  const uint32_t max_lane = min_lane | (cval & ~segmask);
  int64_t j = lane;
  bool in_range = true;
  switch (kind) {
  case ShuffleKind::Up:
    j = int64_t(lane) - bval;
    in_range = j >= int64_t(max_lane);
    break;
  case ShuffleKind::Down:
    j = int64_t(lane) + bval;
    in_range = j <= int64_t(max_lane);
    break;
  case ShuffleKind::Xor:
    j = lane ^ bval;
    in_range = j <= int64_t(max_lane);
    break;
  case ShuffleKind::Index:
    j = min_lane | (bval & ~segmask);
    in_range = j <= int64_t(max_lane);
    break;
  }
  return in_range ? uint32_t(j) : lane;
}

std::array<ShuffleOutput, kWarpSize> shuffle(ShuffleKind kind, uint32_t mask,
                                             const std::array<ShuffleInput, kWarpSize>& inputs) {
  std::array<ShuffleOutput, kWarpSize> out{};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!in_mask(mask, lane)) continue;
    const ShuffleInput& in = inputs[lane];
    ShuffleOutput& o = out[lane];
    o.source = shuffle_source(kind, lane, in.lane_arg, in.width);
    o.defined = in_mask(mask, o.source);
    o.value = o.defined ? inputs[o.source].value : 0;
  }
  return out;
}

uint32_t ballot(uint32_t mask, const std::array<bool, kWarpSize>& predicates) {
  uint32_t result = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if (in_mask(mask, lane) && predicates[lane]) result |= lane_bit(lane);
  return result;
}

bool any(uint32_t mask, const std::array<bool, kWarpSize>& predicates) { return ballot(mask, predicates) != 0; }

bool all(uint32_t mask, const std::array<bool, kWarpSize>& predicates) {
  return ballot(mask, predicates) == mask;
}

} // namespace fencelab::warp
