// Helpers for tests that run a command (the fencelab program) and read what it printed, or a file.
#pragma once

#include "fencelab/support/file_text.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <poll.h>
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

/** What a signalled run of fencelab did: its exit and output, and how long it took to end
 *  after the signal. */
struct SignalledResult {
  ProcessResult process;
  double seconds_after_signal = 0;
};

/** The argv of `fencelab ARGUMENTS...` for exec. */
inline std::vector<char*> argv_of(std::vector<std::string>& arguments) {
  std::vector<char*> argv{const_cast<char*>(FENCELAB_BINARY)};
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

/** The whole text of the file at `path` ("" if it cannot be read: support/file_text.h). */
inline std::string file_text(const std::string& path) {
  std::string text, error;
  return read_file_text(path, text, error) ? text : std::string();
}

/** Everything `fd` gives until its end. */
inline std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, size_t(n));
  return out;
}

/** Runs `fencelab ARGUMENTS...` (stdout and stderr into one pipe; no shell), sends it `signal`
 *  after `delay_seconds` unless it has ended by then, and waits for it to end. */
inline SignalledResult run_fencelab_signalled(const std::vector<std::string>& arguments, int signal,
                                              double delay_seconds) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::vector<std::string> copies = arguments;
  std::vector<char*> argv = argv_of(copies);
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
  SignalledResult result;
  // Read while waiting (a full pipe would stop the child); poll the pipe so the signal goes
  // out on time whether or not the child writes.
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  bool signalled = false;
  std::chrono::steady_clock::time_point signal_time = start;
  for (;;) {
    if (!signalled && seconds_since(start) >= delay_seconds) {
      ::kill(pid, signal);
      signalled = true;
      signal_time = std::chrono::steady_clock::now();
    }
    if (signalled && seconds_since(signal_time) > 60) ::kill(pid, SIGKILL); // deaf to the signal: fails the test's timing
    pollfd watch{fds[0], POLLIN, 0};
    if (::poll(&watch, 1, 20) > 0) {
      char buffer[4096];
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n <= 0) break; // the child closed its end: it has exited
      result.process.output.append(buffer, size_t(n));
    }
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.seconds_after_signal = signalled ? seconds_since(signal_time) : 0;
  result.process.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/** Runs fencelab (stdout and stderr into one pipe) and sends it `signal` after `delay`, as
 *  Ctrl-C (SIGINT) or `timeout` (SIGTERM) would. */
inline ProcessResult fencelab_signalled(std::vector<std::string> arguments, int signal, std::chrono::milliseconds delay) {
  return run_fencelab_signalled(arguments, signal, std::chrono::duration<double>(delay).count()).process;
}

} // namespace fencelab::testing
