// The process's one connection to the GPU: the loaded libraries, device 0's primary context,
// and what one run allocated (private to src/cuda).
#pragma once

#include "driver_api.h"
#include "fencelab/cuda/gpu.h"

#include <string>
#include <vector>

namespace fencelab::cuda {

struct GpuSession {
  DriverApi api;
  NvrtcApi nvrtc;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> buffers;
  int major = 0, minor = 0, multiprocessors = 0;
  std::string device_name;
  std::string failure; ///< the last failed driver call, for messages

  static GpuSession& get();
  /** Loads the driver, initialises it and makes device 0's primary context current. */
  bool open(GpuStatus& status, std::string& message);
  /** Frees this run's buffers and module (not after a fault: the context is then unusable). */
  void release_module();
  GpuStatus fail(CUresult result, const char* what);
};

} // namespace fencelab::cuda
