// Launch-shape overrides (launch_shape.h).
#include "fencelab/program/launch_shape.h"

#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <vector>

namespace fencelab {

namespace {

constexpr uint64_t kMaxDimension = INT32_MAX; // as `//@ launch` accepts

/** A whole number in [1, kMaxDimension], digits only. */
std::optional<uint32_t> parse_dimension(std::string_view part) {
  uint64_t value = 0;
  const auto [end, status] = std::from_chars(part.data(), part.data() + part.size(), value);
  if (part.empty() || status != std::errc() || end != part.data() + part.size()) return std::nullopt;
  if (value < 1 || value > kMaxDimension) return std::nullopt;
  return uint32_t(value);
}

std::string format_dim3(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

} // namespace

std::optional<Dim3> parse_launch_dim(std::string_view text, bool for_block, std::string& error) {
  std::vector<std::string_view> parts;
  for (size_t begin = 0;;) {
    const size_t comma = text.find(',', begin);
    parts.push_back(text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  Dim3 dim;
  uint32_t* fields[] = {&dim.x, &dim.y, &dim.z};
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::optional<uint32_t> value = i < 3 ? parse_dimension(parts[i]) : std::nullopt;
    if (!value) {
      error = fmt::format("'{}' is not a launch shape: give X or X,Y,Z, each a whole number from 1 to {}", text,
                          kMaxDimension);
      return std::nullopt;
    }
    *fields[i] = *value;
  }
  // The limits `//@ launch` enforces (program.cpp): before, `--grid 65535,65535,65535` (2.8e14
  // blocks), `--grid 1,65536,1` and `--block 1,1,65` were accepted.
  const std::string problem = for_block ? block_shape_problem(dim) : grid_shape_problem(dim);
  if (!problem.empty()) {
    error = fmt::format("{} ({})", problem, text);
    return std::nullopt;
  }
  return dim;
}

void override_launch_shape(Program& program, const std::optional<Dim3>& grid, const std::optional<Dim3>& block) {
  LaunchConfig& launch = program.launch;
  if (grid) {
    launch.grid = *grid;
    launch.grid_overridden = true;
  }
  if (block) {
    launch.block = *block;
    launch.block_overridden = true;
  }
}

std::string describe_launch_shape(const LaunchConfig& launch) {
  std::string text = fmt::format("grid {} block {}", format_dim3(launch.grid), format_dim3(launch.block));
  if (launch.grid_overridden || launch.block_overridden)
    text += fmt::format(" (from {}{}{})", launch.grid_overridden ? "--grid" : "",
                        launch.grid_overridden && launch.block_overridden ? " " : "",
                        launch.block_overridden ? "--block" : "");
  return text;
}

} // namespace fencelab
