// Shared by `fencelab gpu` and `fencelab compare`: the GPU options and the run itself.
#pragma once

#include "commands.h"
#include "fencelab/cuda/gpu.h"

#include <optional>
#include <string>

namespace fencelab::cli {

struct GpuCommandOptions {
  std::string file;
  cuda::GpuOptions gpu;
  bool force_litmus = false;
  bool force_plain = false;
  bool emit_cuda = false;
  LaunchOptions shape;
};

void add_gpu_options(CLI::App& command, GpuCommandOptions& options);

/** Litmus or plain, as asked or by default for the Program. */
bool use_litmus(const Program& program, const GpuCommandOptions& options);

/** Runs on the GPU; on failure prints `fencelab: error: ...` and returns the exit code (a hang
 *  exits the process at once: the stuck kernel cannot be waited for). */
std::optional<cuda::GpuResult> run_gpu_or_report(const Program& program, const GpuCommandOptions& options,
                                                 int& exit_code);

/** Per million, for the rate columns. */
double per_million(uint64_t count, uint64_t total);

} // namespace fencelab::cli
