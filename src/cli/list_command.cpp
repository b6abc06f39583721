// `fencelab list [DIR]`: the kernel catalogue, one line per kernel: a path that opens from the
// current directory, and its header's summary.
#include "commands.h"
#include "fencelab/support/file_text.h"
#include "fencelab/support/header_summary.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

namespace fencelab::cli {

namespace {

/** The summary of the header comment of the kernel at `path` (support/header_summary.h). */
std::string summary_of(const std::filesystem::path& path) {
  std::string text, error;
  if (!read_file_text(path.string(), text, error)) return "";
  return header_summary(text, path.stem().string());
}

int execute(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    fmt::print(stderr, "fencelab: error: '{}' is not a directory\n", directory);
    return kBadInput;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(directory, error))
    if (entry.is_regular_file() && entry.path().extension() == ".cu") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  // Each path is the directory as given joined with the file's place under it: relative to the
  // current directory when the directory was given so, absolute when it was absolute, so that
  // a path pasted into a command or an editor opens the file.
  size_t column = 0;
  for (const fs::path& file : files) column = std::max(column, file.lexically_normal().string().size());
  for (const fs::path& file : files)
    fmt::print("{:<{}}  {}\n", file.lexically_normal().string(), column, summary_of(file));
  fmt::print("{} kernels\n", files.size());
  return kSuccess;
}

} // namespace

void add_list_command(CLI::App& app, int& exit_code) {
  auto directory = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("list", "list the kernel catalogue");
  command->add_option("directory", *directory, "catalogue directory (default: the source tree's kernels/)");
  command->callback([directory, &exit_code] {
    if (directory->empty()) {
      *directory = std::filesystem::is_directory("kernels") ? "kernels" : FENCELAB_SOURCE_DIR "/kernels";
    }
    exit_code = execute(*directory);
  });
}

} // namespace fencelab::cli
