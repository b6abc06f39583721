// Helpers for tests that run a command (the fencelab program) and read what it printed.
#pragma once

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
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

/** The argv of `fencelab ARGUMENTS...` for exec. */
inline std::vector<char*> argv_of(std::vector<std::string>& arguments) {
  std::vector<char*> argv{const_cast<char*>(FENCELAB_BINARY)};
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

/** Everything `fd` gives until its end. */
inline std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, size_t(n));
  return out;
}

/** Runs fencelab (stdout and stderr into one pipe) and sends it `signal` after `delay`, as
 *  Ctrl-C (SIGINT) or `timeout` (SIGTERM) would. */
inline ProcessResult fencelab_signalled(std::vector<std::string> arguments, int signal, std::chrono::milliseconds delay) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::vector<char*> argv = argv_of(arguments);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::this_thread::sleep_for(delay);
  ::kill(pid, signal);
  ProcessResult result;
  result.output = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

} // namespace fencelab::testing
