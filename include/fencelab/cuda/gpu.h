// Running a Program on a real NVIDIA GPU through the CUDA driver API and NVRTC, both loaded
// at run time with dlopen (so one fencelab binary runs, and simulates, where there is no CUDA).
#pragma once

#include "fencelab/machine/outcome.h"
#include "fencelab/program/program.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fencelab::cuda {

/** Whether this binary was built with the CUDA backend (the toolkit headers were found). */
bool backend_built();

enum class GpuStatus : uint8_t {
  Ok,
  NotBuilt,     ///< built without the toolkit headers
  NoDriver,     ///< libcuda.so.1 could not be loaded or cuInit failed
  NoDevice,     ///< the driver found no device
  NoCompiler,   ///< NVRTC could not be loaded
  CompileError, ///< NVRTC rejected the generated source (message holds the log)
  Unsupported,  ///< litmus mode asked for a kernel it cannot run
  Fault,        ///< the kernel faulted: illegal address, trap, ...
  Hang,         ///< the watchdog expired
  DriverError,  ///< any other driver failure
};

struct GpuOptions {
  bool litmus = false;
  uint64_t runs = 100;          ///< plain mode: launches
  uint32_t instances = 65'536;  ///< litmus: instances per launch
  uint32_t launches = 100;      ///< litmus: launches
  uint32_t stress_blocks = 0;   ///< litmus: extra blocks stressing memory (H100: they lowered MP and SB rates)
  uint32_t stress_iterations = 256;
  uint32_t sync_spins = 4096;   ///< litmus: bounded spin of the per-instance start barrier (0: none)
  uint64_t seed = 1;            ///< litmus: placement and assignment shuffles
  double watchdog_seconds = 5;
};

struct GpuResult {
  GpuStatus status = GpuStatus::Ok;
  std::string message;  ///< one line (or the compile log) when status is not Ok
  std::string device;   ///< "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"
  bool litmus = false;
  uint64_t executions = 0; ///< runs, or instances over all launches
  uint64_t launches = 0;
  double seconds = 0;      ///< wall time of the launch loop
  std::vector<std::pair<Outcome, uint64_t>> outcomes; ///< sorted by outcome
};

/** Loads the driver and opens device 0: status Ok and `device` set, or why not. */
GpuResult probe_gpu();

/** Compiles, sets up the harness, launches and histograms. Never throws for GPU trouble. */
GpuResult run_on_gpu(const Program& program, const GpuOptions& options);

/** The exit code of a GPU run that ended with `status` (README.md, "Exit codes"): 0 when it
 *  ran; 1 when the kernel faulted or hung; 2 for a kernel the backend cannot run; 3 when NVRTC
 *  rejected the generated source or the driver failed later; 4 when the GPU is unavailable here
 *  (built without the backend, no driver, no device, no NVRTC). */
int gpu_status_exit_code(GpuStatus status);

} // namespace fencelab::cuda
