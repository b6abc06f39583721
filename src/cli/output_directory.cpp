// output_directory.h.
#include "output_directory.h"

#include <filesystem>
#include <fmt/format.h>

namespace fencelab::cli {

namespace fs = std::filesystem;

std::string output_directory_problem(const std::string& directory) {
  if (directory.empty()) return "no directory given";
  std::error_code error;
  const fs::path path(directory);
  if (fs::is_directory(path, error)) return {};
  if (fs::exists(path, error)) return fmt::format("'{}' exists and is not a directory", directory);
  // The parent of "dir/" is "dir": the last component is the one before a trailing slash.
  const fs::path trimmed = path.has_filename() ? path : path.parent_path();
  const fs::path parent = trimmed.parent_path().empty() ? fs::path(".") : trimmed.parent_path();
  if (!fs::is_directory(parent, error))
    return fmt::format("'{}' does not exist, nor does its parent directory '{}' (only the last component is created)",
                       directory, parent.string());
  return {};
}

CLI::Validator output_directory() {
  return CLI::Validator([](std::string& directory) { return output_directory_problem(directory); }, "DIR");
}

bool prepare_directory(const std::string& directory) {
  std::string problem = output_directory_problem(directory);
  std::error_code error;
  if (problem.empty() && !fs::is_directory(directory, error)) {
    fs::create_directory(directory, error); // the last component only
    if (error) problem = fmt::format("cannot create the directory '{}': {}", directory, error.message());
  }
  if (!problem.empty()) {
    fmt::print(stderr, "fencelab: error: {}\n", problem);
    return false;
  }
  return true;
}

} // namespace fencelab::cli
