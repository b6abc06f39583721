// Project headers read as parts of the kernel's source file (see frontend/include_files.h).
#include "fencelab/frontend/include_files.h"

#include "fencelab/support/file_text.h"

#include <array>
#include <filesystem>
#include <optional>
#include <string>

namespace fencelab {

namespace {

/** `name` in `directory`, written as the reader and the preprocessor compare paths. */
std::filesystem::path joined(const std::filesystem::path& directory, std::string_view name) {
  return (directory / std::filesystem::path(name)).lexically_normal();
}

/** The first of `directories` that has `name`, in their order (nvcc's and GCC's `-I`). */
std::optional<std::string> in_directories(std::string_view name, const std::vector<std::string>& directories) {
  std::error_code ignored;
  for (const std::string& directory : directories) {
    const std::filesystem::path candidate = joined(directory, name);
    if (std::filesystem::is_regular_file(candidate, ignored)) return candidate.string();
  }
  return std::nullopt;
}

/** The header an `#include` line names. */
struct IncludeLine {
  std::string_view name;
  bool quoted = false; ///< `"name"`; else `<name>`
};

/** The name of an `#include "name"` or `#include <name>` line (spaces allowed around `#` and
 *  `include`). */
std::optional<IncludeLine> include_line(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return std::nullopt;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.substr(i, 7) != "include") return std::nullopt;
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string_view::npos || (line[i] != '"' && line[i] != '<')) return std::nullopt;
  const bool quoted = line[i] == '"';
  const size_t close = line.find(quoted ? '"' : '>', i + 1);
  if (close == std::string_view::npos || close == i + 1) return std::nullopt;
  return IncludeLine{line.substr(i + 1, close - i - 1), quoted};
}

/** The header part read from `path`, if any (part 0, the kernel file, is not a header). */
std::optional<uint32_t> part_with_path(const SourceFile& file, const std::string& path) {
  for (uint32_t k = 1; k < file.parts().size(); ++k)
    if (file.parts()[k].path == path) return k;
  return std::nullopt;
}

} // namespace

std::optional<std::string> resolve_include(const std::string& from_path, std::string_view name, bool quoted,
                                           const std::vector<std::string>& include_directories) {
  // GCC manual, "Search Path": `<name>` is looked for in the -I directories (then the system
  // ones, whose headers are built in here); `"name"` first in the including file's directory.
  if (!quoted) return in_directories(name, include_directories);
  const std::filesystem::path next_to = joined(std::filesystem::path(from_path).parent_path(), name);
  std::error_code ignored;
  if (include_directories.empty() || std::filesystem::is_regular_file(next_to, ignored)) return next_to.string();
  return in_directories(name, include_directories).value_or(next_to.string());
}

void read_included_files(SourceFile& file, const std::vector<std::string>& include_directories) {
  uint64_t bytes = 0;
  // Parts are scanned in the order they were read; each adds the headers it names.
  for (uint32_t scanned = 0; scanned < file.parts().size(); ++scanned) {
    const SourceFile::Part part = file.parts()[scanned];
    const std::string text(file.slice(part.range)); // a copy: add_part moves the file's text
    for (size_t start = 0; start < text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      const std::optional<IncludeLine> line = include_line(std::string_view(text).substr(start, end - start));
      start = end + 1;
      if (!line) continue;
      const std::optional<std::string> path = resolve_include(part.path, line->name, line->quoted, include_directories);
      if (!path || part_with_path(file, *path)) continue; // a system header, or read already
      if (file.parts().size() > kMaxIncludedFiles) return; // part 0 is the kernel file, not a header
      std::string header, error; // the preprocessor reports a header it cannot find
      if (!read_file_text(*path, header, error, kMaxIncludedBytes - bytes)) continue;
      bytes += header.size();
      file.add_part(*path, header);
    }
  }
}

std::optional<uint32_t> included_part(const SourceFile& file, uint32_t from, std::string_view name, bool quoted,
                                      const std::vector<std::string>& include_directories) {
  const std::optional<std::string> path = resolve_include(file.path_of(from), name, quoted, include_directories);
  return path ? part_with_path(file, *path) : std::nullopt;
}

bool is_cuda_or_system_header(std::string_view name) {
  // Those whose declarations the front end has built in: the CUDA runtime's, cooperative groups'
  // (with cg::reduce), half precision, and the C limits (FLT_MAX, INT_MAX) and integer types.
  static constexpr std::array<std::string_view, 30> kKnown = {
      "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h", "device_functions.h",
      "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_60_atomic_functions.h", "cuda_fp16.h",
      "cuda_bf16.h", "cooperative_groups.h", "math_functions.h", "math_constants.h", "vector_types.h",
      "curand_kernel.h", "stdio.h", "stdlib.h", "assert.h", "math.h", "stdint.h", "cstdio", "cstdlib", "cmath",
      "cassert", "cooperative_groups/reduce.h", "cfloat", "float.h", "climits", "limits.h", "cstdint"};
  for (std::string_view known : kKnown)
    if (name == known) return true;
  return false;
}

} // namespace fencelab
