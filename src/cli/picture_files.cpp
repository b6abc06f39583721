// picture_files.h.
#include "picture_files.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace fencelab::cli {

bool write_text_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << content;
  if (!out) {
    fmt::print(stderr, "fencelab: error: cannot write '{}'\n", path);
    return false;
  }
  return true;
}

bool prepare_directory(const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory)) {
    fmt::print(stderr, "fencelab: error: cannot create the directory '{}': {}\n", directory,
               error ? error.message() : "a file of that name exists");
    return false;
  }
  return true;
}

bool write_witness_pictures(const Program& program, const RecordedWitness& witness,
                            const std::vector<std::string>& caption, const std::string& directory,
                            const std::string& prefix, bool with_graph,
                            const std::vector<uint32_t>& flagged_lines) {
  const std::string base = (std::filesystem::path(directory) / prefix).string();
  std::vector<std::pair<std::string, std::string>> files;
  if (with_graph) files.emplace_back(base + "-graph.svg", draw_witness_graph(program, witness, caption));
  files.emplace_back(base + "-timeline.svg", draw_witness_timeline(program, witness, flagged_lines));
  if (auto warps = draw_witness_warps(program, witness)) files.emplace_back(base + "-warps.svg", std::move(*warps));
  for (const auto& [path, content] : files) {
    if (!write_text_file(path, content)) return false;
    fmt::print(stderr, "wrote {}\n", path);
  }
  return true;
}

} // namespace fencelab::cli
