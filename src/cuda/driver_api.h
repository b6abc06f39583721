// The CUDA driver API and NVRTC entry points fencelab uses, resolved with dlsym at run time.
// cuda.h and nvrtc.h give the types and signatures only; nothing links against libcuda or
// libnvrtc. cuda.h maps some names to versioned symbols (`#define cuMemAlloc cuMemAlloc_v2`,
// CUDA driver API, "Versioning"); FL_SYMBOL stringifies the expanded name so dlsym asks for
// the symbol the header's signature belongs to.
#pragma once

#include <cuda.h>
#include <nvrtc.h>

#include <string>

namespace fencelab::cuda {

#define FL_CUDA_FUNCTIONS(X)                                                                       \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)            \
  X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)                 \
  X(cuCtxSetCurrent) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)                  \
  X(cuModuleGetGlobal) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8)    \
  X(cuLaunchKernel) X(cuStreamQuery) X(cuGetErrorName) X(cuGetErrorString)

#define FL_NVRTC_FUNCTIONS(X)                                                                      \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize)           \
  X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcDestroyProgram)               \
  X(nvrtcGetErrorString)

struct DriverApi {
#define FL_MEMBER(name) decltype(&::name) name = nullptr;
  FL_CUDA_FUNCTIONS(FL_MEMBER)
#undef FL_MEMBER
  void* handle = nullptr;
};

struct NvrtcApi {
#define FL_MEMBER(name) decltype(&::name) name = nullptr;
  FL_NVRTC_FUNCTIONS(FL_MEMBER)
#undef FL_MEMBER
  void* handle = nullptr;
};

/** Loads libcuda.so.1 (the driver's soname, CUDA driver API "Initialization"); false with a
 *  reason when it is absent or lacks a symbol. The library stays loaded for the process. */
bool load_driver(DriverApi& api, std::string& error);
/** Loads NVRTC: libnvrtc.so.13, .so.12, .so, then the same under /usr/local/cuda/lib64. */
bool load_nvrtc(NvrtcApi& api, std::string& error);

/** "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered" */
std::string describe(const DriverApi& api, CUresult result);

} // namespace fencelab::cuda
