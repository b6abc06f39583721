// Helpers for tests that run a command (the fencelab program) and read what it printed.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

namespace fencelab::testing {

struct ProcessResult {
  int exit_code = -1; ///< -1 when it ended by a signal
  std::string output; ///< stdout, and stderr unless left out
};

/** Runs a shell command (through popen). Its stderr joins stdout unless `with_stderr` is false
 *  (sanitized builds print a warning with the process id there). */
inline ProcessResult run_process(const std::string& command, bool with_stderr = true) {
  ProcessResult result;
  FILE* pipe = ::popen(("(" + command + ")" + (with_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/** The files write_temp_file wrote: removed when the test process ends (normally). */
class TempFiles {
public:
  ~TempFiles() {
    for (const std::string& path : m_paths) std::remove(path.c_str());
  }
  void add(const std::string& path) {
    for (const std::string& known : m_paths)
      if (known == path) return;
    m_paths.push_back(path);
  }

private:
  std::vector<std::string> m_paths;
};

inline TempFiles& temp_files() {
  static TempFiles files;
  return files;
}

/** Writes `text` to /tmp/fencelab_PID_NAME and returns that path (removed when the process ends). ctest runs each test case in
 *  its own process, two at a time, and several cases write a file of the same NAME: the process
 *  id keeps them apart, and writing to a side file then renaming it means a command never reads
 *  a half-written kernel. */
inline std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/fencelab_" + std::to_string(::getpid()) + "_" + name;
  const std::string partial = path + ".partial";
  FILE* f = std::fopen(partial.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  REQUIRE(std::rename(partial.c_str(), path.c_str()) == 0);
  temp_files().add(path);
  return path;
}

/** Runs the fencelab program built with the tests; stderr joins stdout unless `with_stderr` is
 *  false (sanitized builds print a warning with the process id there). */
inline ProcessResult run_fencelab(const std::string& arguments, bool with_stderr = true) {
  return run_process(std::string(FENCELAB_BINARY) + " " + arguments, with_stderr);
}

} // namespace fencelab::testing
