// Opening the GPU (CUDA driver API: cuInit, "Device Management", "Primary Context Management").
#ifdef FENCELAB_CUDA_BACKEND
#include "gpu_session.h"

#include <fmt/format.h>

namespace fencelab::cuda {

GpuSession& GpuSession::get() {
  static GpuSession session;
  return session;
}

bool GpuSession::open(GpuStatus& status, std::string& message) {
  if (context != nullptr) return true;
  std::string error;
  if (!load_driver(api, error)) {
    status = GpuStatus::NoDriver;
    message = error;
    return false;
  }
  const CUresult initialised = api.cuInit(0);
  if (initialised == CUDA_ERROR_NO_DEVICE) {
    status = GpuStatus::NoDevice;
    message = "no CUDA device found (the driver is installed, but cuInit reports no device)";
    return false;
  }
  if (initialised != CUDA_SUCCESS) {
    status = GpuStatus::NoDriver;
    message = fmt::format("the CUDA driver could not start ({})", describe(api, initialised));
    return false;
  }
  int count = 0;
  if (api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    status = GpuStatus::NoDevice;
    message = "no CUDA device found";
    return false;
  }
  char name[256] = {};
  CUresult r = api.cuDeviceGet(&device, 0);
  if (r == CUDA_SUCCESS) r = api.cuDeviceGetName(name, sizeof name - 1, device);
  if (r == CUDA_SUCCESS) r = api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  if (r == CUDA_SUCCESS) r = api.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (r == CUDA_SUCCESS) r = api.cuDeviceGetAttribute(&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  if (r == CUDA_SUCCESS) r = api.cuDevicePrimaryCtxRetain(&context, device);
  if (r == CUDA_SUCCESS) r = api.cuCtxSetCurrent(context);
  if (r != CUDA_SUCCESS) {
    status = GpuStatus::NoDevice; // a device that cannot be opened here is unavailable too (exit 4)
    message = fmt::format("could not open CUDA device 0: {}", describe(api, r));
    context = nullptr;
    return false;
  }
  device_name = fmt::format("{} (sm_{}{}, {} SMs)", name, major, minor, multiprocessors);
  return true;
}

void GpuSession::release_module() {
  for (const CUdeviceptr p : buffers) api.cuMemFree(p);
  buffers.clear();
  if (module != nullptr) api.cuModuleUnload(module);
  module = nullptr;
}

} // namespace fencelab::cuda

#endif
