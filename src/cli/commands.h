// The subcommands of `fencelab`, each in its own file, sharing the options below.
#pragma once

#include "fencelab/explore/exploration.h"
#include "fencelab/explore/search_verdict.h"
#include "fencelab/frontend/compile.h"
#include "fencelab/machine/machine.h"
#include "fencelab/program/program.h"

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace fencelab::cli {

/** Process exit codes: the one table of README.md, "Exit codes" (and `fencelab --help`). */
enum ExitCode : int {
  /** Every search ran to completion (or every requested run ran), every expectation held, no
   *  unexpected error. */
  kSuccess = 0,
  /** Not shown correct: a finding (an expectation failed, an error no `//@ expect` announced)
   *  or an inconclusive search (cut short, stopped, no execution, an expectation unproven). */
  kNotShownCorrect = 1,
  kBadInput = 2,       ///< the kernel does not parse or check, a bad option, token or file
  kInternalError = 3,  ///< a bug in fencelab
  kUnavailable = 4,    ///< the GPU command could not run here: no driver, no device, no NVRTC
  kInterrupted = 130,  ///< Ctrl-C (SIGINT) stopped a search, after the partial report (128 + 2)
};

/** The table above as `fencelab --help` prints it under the commands. */
extern const char* const kExitCodeTable;

/** The exit code of a command whose searches (or replayed executions) were judged `verdicts`:
 *  kInterrupted when Ctrl-C stopped a search of this process, else kSuccess when every one was
 *  shown correct, else kNotShownCorrect. Every command that searches ends with it. */
int exit_code_of(const std::vector<SearchVerdict>& verdicts);
/** The code of a command that a signal or --time-limit stopped before it had a result: 130
 *  after Ctrl-C (SIGINT), else 1 (not shown correct). */
int stopped_exit_code();

/** The closing `result:` lines of a text report, after a blank line: each verdict's describe(),
 *  as "result under sc: ..." when `name_models`. */
void print_verdicts(std::ostream& out, const std::vector<SearchVerdict>& verdicts, bool name_models);

/** What the command line says of the launch: `--grid` and `--block`, the shape instead of the
 *  `//@ launch` directive's (each `X` or `X,Y,Z`; empty: the directive's); `--kernel`, the
 *  __global__ function; `-D`, macros defined before the file; `-I`, header directories
 *  (frontend/compile.h). */
struct LaunchOptions {
  std::string grid, block;
  CompileOptions compile;
};

/** Adds --grid, --block, --kernel, -D and -I; a bad value is a usage error (exit kBadInput). */
void add_launch_options(CLI::App& command, LaunchOptions& options);

/** Applies --grid/--block to a compiled Program; prints why not and returns false. */
bool apply_launch_options(Program& program, const LaunchOptions& options);

/** A whole number of at least `min`, digits only, at most 2^64-1 (number_options.cpp): for
 *  every unsigned option (CLI11 would take "-1" or an overflow as 2^64-1). */
CLI::Validator whole_number(uint64_t min = 0);
/** A finite number from `min` (or, without `min_allowed`, more than `min`) to `max`: NaN and
 *  infinities are refused. */
CLI::Validator finite_number(double min, double max, bool min_allowed = true);

struct SelectedWitness;

/** Options every simulating subcommand takes. */
struct CommonOptions {
  std::string file;
  std::vector<std::string> models{"gpu"};
  bool json = false;
  bool stats = false;
  MachineOptions machine;
  LaunchOptions shape;
  /** --model and --warp as added (to tell a value given from the default; see token_matches). */
  CLI::Option* model_option = nullptr;
  CLI::Option* warp_option = nullptr;
};

/** Which of the common options a command takes: one it would accept and ignore is left out, so
 *  CLI11 refuses it as an unknown option (exit kBadInput; issue 71, "every option does what it
 *  says or is refused"). */
struct CommonOptionSet {
  bool json = true;  ///< the command has a JSON form of its report
  bool stats = true; ///< the command prints search statistics
  const char* model_default = "gpu"; ///< as --help states it
};

void add_common_options(CLI::App& command, CommonOptions& options, const CommonOptionSet& which = {});

/** For a command that follows a token (replay, explain, draw with a token): the token names its
 *  model and warp mode, so a --model or --warp given must agree with it; prints why not and
 *  returns false (exit kBadInput). */
bool token_matches_options(const CommonOptions& options, const SelectedWitness& witness, const char* command);

/** `--reduction none|dpor` for the commands that explore exhaustively. */
void add_reduction_option(CLI::App& command, Reduction& reduction);
/** `--jobs N` for the commands that run random executions; the default is every core. */
void add_jobs_option(CLI::App& command, uint32_t& jobs);

/** Compiles the file, printing diagnostics, and applies --grid/--block; null on failure
 *  (exit kBadInput). */
std::unique_ptr<Program> load_program(const std::string& path, const LaunchOptions& launch);

/** The token `replay` and `explain` follow: on the command line, or in --token-file. */
struct TokenArgument {
  std::string text;
  std::string file;
};
void add_token_arguments(CLI::App& command, TokenArgument& argument, const char* example);

/** A decoded token, the model it names and how reports show it (display(), and the file). */
struct SelectedWitness {
  ReplayToken token;
  std::string model; ///< "gpu" for "gpu.lockstep:..."
  std::string shown;
};
/** Reads and decodes the token, sets the warp mode it names in `machine` and checks its model;
 *  prints why not and returns nullopt (exit kBadInput). A token (or token file) longer than
 *  any execution of `program` could use is refused ("token too long"). */
std::optional<SelectedWitness> load_token(const TokenArgument& argument, MachineOptions& machine,
                                          const Program& program);

/** Checks that every requested model exists here; prints why not and returns false. */
bool check_models(const std::vector<std::string>& models);
/** Whether the launch's resident threads fit the fiber stacks this process can map
 *  (fiber_stack_capacity); if not, prints an error naming the limit and what to do. */
bool resident_threads_fit(const Machine& machine);

void add_run_command(CLI::App& app, int& exit_code);
void add_explore_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
void add_explain_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_gpu_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_draw_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
/** `fencelab ptx-litmus FILE`: a herd7 PTX litmus test under the PTX model (ptx_litmus_command.cpp). */
void add_ptx_litmus_command(CLI::App& app, int& exit_code);

} // namespace fencelab::cli
