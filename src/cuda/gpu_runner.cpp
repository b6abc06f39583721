// fencelab on a real GPU: compile with NVRTC, set up the harness, launch, read back, histogram.
// Driver calls follow the CUDA driver API reference: primary context (cuDevicePrimaryCtxRetain,
// "Primary Context Management"), cuModuleLoadData of a CUBIN (NVRTC "Basic Usage": compile for
// sm_XY and load the CUBIN, so no PTX JIT), cuModuleGetGlobal for __device__ variables,
// cuLaunchKernel, and cuStreamQuery polling for the watchdog (CUDA_ERROR_NOT_READY while the
// kernel runs; a sticky error such as CUDA_ERROR_ILLEGAL_ADDRESS once it faulted).
#include "fencelab/cuda/gpu.h"

#include "fencelab/cuda/codegen.h"

#include <fmt/format.h>

#ifdef FENCELAB_CUDA_BACKEND
#include "driver_api.h"
#include "codegen_printer.h"
#include "gpu_session.h"

#include "fencelab/explore/exploration.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <regex>
#include <thread>
#include <unordered_map>
#endif

namespace fencelab::cuda {

int gpu_status_exit_code(GpuStatus status) {
  // The table of README.md, "Exit codes" (src/cli/commands.h, ExitCode).
  switch (status) {
  case GpuStatus::Ok: return 0;
  case GpuStatus::Fault: // the kernel's own error on the device: a finding
  case GpuStatus::Hang: return 1;
  case GpuStatus::Unsupported: return 2; // a kernel this backend (or litmus mode) cannot run
  case GpuStatus::CompileError:          // fencelab accepted the kernel and generated CUDA NVRTC rejects
  case GpuStatus::DriverError: return 3;
  case GpuStatus::NotBuilt:
  case GpuStatus::NoDriver:
  case GpuStatus::NoDevice:
  case GpuStatus::NoCompiler: return 4; // unavailable: the GPU command cannot run here
  }
  return 3;
}

#ifndef FENCELAB_CUDA_BACKEND

GpuResult probe_gpu() {
  GpuResult result;
  result.status = GpuStatus::NotBuilt;
  result.message = "this fencelab was built without the CUDA backend (no CUDA toolkit headers at build time)";
  return result;
}

GpuResult run_on_gpu(const Program&, const GpuOptions&) {
  GpuResult result;
  result.status = GpuStatus::NotBuilt;
  result.message = "this fencelab was built without the CUDA backend (no CUDA toolkit headers at build time)";
  return result;
}

#else

namespace {

using Clock = std::chrono::steady_clock;

/** The low `size` bytes of a canonical word, little-endian (the device's byte order). */
void put_word(std::vector<uint8_t>& bytes, size_t at, Word value, uint32_t size) {
  for (uint32_t i = 0; i < size; ++i) bytes[at + i] = uint8_t(value >> (8 * i));
}

std::vector<uint8_t> initial_bytes(const MemoryObject& o) {
  const uint32_t size = o.element_type.size();
  std::vector<uint8_t> bytes(size_t(o.element_count) * size, 0);
  for (size_t e = 0; e < o.initial_values.size() && e < o.element_count; ++e)
    put_word(bytes, e * size, o.initial_values[e], size);
  return bytes;
}

Outcome make_outcome(const Program& program, const Word* words, const uint8_t* present) {
  Outcome outcome;
  for (size_t k = 0; k < program.observed.size(); ++k) {
    outcome.present.push_back(present[k]);
    outcome.values.push_back(present[k] ? canonical_word(words[k], program.observed[k].type) : 0);
  }
  return outcome;
}

/** NVRTC's "file(12): error: ..." becomes "file:12: error: ..." (the #line directives of the
 *  generated source make NVRTC name the kernel file, NVRTC "Compilation" log format). */
std::string compiler_log(std::string log) {
  static const std::regex location(R"(^(.+)\((\d+)\): )", std::regex::multiline);
  return std::regex_replace(log, location, "$1:$2: ");
}

/** Waits for the stream to drain, polling (cuStreamQuery) so a hung kernel cannot hang us. */
GpuStatus wait_for(GpuSession& s, double seconds, std::string& message) {
  const auto start = Clock::now();
  for (;;) {
    const CUresult r = s.api.cuStreamQuery(nullptr);
    if (r == CUDA_SUCCESS) return GpuStatus::Ok;
    if (r != CUDA_ERROR_NOT_READY) {
      message = fmt::format("the kernel faulted: {}", describe(s.api, r));
      return GpuStatus::Fault;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed > seconds) {
      message = fmt::format("the kernel did not finish within the {:g} s watchdog (a hang: deadlock, "
                            "barrier divergence or a spin that never ends?)",
                            seconds);
      return GpuStatus::Hang;
    }
    if (elapsed < 0.002) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

#define FL_CHECK(call)                                                                             \
  do {                                                                                             \
    const CUresult fl_result = (call);                                                             \
    if (fl_result != CUDA_SUCCESS) return s.fail(fl_result, #call);                                \
  } while (0)

/** The CUDA toolkit's include directory holding cuda_fp16.h ($CUDA_HOME, $CUDA_PATH, then
 *  /usr/local/cuda), for kernels that use __half: NVRTC is not sure to have the header built
 *  in (its "Builtin headers" list varies by version). Empty when none has it. */
std::string cuda_include_directory() {
  std::vector<std::string> roots;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') roots.emplace_back(value);
  roots.emplace_back("/usr/local/cuda");
  for (const std::string& root : roots) {
    std::error_code ignored;
    if (std::filesystem::exists(std::filesystem::path(root) / "include" / "cuda_fp16.h", ignored))
      return root + "/include";
  }
  return {};
}

GpuStatus compile(GpuSession& s, const Program& program, const std::string& source, std::string& message) {
  std::string error;
  if (!load_nvrtc(s.nvrtc, error)) {
    message = error;
    return GpuStatus::NoCompiler;
  }
  nvrtcProgram prog = nullptr;
  if (s.nvrtc.nvrtcCreateProgram(&prog, source.c_str(), program.source->path().c_str(), 0, nullptr, nullptr) !=
      NVRTC_SUCCESS) {
    message = "NVRTC could not create a program";
    return GpuStatus::NoCompiler;
  }
  const std::string arch = fmt::format("--gpu-architecture=sm_{}{}", s.major, s.minor);
  std::vector<std::string> option_texts{arch, "--std=c++17"};
  if (uses_half(program))
    if (const std::string include = cuda_include_directory(); !include.empty()) option_texts.push_back("-I" + include);
  std::vector<const char*> options;
  for (const std::string& text : option_texts) options.push_back(text.c_str());
  const nvrtcResult compiled = s.nvrtc.nvrtcCompileProgram(prog, int(options.size()), options.data());
  size_t log_size = 0;
  s.nvrtc.nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) s.nvrtc.nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (compiled != NVRTC_SUCCESS) {
    s.nvrtc.nvrtcDestroyProgram(&prog);
    message = fmt::format("NVRTC could not compile the kernel for sm_{}{} ({}):\n{}", s.major, s.minor,
                          s.nvrtc.nvrtcGetErrorString(compiled), compiler_log(log));
    return GpuStatus::CompileError;
  }
  size_t cubin_size = 0;
  s.nvrtc.nvrtcGetCUBINSize(prog, &cubin_size);
  std::vector<char> cubin(cubin_size);
  s.nvrtc.nvrtcGetCUBIN(prog, cubin.data());
  s.nvrtc.nvrtcDestroyProgram(&prog);
  const CUresult loaded = s.api.cuModuleLoadData(&s.module, cubin.data());
  if (loaded != CUDA_SUCCESS) {
    message = fmt::format("cuModuleLoadData: {}", describe(s.api, loaded));
    return GpuStatus::DriverError;
  }
  return GpuStatus::Ok;
}

/** Histogram keyed by a hash of the result words, checked against the stored outcome. */
class Histogram {
public:
  explicit Histogram(size_t width) : m_width(width) {}
  void add(const Word* words, const uint8_t* present) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t k = 0; k < m_width; ++k) h = (h ^ (words[k] + (uint64_t(present[k]) << 63))) * 0xbf58476d1ce4e5b9ull;
    if (m_last < m_rows.size() && m_rows[m_last].hash == h && same(m_rows[m_last], words, present)) {
      ++m_rows[m_last].count;
      return;
    }
    auto [it, inserted] = m_index.try_emplace(h, m_rows.size());
    if (!inserted && same(m_rows[it->second], words, present)) {
      m_last = it->second;
      ++m_rows[m_last].count;
      return;
    }
    for (size_t i = 0; i < m_rows.size() && !inserted; ++i) // a hash collision: look everywhere
      if (same(m_rows[i], words, present)) {
        ++m_rows[i].count;
        return;
      }
    m_last = m_rows.size();
    m_rows.push_back(Row{h, std::vector<Word>(words, words + m_width), std::vector<uint8_t>(present, present + m_width), 1});
  }
  template <typename F> void each(F f) const {
    for (const Row& r : m_rows) f(r.words.data(), r.present.data(), r.count);
  }

private:
  struct Row {
    uint64_t hash;
    std::vector<Word> words;
    std::vector<uint8_t> present;
    uint64_t count;
  };
  bool same(const Row& r, const Word* w, const uint8_t* p) const {
    return std::equal(r.words.begin(), r.words.end(), w) && std::equal(r.present.begin(), r.present.end(), p);
  }
  size_t m_width;
  size_t m_last = 0;
  std::vector<Row> m_rows;
  std::unordered_map<uint64_t, size_t> m_index;
};

void finish(const Program& program, const Histogram& histogram, GpuResult& result) {
  std::map<Outcome, uint64_t> sorted;
  histogram.each([&](const Word* w, const uint8_t* p, uint64_t count) { sorted[make_outcome(program, w, p)] += count; });
  result.outcomes.assign(sorted.begin(), sorted.end());
}

GpuStatus run_plain(GpuSession& s, const Program& program, const GpuOptions& options, GpuResult& result) {
  CUfunction entry = nullptr;
  FL_CHECK(s.api.cuModuleGetFunction(&entry, s.module, "__fl_plain"));
  // Device addresses of every global object and argument buffer (shared memory has none).
  std::vector<CUdeviceptr> address(program.memory_objects.size(), 0);
  for (size_t i = 0; i < program.memory_objects.size(); ++i) {
    const MemoryObject& o = program.memory_objects[i];
    if (o.space == MemorySpace::Shared) continue;
    if (o.declaration != nullptr) {
      size_t bytes = 0;
      FL_CHECK(s.api.cuModuleGetGlobal(&address[i], &bytes, s.module, cuda_identifier(o.name).c_str()));
    } else {
      FL_CHECK(s.api.cuMemAlloc(&address[i], std::max<size_t>(1, size_t(o.element_count) * o.element_type.size())));
      s.buffers.push_back(address[i]);
    }
  }
  const size_t width = std::max<size_t>(1, program.observed.size());
  CUdeviceptr obs = 0, obs_present = 0;
  size_t bytes = 0;
  FL_CHECK(s.api.cuModuleGetGlobal(&obs, &bytes, s.module, "__fl_obs"));
  FL_CHECK(s.api.cuModuleGetGlobal(&obs_present, &bytes, s.module, "__fl_obs_present"));
  std::vector<uint64_t> scalars(program.arguments.size(), 0);
  std::vector<void*> params;
  for (size_t i = 0; i < program.arguments.size(); ++i) {
    const KernelArgument& a = program.arguments[i];
    scalars[i] = a.buffer_object ? uint64_t(address[*a.buffer_object]) : a.value;
    params.push_back(&scalars[i]);
  }
  const Dim3 g = program.launch.grid, b = program.launch.block;
  Histogram histogram(program.observed.size());
  std::vector<Word> words(width);
  std::vector<uint8_t> present(width);
  const auto start = Clock::now();
  for (uint64_t run = 0; run < options.runs; ++run) {
    for (size_t i = 0; i < program.memory_objects.size(); ++i) {
      const MemoryObject& o = program.memory_objects[i];
      if (address[i] == 0) continue;
      const std::vector<uint8_t> init = initial_bytes(o);
      if (!init.empty()) FL_CHECK(s.api.cuMemcpyHtoD(address[i], init.data(), init.size()));
    }
    FL_CHECK(s.api.cuMemsetD8(obs, 0, width * sizeof(Word)));
    FL_CHECK(s.api.cuMemsetD8(obs_present, 0, width));
    FL_CHECK(s.api.cuLaunchKernel(entry, g.x, g.y, g.z, b.x, b.y, b.z, program.launch.dynamic_shared_bytes, nullptr,
                                  params.empty() ? nullptr : params.data(), nullptr));
    const GpuStatus waited = wait_for(s, options.watchdog_seconds, result.message);
    if (waited != GpuStatus::Ok) return waited;
    FL_CHECK(s.api.cuMemcpyDtoH(words.data(), obs, width * sizeof(Word)));
    FL_CHECK(s.api.cuMemcpyDtoH(present.data(), obs_present, width));
    for (size_t k = 0; k < program.observed.size(); ++k) {
      const ObservedItem& item = program.observed[k];
      if (item.kind != ObservedItem::Kind::Memory) continue;
      const uint32_t size = item.type.size();
      Word raw = 0;
      if (address[item.object_id] == 0) continue; // shared: not readable after the launch
      FL_CHECK(s.api.cuMemcpyDtoH(&raw, address[item.object_id] + CUdeviceptr(item.element_index) * size, size));
      words[k] = raw;
      present[k] = 1;
    }
    histogram.add(words.data(), present.data());
    ++result.executions;
    ++result.launches;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish(program, histogram, result);
  return GpuStatus::Ok;
}

/** A new random permutation of 0..n-1 (Fisher-Yates, driven by splitmix64). */
void shuffle_into(std::vector<uint32_t>& v, SplitMix64& random) {
  std::iota(v.begin(), v.end(), 0u);
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[random.below(uint32_t(i))]);
}

GpuStatus run_litmus(GpuSession& s, const Program& program, const LitmusShape& shape, const GpuOptions& options,
                     GpuResult& result) {
  CUfunction init = nullptr, litmus = nullptr, collect = nullptr;
  FL_CHECK(s.api.cuModuleGetFunction(&init, s.module, "__fl_init"));
  FL_CHECK(s.api.cuModuleGetFunction(&litmus, s.module, "__fl_litmus"));
  FL_CHECK(s.api.cuModuleGetFunction(&collect, s.module, "__fl_collect"));
  const uint32_t instances = std::max(1u, options.instances);
  const uint32_t objects = std::max(1u, shape.object_count);
  const size_t width = std::max<size_t>(1, program.observed.size());
  const uint32_t slots = instances * shape.logical_blocks;
  const uint32_t block = shape.slots_per_block * shape.block_threads;
  const uint32_t test_blocks = (slots + shape.slots_per_block - 1) / shape.slots_per_block;
  const uint32_t scratch_words = 1u << 22; // 16 MiB of stress target
  CUdeviceptr mem = 0, place = 0, assign = 0, res = 0, pres = 0, scratch = 0, sync = 0;
  const auto alloc = [&](CUdeviceptr& p, size_t bytes) {
    const CUresult r = s.api.cuMemAlloc(&p, bytes);
    if (r == CUDA_SUCCESS) s.buffers.push_back(p);
    return r;
  };
  FL_CHECK(alloc(mem, size_t(instances) * objects * shape.cell_bytes));
  FL_CHECK(alloc(place, size_t(instances) * objects * 4));
  FL_CHECK(alloc(assign, size_t(slots) * 4));
  FL_CHECK(alloc(res, size_t(instances) * width * 8));
  FL_CHECK(alloc(pres, size_t(instances) * width));
  FL_CHECK(alloc(scratch, size_t(scratch_words) * 4));
  FL_CHECK(alloc(sync, size_t(instances) * 4));
  FL_CHECK(s.api.cuMemsetD8(scratch, 0, size_t(scratch_words) * 4));

  SplitMix64 random(options.seed);
  std::vector<uint32_t> place_now(size_t(instances) * objects), assign_now(slots);
  std::vector<uint32_t> place_next(place_now.size()), assign_next(slots);
  const auto make_layout = [&](std::vector<uint32_t>& p, std::vector<uint32_t>& a) {
    shuffle_into(p, random); // cell of (instance, object) -> byte offset
    for (uint32_t& cell : p) cell *= shape.cell_bytes;
    shuffle_into(a, random); // slot -> (instance * logical_blocks + logical block)
  };
  make_layout(place_now, assign_now);
  std::vector<Word> words(size_t(instances) * width);
  std::vector<uint8_t> present(size_t(instances) * width);
  uint32_t stress_blocks = options.stress_blocks, stress_iterations = options.stress_iterations;
  uint32_t sync_spins = options.sync_spins;
  uint32_t instance_count = instances, slot_count = slots, mask = scratch_words - 1;
  void* init_params[] = {&mem, &place, &res, &pres, &instance_count, &sync};
  void* litmus_params[] = {&mem, &place, &assign, &res, &pres, &slot_count, &stress_blocks, &scratch, &mask,
                           &stress_iterations, &sync, &sync_spins};
  const uint32_t per_instance_blocks = (instances + 255) / 256;
  Histogram histogram(program.observed.size());
  const auto start = Clock::now();
  for (uint32_t launch = 0; launch < options.launches; ++launch) {
    FL_CHECK(s.api.cuMemcpyHtoD(place, place_now.data(), place_now.size() * 4));
    FL_CHECK(s.api.cuMemcpyHtoD(assign, assign_now.data(), assign_now.size() * 4));
    FL_CHECK(s.api.cuLaunchKernel(init, per_instance_blocks, 1, 1, 256, 1, 1, 0, nullptr, init_params, nullptr));
    FL_CHECK(s.api.cuLaunchKernel(litmus, test_blocks + stress_blocks, 1, 1, block, 1, 1, 0, nullptr, litmus_params,
                                  nullptr));
    FL_CHECK(s.api.cuLaunchKernel(collect, per_instance_blocks, 1, 1, 256, 1, 1, 0, nullptr, init_params, nullptr));
    make_layout(place_next, assign_next); // the next launch's shuffles, while this one runs
    const GpuStatus waited = wait_for(s, options.watchdog_seconds, result.message);
    if (waited != GpuStatus::Ok) return waited;
    FL_CHECK(s.api.cuMemcpyDtoH(words.data(), res, words.size() * sizeof(Word)));
    FL_CHECK(s.api.cuMemcpyDtoH(present.data(), pres, present.size()));
    for (uint32_t i = 0; i < instances; ++i) histogram.add(&words[size_t(i) * width], &present[size_t(i) * width]);
    result.executions += instances;
    ++result.launches;
    std::swap(place_now, place_next);
    std::swap(assign_now, assign_next);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish(program, histogram, result);
  return GpuStatus::Ok;
}

} // namespace

GpuStatus GpuSession::fail(CUresult r, const char* what) {
  failure = fmt::format("{} failed: {}", what, describe(api, r));
  return r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ASSERT ||
                 r == CUDA_ERROR_ILLEGAL_INSTRUCTION || r == CUDA_ERROR_MISALIGNED_ADDRESS
             ? GpuStatus::Fault
             : GpuStatus::DriverError;
}

GpuResult probe_gpu() {
  GpuResult result;
  GpuSession& s = GpuSession::get();
  if (s.open(result.status, result.message)) result.device = s.device_name;
  return result;
}

GpuResult run_on_gpu(const Program& program, const GpuOptions& options) {
  GpuResult result;
  result.litmus = options.litmus;
  if (program.unit.uses_grid_sync) {
    // The simulator runs grid.sync() as a barrier of its own making (sema_group_operations.cpp);
    // a real one needs cudaLaunchCooperativeKernel, which this backend does not make.
    result.status = GpuStatus::Unsupported;
    result.message = "not supported on the GPU: this_grid().sync() (it needs a cooperative launch)";
    return result;
  }
  if (options.litmus) {
    const std::string why = litmus_unsuitable(program);
    if (!why.empty()) {
      result.status = GpuStatus::Unsupported;
      result.message = "litmus mode cannot run this kernel: " + why + " (run without --litmus for plain mode)";
      return result;
    }
  }
  GpuSession& s = GpuSession::get();
  if (!s.open(result.status, result.message)) return result;
  result.device = s.device_name;
  const GeneratedCuda generated = options.litmus ? generate_litmus(program) : generate_plain(program);
  result.status = compile(s, program, generated.source, result.message);
  if (result.status != GpuStatus::Ok) return result;
  result.status = options.litmus ? run_litmus(s, program, generated.litmus, options, result)
                                 : run_plain(s, program, options, result);
  if (result.status != GpuStatus::Ok && result.message.empty()) result.message = s.failure;
  if (result.status == GpuStatus::Ok || result.status == GpuStatus::DriverError) s.release_module();
  return result;
}

#endif

} // namespace fencelab::cuda
