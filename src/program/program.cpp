// The checked kernel and its harness (see program/program.h).
#include "fencelab/program/program.h"

#include <cstdint>
#include <fmt/format.h>

namespace fencelab {

namespace {

// Messages list this many labels at most (as many as observed by default of one buffer).
constexpr size_t kListedLabels = 16;

} // namespace

bool Program::add_observed(ObservedItem item) {
  if (!m_observed_by_label.emplace(item.label, uint32_t(observed.size())).second) return false;
  observed.push_back(std::move(item));
  return true;
}

const ObservedItem* Program::find_observed(std::string_view label) const {
  const auto it = m_observed_by_label.find(std::string(label));
  return it == m_observed_by_label.end() ? nullptr : &observed[it->second];
}

std::string Program::observed_labels() const {
  if (observed.empty()) return "nothing";
  std::string labels;
  for (size_t i = 0; i < observed.size() && i < kListedLabels; ++i) {
    if (i) labels += ", ";
    labels += observed[i].label;
  }
  if (observed.size() > kListedLabels) labels += " and " + std::to_string(observed.size() - kListedLabels) + " more";
  return labels;
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
