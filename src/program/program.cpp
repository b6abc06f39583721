// The checked kernel and its harness (see program/program.h).
#include "fencelab/program/program.h"

#include <cstdint>
#include <fmt/format.h>

namespace fencelab {

const ObservedItem* Program::find_observed(std::string_view label) const {
  for (const ObservedItem& item : observed) {
    if (item.label == label) return &item;
  }
  return nullptr;
}

} // namespace fencelab

namespace fencelab {

std::string block_shape_problem(const Dim3& block) {
  if (block.x > 1024 || block.y > 1024 || block.z > 64)
    return fmt::format("a block is at most 1024 x 1024 x 64 threads (Programming Guide, \"Technical "
                       "Specifications per Compute Capability\"), not {} x {} x {}",
                       block.x, block.y, block.z);
  if (block.total() > 1024) return "a block has at most 1024 threads, not " + std::to_string(block.total());
  return {};
}

std::string grid_shape_problem(const Dim3& grid) {
  if (grid.y > 65535 || grid.z > 65535)
    return fmt::format("a grid's y and z dimensions are at most 65535 (Programming Guide, \"Technical "
                       "Specifications per Compute Capability\"), not {} and {}",
                       grid.y, grid.z);
  if (grid.total() > UINT32_MAX)
    return fmt::format("fencelab simulates grids of at most {} blocks, not {}", UINT32_MAX, grid.total());
  return {};
}

} // namespace fencelab
