// `fencelab list [DIR]`: the kernel catalogue, one line per kernel with its header's summary.
#include "commands.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace fencelab::cli {

namespace {

/** The first line of a file's header comment, without the comment marker. */
std::string summary_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("//@", 0) == 0) continue;
    if (line.rfind("//", 0) == 0) {
      std::string text = line.substr(2);
      text.erase(0, text.find_first_not_of(" "));
      if (!text.empty()) return text;
      continue;
    }
    if (!line.empty()) break;
  }
  return "";
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
  for (const fs::path& file : files)
    fmt::print("{:<52} {}\n", fs::relative(file, directory).string(), summary_of(file));
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
