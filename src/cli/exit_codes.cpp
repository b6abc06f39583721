// The exit codes every command ends with (commands.h, README.md "Exit codes").
#include "commands.h"

#include "fencelab/explore/search_control.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>

namespace fencelab::cli {

const char* const kExitCodeTable =
    "Exit codes:\n"
    "  0    success: every search ran to completion (or every requested run ran), every expectation\n"
    "       held, no unexpected error\n"
    "  1    not shown correct: an expectation failed, an error no //@ expect announced, or the search\n"
    "       proved nothing or not everything (cut short, stopped, 0 executions, an execution at a step\n"
    "       limit, an expectation unproven); the report's `result:` line says which\n"
    "  2    bad input or usage: the kernel does not parse or check, a bad option value, token or file\n"
    "  3    internal error in fencelab\n"
    "  4    unavailable: the GPU command could not run here (no driver, no device, no NVRTC)\n"
    "  130  interrupted by Ctrl-C (SIGINT), after the partial report\n";

int exit_code_of(const std::vector<SearchVerdict>& verdicts) {
  if (interrupted_by_sigint()) return kInterrupted;
  const bool all_shown = std::all_of(verdicts.begin(), verdicts.end(), [](const SearchVerdict& v) { return v.shown_correct(); });
  return all_shown ? kSuccess : kNotShownCorrect;
}

int stopped_exit_code() { return interrupted_by_sigint() ? kInterrupted : kNotShownCorrect; }

void print_verdicts(std::ostream& out, const std::vector<SearchVerdict>& verdicts, bool name_models) {
  out << '\n';
  for (const SearchVerdict& v : verdicts)
    fmt::print(out, "result{}: {}\n", name_models ? " under " + v.model : std::string(), v.describe());
}

} // namespace fencelab::cli
