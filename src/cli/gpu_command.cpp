// `fencelab gpu FILE`: the kernel on a real NVIDIA GPU (plain or litmus mode); the histogram
// has the same layout as `fencelab run`'s. docs/gpu-backend.md describes both modes.
#include "gpu_common.h"

#include "fencelab/cuda/codegen.h"
#include "fencelab/program/launch_shape.h"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

void add_gpu_options(CLI::App& command, GpuCommandOptions& options) {
  command.add_option("file", options.file, "kernel file (.cu with //@ directives)")->required();
  command.add_option("--runs", options.gpu.runs, "plain mode: launches (default 100)")->transform(whole_number(1));
  command.add_flag("--litmus", options.force_litmus, "litmus mode: many shuffled instances per launch "
                                                     "(default for small grids observing scalars)");
  command.add_flag("--plain", options.force_plain, "plain mode: the kernel as written, one instance a launch");
  command.add_option("--instances", options.gpu.instances, "litmus: instances per launch (default 65536)")
      ->check(CLI::Range(1u, 4'000'000u));
  command.add_option("--launches", options.gpu.launches, "litmus: launches (default 100)")
      ->transform(whole_number(1))
      ->check(CLI::Range(1u, 4'294'967'295u));
  command.add_option("--stress", options.gpu.stress_blocks, "litmus: extra blocks stressing memory (default 0: on an H100 stress lowered the MP and SB rates)")
      ->transform(whole_number())
      ->check(CLI::Range(0u, 4'294'967'295u));
  command.add_option("--sync-spins", options.gpu.sync_spins,
                     "litmus: spins of the start barrier that lines up an instance's threads (0: none)")
      ->transform(whole_number())
      ->check(CLI::Range(0u, 4'294'967'295u));
  command.add_option("--seed", options.gpu.seed, "litmus: seed of the placement and assignment shuffles")
      ->transform(whole_number());
  command.add_option("--watchdog", options.gpu.watchdog_seconds, "seconds a launch may run before it counts as a hang")
      ->check(finite_number(0.1, 3600.0));
  command.add_flag("--emit-cuda", options.emit_cuda, "print the generated CUDA source and exit (needs no GPU)");
  add_launch_options(command, options.shape);
}

bool use_litmus(const Program& program, const GpuCommandOptions& options) {
  if (options.force_litmus) return true;
  if (options.force_plain) return false;
  return cuda::litmus_by_default(program);
}

double per_million(uint64_t count, uint64_t total) { return total == 0 ? 0.0 : double(count) * 1e6 / double(total); }

std::optional<cuda::GpuResult> run_gpu_or_report(const Program& program, const GpuCommandOptions& options,
                                                 int& exit_code) {
  cuda::GpuOptions gpu = options.gpu;
  gpu.litmus = use_litmus(program, options);
  cuda::GpuResult result = cuda::run_on_gpu(program, gpu);
  if (result.status == cuda::GpuStatus::Ok) return result;
  fmt::print(stderr, "fencelab: error: {}\n", result.message);
  exit_code = cuda::gpu_status_exit_code(result.status);
  if (result.status == cuda::GpuStatus::Hang) {
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(exit_code); // the hung kernel would block any orderly teardown of the context
  }
  return std::nullopt;
}

namespace {

int execute(const GpuCommandOptions& options) {
  if (options.force_litmus && options.force_plain) {
    fmt::print(stderr, "fencelab: error: --litmus and --plain exclude each other\n");
    return kBadInput;
  }
  const auto program = load_program(options.file, options.shape);
  if (program == nullptr) return kBadInput;
  const bool litmus = use_litmus(*program, options);
  if (options.emit_cuda) {
    if (program->unit.uses_grid_sync) {
      fmt::print(stderr, "fencelab: error: not supported on the GPU: this_grid().sync() (it needs a cooperative launch)\n");
      return kBadInput;
    }
    if (litmus) {
      const std::string why = cuda::litmus_unsuitable(*program);
      if (!why.empty()) {
        fmt::print(stderr, "fencelab: error: litmus mode cannot run this kernel: {}\n", why);
        return kBadInput;
      }
    }
    std::cout << (litmus ? cuda::generate_litmus(*program) : cuda::generate_plain(*program)).source;
    return kSuccess;
  }
  int exit_code = kSuccess;
  const auto result = run_gpu_or_report(*program, options, exit_code);
  if (!result) return exit_code;
  const LaunchConfig& launch = program->launch;
  fmt::print("{}: gpu on {}, kernel {}, {}\n", program->source->path(), result->device, launch.kernel->name,
             describe_launch_shape(launch));
  const double rate = double(result->executions) / std::max(result->seconds, 1e-9);
  if (result->litmus)
    fmt::print("litmus mode: {} instances in {} launches of {} (stress {} blocks) in {:.2f} s, {:.0f} instances/s, "
               "{} distinct outcome{}\n\n",
               result->executions, result->launches, options.gpu.instances, options.gpu.stress_blocks,
               result->seconds, rate, result->outcomes.size(), result->outcomes.size() == 1 ? "" : "s");
  else
    fmt::print("plain mode: {} launches in {:.2f} s, {} distinct outcome{}\n\n", result->executions, result->seconds,
               result->outcomes.size(), result->outcomes.size() == 1 ? "" : "s");
  size_t width = 7;
  std::vector<std::string> labels;
  for (const auto& [outcome, count] : result->outcomes) {
    labels.push_back(outcome.to_string(*program));
    width = std::max(width, labels.back().size());
  }
  fmt::print("  {:<{}}  {:>10}  {:>12}\n", "outcome", width, "executions", "per million");
  for (size_t i = 0; i < labels.size(); ++i)
    fmt::print("  {:<{}}  {:>10}  {:>12.1f}\n", labels[i], width, result->outcomes[i].second,
               per_million(result->outcomes[i].second, result->executions));
  return kSuccess;
}

} // namespace

void add_gpu_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<GpuCommandOptions>();
  CLI::App* command = app.add_subcommand("gpu", "run the kernel on a real NVIDIA GPU and print the outcome histogram");
  add_gpu_options(*command, *options);
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
