// The lanes of one warp step by step: which lanes were active at each step (the active mask),
// where they diverged and where they reconverged. Programming Guide 4.1 (SIMT architecture):
// before Volta a warp runs one path at a time with the other lanes masked off (`--warp
// lockstep`); with Independent Thread Scheduling lanes are separate threads that the scheduler
// may interleave at every visible event (`--warp its`), so steps are one lane's unless lanes
// happen to run the same instruction together.
#pragma once

#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fencelab {

/** One step of the warp: lanes that performed the same visible event together. */
struct WarpStep {
  uint32_t mask = 0;   ///< active lanes
  uint32_t line = 0;   ///< source line
  std::string label;   ///< "W X", "__syncwarp", "exit"
  bool diverged = false;    ///< some of the warp's lanes are not active
  bool reconverged = false; ///< all lanes active again after a diverged step
};

struct WarpLanes {
  uint32_t block = 0;
  uint32_t warp = 0;
  uint32_t lanes_mask = 0; ///< the lanes the warp has (a partial last warp has fewer)
  std::vector<WarpStep> steps;
  std::string title;
  uint32_t steps_left_out = 0; ///< steps after max_steps, not drawn
};

/** The warps that appear in the events, as (block, warp) pairs, in order. */
std::vector<std::pair<uint32_t, uint32_t>> warps_in(const std::vector<Event>& events);

/** The steps of warp (block, warp); at most max_steps. */
WarpLanes build_warp_lanes(const Program& program, const std::vector<Event>& events, uint32_t block, uint32_t warp,
                           uint32_t max_steps = 96);

/** The most telling warp: the first that diverges, else the first. Nullopt without warps. */
std::optional<std::pair<uint32_t, uint32_t>> pick_warp(const Program& program, const std::vector<Event>& events);

} // namespace fencelab
