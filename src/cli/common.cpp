#include "commands.h"

#include "fencelab/frontend/compile.h"
#include "fencelab/frontend/include_files.h"
#include "fencelab/machine/memory_model.h"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <thread>

namespace fencelab::cli {

namespace {

/**
 * Makes `option` a choice among the names of an enum's values. (CLI11's CheckedTransformer lists
 * its map's values beside the names, in --help and in the error for a name it does not know, and
 * writes an enum of uint8_t as a raw byte: --help held NUL and control characters, and the error
 * stopped at the first NUL.) A name becomes its value's number, which CLI11 reads into the enum.
 */
template <class Enum> void choose_among(CLI::Option& option, const std::map<std::string, Enum>& names) {
  std::string listed;
  for (const auto& entry : names) listed += (listed.empty() ? "" : ", ") + entry.first;
  option.transform(CLI::Validator(
      [names, listed](std::string& input) {
        const auto found = names.find(input);
        if (found == names.end()) return "'" + input + "' is not one of " + listed;
        input = std::to_string(static_cast<int>(found->second));
        return std::string();
      },
      "one of " + listed));
}

} // namespace

void add_common_options(CLI::App& command, CommonOptions& options, const CommonOptionSet& which) {
  command.add_option("file", options.file, "kernel file (.cu with //@ directives)")->required();
  options.model_option =
      command
          .add_option("--model", options.models,
                      fmt::format("memory model(s): sc, tso, gpu (comma-separated; default {})", which.model_default))
          ->delimiter(',')
          ->allow_extra_args(false); // one argument per --model (comma-separated): never the file after it
  if (which.json) command.add_flag("--json", options.json, "print JSON (schema: docs/json.md)");
  if (which.stats) command.add_flag("--stats", options.stats, "print executions, events, rates and peak memory");
  command.add_option("--stack-size", options.machine.stack_size, "bytes of each simulated thread's stack")
      ->check(CLI::Range(16u * 1024, 64u * 1024 * 1024));
  command.add_option("--resident-blocks", options.machine.resident_blocks,
                     "blocks resident at once (default: as on an H100)");
  command.add_option("--max-steps", options.machine.max_steps,
                     "visible events one execution may perform (default: 1,000 per thread of the launch, "
                     "at least 1,000,000)")
      ->transform(whole_number(1));
  command.add_option("--max-barrier-rounds", options.machine.max_barrier_rounds,
                     "barrier releases one execution may perform")
      ->transform(whole_number(1));
  options.warp_option = command.add_option("--warp", options.machine.warp,
                                    "warp scheduling: its (independent threads, Volta and later; default) or "
                                           "lockstep (pre-Volta SIMT)");
  choose_among(*options.warp_option,
               std::map<std::string, WarpMode>{{"its", WarpMode::Its}, {"lockstep", WarpMode::Lockstep}});
  choose_among(*command.add_option("--interpreter", options.machine.engine,
                                    "how threads run the kernel: bytecode (compiled once, default; stackless where "
                                    "the kernel allows), fibers (compiled, every thread on a fiber) or ast (walks "
                                    "the syntax tree: the reference)"),
               std::map<std::string, Engine>{
                   {"bytecode", Engine::Bytecode}, {"fibers", Engine::BytecodeOnFibers}, {"ast", Engine::Ast}});
  add_launch_options(command, options.shape);
}

void add_reduction_option(CLI::App& command, Reduction& reduction) {
  choose_among(*command.add_option("--reduction", reduction,
                                    "exhaustive search: dpor (partial-order reduction, default) or none (every "
                                    "decision sequence, the reference)"),
               std::map<std::string, Reduction>{{"dpor", Reduction::Dpor}, {"none", Reduction::None}});
}

uint32_t all_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

void add_jobs_option(CLI::App& command, uint32_t& jobs) {
  jobs = all_cores();
  command
      .add_option("--jobs", jobs,
                  "OS threads running the random executions (default: one per core); the result is the "
                  "same for any number")
      ->check(CLI::Range(1u, 4096u));
}

std::unique_ptr<Program> load_program(const std::string& path, const LaunchOptions& launch) {
  SourceFile file("", "");
  std::string error;
  if (!SourceFile::read(path, file, error)) {
    fmt::print(stderr, "fencelab: error: {}\n", error);
    return nullptr;
  }
  read_included_files(file, launch.compile.include_directories);
  DiagnosticSink diagnostics;
  const auto source = std::make_shared<const SourceFile>(std::move(file));
  auto program = compile_program(source, diagnostics, launch.compile);
  diagnostics.print(std::cerr, *source);
  if (program != nullptr && !apply_launch_options(*program, launch)) return nullptr;
  return program;
}

bool resident_threads_fit(const Machine& machine) {
  if (machine.fiber_stacks_needed() <= fiber_stack_capacity()) return true;
  const uint64_t resident = machine.resident_thread_limit();
  const uint64_t per_block = resident / std::max<uint32_t>(1, machine.resident_block_limit());
  fmt::print(stderr,
             "fencelab: error: {} blocks of {} threads resident at once make {} simulated threads, but this system's "
             "memory-mapping limit (vm.max_map_count) lets a process hold {} fiber stacks (two mappings each): "
             "use --resident-blocks {} or fewer, or raise vm.max_map_count\n",
             machine.resident_block_limit(), per_block, resident, fiber_stack_capacity(),
             std::max<uint64_t>(1, fiber_stack_capacity() / std::max<uint64_t>(1, per_block)));
  return false;
}

bool token_matches_options(const CommonOptions& options, const SelectedWitness& witness, const char* command) {
  const bool model_given = options.model_option != nullptr && options.model_option->count() > 0;
  if (model_given && (options.models.size() != 1 || options.models.front() != witness.model)) {
    fmt::print(stderr,
               "fencelab: error: the token is of model {}, but --model says {}: {} follows the token's model "
               "(leave --model out)\n",
               witness.model, fmt::join(options.models, ","), command);
    return false;
  }
  // The token's warp mode is set in options.machine by load_token: --warp's value is the
  // option's own result.
  if (options.warp_option != nullptr && options.warp_option->count() > 0) {
    const std::string given = options.warp_option->results().front();
    // (CLI11 keeps the transformed value, the enum's number; the name is taken too.)
    const bool lockstep = given == "lockstep" || given == std::to_string(static_cast<int>(WarpMode::Lockstep));
    const WarpMode asked = lockstep ? WarpMode::Lockstep : WarpMode::Its;
    const WarpMode of_token = witness.token.model.ends_with(".lockstep") ? WarpMode::Lockstep : WarpMode::Its;
    if (asked != of_token) {
      const auto name = [](WarpMode mode) { return mode == WarpMode::Lockstep ? "lockstep" : "its"; };
      fmt::print(stderr,
                 "fencelab: error: the token is of warp mode {}, but --warp says {}: {} follows the token's mode "
                 "(leave --warp out)\n",
                 name(of_token), name(asked), command);
      return false;
    }
  }
  return true;
}

bool check_models(const std::vector<std::string>& models) {
  for (const std::string& name : models) {
    const bool known = std::find(kModelNames.begin(), kModelNames.end(), name) != kModelNames.end();
    if (!known) {
      fmt::print(stderr, "fencelab: error: unknown model '{}' (the models are sc, tso, gpu)\n", name);
      return false;
    }
    if (!model_is_implemented(name)) {
      fmt::print(stderr, "fencelab: error: model '{}' is not implemented yet in this build (sc is)\n", name);
      return false;
    }
  }
  return true;
}

} // namespace fencelab::cli
