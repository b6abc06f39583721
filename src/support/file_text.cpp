// Reading a whole file as text (see support/file_text.h).
#include "fencelab/support/file_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fencelab {

bool read_file_text(const std::string& path, std::string& text, std::string& error, uint64_t limit) {
  if (limit != UINT64_MAX) {
    std::error_code code;
    if (!std::filesystem::is_regular_file(path, code)) {
      error = "'" + path + "' is not a regular file";
      return false;
    }
    const uintmax_t size = std::filesystem::file_size(path, code);
    if (code || size > limit) {
      error = code ? "cannot read the size of '" + path + "'" : "'" + path + "' is too large";
      return false;
    }
  }
  // A directory opens as an empty stream on Linux: it read as an empty kernel ("the file has no
  // __global__ function", issue 71). It is named as what it is.
  std::error_code directory_code;
  if (std::filesystem::is_directory(path, directory_code)) {
    error = "'" + path + "' is a directory, not a file (fencelab list DIR lists the kernels in a directory)";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  text = buffer.str();
  return true;
}

} // namespace fencelab
