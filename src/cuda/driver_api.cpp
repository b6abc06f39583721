// Run-time loading of the CUDA driver and NVRTC (see driver_api.h).
#include "fencelab/cuda/gpu.h"

#ifdef FENCELAB_CUDA_BACKEND
#include "driver_api.h"

#include <dlfcn.h>
#include <fmt/format.h>

#define FL_STRINGIFY2(x) #x
#define FL_SYMBOL(x) FL_STRINGIFY2(x)

namespace fencelab::cuda {

namespace {

/** dlsym into a typed pointer; the round trip through void* is what POSIX dlsym specifies. */
template <typename F> bool resolve(void* handle, const char* symbol, F& target, std::string& missing) {
  void* address = ::dlsym(handle, symbol);
  if (address == nullptr) {
    missing = symbol;
    return false;
  }
  target = reinterpret_cast<F>(address);
  return true;
}

} // namespace

bool backend_built() { return true; }

bool load_driver(DriverApi& api, std::string& error) {
  if (api.handle != nullptr) return true;
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    error = "no CUDA driver found (libcuda.so.1 could not be loaded)";
    return false;
  }
  std::string missing;
  bool ok = true;
#define FL_RESOLVE(name) ok = ok && resolve(handle, FL_SYMBOL(name), api.name, missing);
  FL_CUDA_FUNCTIONS(FL_RESOLVE)
#undef FL_RESOLVE
  if (!ok) {
    error = fmt::format("the CUDA driver lacks {} (too old a driver?)", missing);
    return false;
  }
  api.handle = handle;
  return true;
}

bool load_nvrtc(NvrtcApi& api, std::string& error) {
  if (api.handle != nullptr) return true;
  static const char* const candidates[] = {
      "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
      "/usr/local/cuda/lib64/libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so"};
  void* handle = nullptr;
  for (const char* name : candidates)
    if ((handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  if (handle == nullptr) {
    error = "NVRTC not found (libnvrtc.so.13, .so.12 or .so; add the toolkit's lib64 to LD_LIBRARY_PATH)";
    return false;
  }
  std::string missing;
  bool ok = true;
#define FL_RESOLVE(name) ok = ok && resolve(handle, FL_SYMBOL(name), api.name, missing);
  FL_NVRTC_FUNCTIONS(FL_RESOLVE)
#undef FL_RESOLVE
  if (!ok) {
    error = fmt::format("NVRTC lacks {}", missing);
    return false;
  }
  api.handle = handle;
  return true;
}

std::string describe(const DriverApi& api, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName != nullptr) api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString != nullptr) api.cuGetErrorString(result, &text);
  return fmt::format("{}: {}", name != nullptr ? name : fmt::format("CUresult {}", int(result)),
                     text != nullptr ? text : "unknown error");
}

} // namespace fencelab::cuda

#else

namespace fencelab::cuda {
bool backend_built() { return false; }
} // namespace fencelab::cuda

#endif
