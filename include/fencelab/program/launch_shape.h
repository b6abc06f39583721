// Launch-shape overrides from the command line (`--grid`, `--block`): a user scales a kernel
// without editing its `//@ launch` directive. The rules are the directive's: every dimension
// at least 1 and at most 2^31 - 1, and the grid and block within CUDA's limits
// (grid_shape_problem, block_shape_problem).
#pragma once

#include "fencelab/program/program.h"

#include <optional>
#include <string>
#include <string_view>

namespace fencelab {

/** Most threads in one block (CUDA's limit, and `//@ launch`'s). */
inline constexpr uint64_t kMaxBlockThreads = 1024;

/** Parses `X` or `X,Y,Z` (also `X,Y`; missing dimensions are 1), checked as a block's shape
 *  (`for_block`) or a grid's. On a bad value returns nothing and sets `error` to a sentence. */
std::optional<Dim3> parse_launch_dim(std::string_view text, bool for_block, std::string& error);

/** Replaces the launch shape's grid and/or block, marking what was overridden. Nothing the
 *  front end checked depends on the shape (blockDim and gridDim are read at run time, and an
 *  observed local written by several threads is a run-time error), so the Program stays
 *  consistent. */
void override_launch_shape(Program& program, const std::optional<Dim3>& grid, const std::optional<Dim3>& block);

/** `grid (2,1,1) block (32,1,1)`, with `(from --grid)` etc. when the command line set it. */
std::string describe_launch_shape(const LaunchConfig& launch);

} // namespace fencelab
