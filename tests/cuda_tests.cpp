// The CUDA backend: code generation and the no-GPU path on the host; nvcc compiles the
// generated source when nvcc is present; real-GPU runs when a device is present. Tests that
// need what is missing WARN and return, and say so in their names.
#include "fencelab/cuda/codegen.h"
#include "fencelab/cuda/gpu.h"
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

int shell(const std::string& command, std::string& output) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char* const kNvcc = "/usr/local/cuda/bin/nvcc";

} // namespace

TEST_CASE("cuda: plain code generation prints the kernel and records observed locals", "[cuda]") {
  const Kernel k = kernel_from_file(catalogue_path("fences/write_read_xy.cu"));
  const auto generated = cuda::generate_plain(k.program());
  const std::string& s = generated.source;
  CHECK(generated.entry == "__fl_plain");
  CHECK(contains(s, "__device__ int X = 1;"));
  CHECK(contains(s, "extern \"C\" __global__ void __fl_plain()"));
  CHECK(contains(s, "__fl_note(1u, B)")); // readXY.A and readXY.B are observed (items 0, 1)
  CHECK(contains(s, "#line "));           // errors point at the kernel file
}

TEST_CASE("cuda: litmus code generation moves variables into shuffled cells", "[cuda]") {
  const Kernel k = kernel_from_file(catalogue_path("litmus/mp_inter.cu"));
  CHECK(cuda::litmus_unsuitable(k.program()).empty());
  CHECK(cuda::litmus_by_default(k.program()));
  const auto generated = cuda::generate_litmus(k.program());
  CHECK(generated.litmus.object_count == 2);
  CHECK(generated.litmus.logical_blocks == 2);
  CHECK(generated.litmus.slots_per_block == 256); // one-thread blocks, nothing block-wide: packed
  CHECK(!contains(generated.source, "__device__ int x"));
  CHECK(contains(generated.source, "__c.bid.x"));
  CHECK(contains(generated.source, "__fl_init"));
  CHECK(contains(generated.source, "__fl_collect"));
}

TEST_CASE("cuda: litmus packs one-warp logical blocks with barriers, each barrier over its own lanes", "[cuda]") {
  // barrier_inter: one-thread blocks; the barrier becomes __syncwarp over the block's lane.
  const Kernel small = kernel_from_file(catalogue_path("litmus/barrier_inter.cu"));
  const auto packed = cuda::generate_litmus(small.program());
  CHECK(packed.litmus.slots_per_block == 256);
  CHECK(packed.source.find("__syncwarp(__c.bmask)") != std::string::npos);
  CHECK(packed.source.find("__syncthreads()") == std::string::npos);
  CHECK(packed.source.find("__c.bmask = ((1u << 1u) - 1u) << (threadIdx.x % 32u / 1u * 1u);") != std::string::npos);

  // barrier_intra: a 64-thread block spans two warps, so it keeps a physical block and
  // __syncthreads().
  const Kernel wide = kernel_from_file(catalogue_path("litmus/barrier_intra.cu"));
  const auto alone = cuda::generate_litmus(wide.program());
  CHECK(alone.litmus.slots_per_block == 1);
  CHECK(alone.source.find("__syncthreads()") != std::string::npos);
  CHECK(alone.source.find("__syncwarp(") == std::string::npos);
}

TEST_CASE("cuda: reductions default to plain mode", "[cuda]") {
  const Kernel k = kernel_from_file(catalogue_path("reductions/block_reduction_optimized.cu"));
  CHECK_FALSE(cuda::litmus_by_default(k.program()));
  const auto s = cuda::generate_plain(k.program()).source;
  CHECK(contains(s, "shared_data[4]")); // the template parameter printed as its //@ template value
}

TEST_CASE("cuda: literals are printed exactly", "[cuda]") {
  CHECK(cuda::cuda_literal(word_from_int(-2147483648LL, Type::of(ScalarType::Int)), Type::of(ScalarType::Int)) ==
        "(-2147483647 - 1)");
  CHECK(cuda::cuda_literal(word_from_double(1.5, Type::of(ScalarType::Float)), Type::of(ScalarType::Float)) ==
        "(0x1.8p+0f)");
  CHECK(cuda::cuda_literal(7, Type::of(ScalarType::UInt)) == "7u");
}

// The processes' exit codes without a GPU are tested in exit_code_tests.cpp ("exit 4: ...").
TEST_CASE("cuda: each GPU status has its exit code from README's table", "[cuda]") {
  using cuda::GpuStatus;
  CHECK(cuda::gpu_status_exit_code(GpuStatus::Ok) == 0);
  for (const GpuStatus unavailable : {GpuStatus::NotBuilt, GpuStatus::NoDriver, GpuStatus::NoDevice, GpuStatus::NoCompiler})
    CHECK(cuda::gpu_status_exit_code(unavailable) == 4);
  CHECK(cuda::gpu_status_exit_code(GpuStatus::Fault) == 1); // the kernel's own error, on the device
  CHECK(cuda::gpu_status_exit_code(GpuStatus::Hang) == 1);
  CHECK(cuda::gpu_status_exit_code(GpuStatus::Unsupported) == 2);  // a kernel the backend cannot run
  CHECK(cuda::gpu_status_exit_code(GpuStatus::CompileError) == 3); // fencelab generated CUDA NVRTC rejects
  CHECK(cuda::gpu_status_exit_code(GpuStatus::DriverError) == 3);
}

TEST_CASE("cuda: nvcc compiles the generated source of every catalogue kernel (skips without nvcc)", "[cuda][nvcc]") {
  if (!std::filesystem::exists(kNvcc)) {
    WARN("skipped: no nvcc at " << kNvcc);
    return;
  }
  // One directory per process: two suites at once (a build tree and a worktree's) must not share it.
  const auto dir = std::filesystem::temp_directory_path() / ("fencelab_cuda_nvcc_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  size_t written = 0;
  for (const std::string& path : catalogue_files()) {
    SourceFile file("", "");
    std::string error;
    REQUIRE(SourceFile::read(path, file, error));
    auto compiled = compile_text(file.text(), path);
    if (compiled->program == nullptr) continue; // not in fencelab's subset: nothing to generate
    // A grid sync is lowered onto a hidden counter that generated CUDA cannot express as the
    // cooperative launch it needs: `gpu` refuses such kernels (gpu_command.cpp).
    if (compiled->program->unit.uses_grid_sync) continue;
    const std::string stem = std::filesystem::path(path).stem().string();
    std::ofstream(dir / (stem + "_plain.cu")) << cuda::generate_plain(*compiled->program).source;
    ++written;
    if (cuda::litmus_unsuitable(*compiled->program).empty()) {
      std::ofstream(dir / (stem + "_litmus.cu")) << cuda::generate_litmus(*compiled->program).source;
      ++written;
    }
  }
  REQUIRE(written > 100);
  std::string output;
  const int code = shell(fmt::format("cd {} && ls *.cu | xargs -P $(nproc) -I{{}} sh -c '{} -arch=sm_90 -c {{}} -o "
                                     "{{}}.o > {{}}.log 2>&1 || (echo FAILED {{}}; head -5 {{}}.log)'",
                                     dir.string(), kNvcc),
                         output);
  INFO(output);
  CHECK(code == 0);
  CHECK(!contains(output, "FAILED"));
  if (code == 0) std::filesystem::remove_all(dir); // kept to look into after a failure
}

namespace {
/** The GPU tests' device, or a WARN and false. */
bool have_gpu() {
  const auto probe = cuda::probe_gpu();
  if (probe.status != cuda::GpuStatus::Ok) {
    WARN("skipped: no GPU (" << probe.message << ")");
    return false;
  }
  return true;
}
} // namespace

TEST_CASE("cuda GPU: litmus MP between blocks shows only outcomes the gpu model allows (skips without a GPU)",
          "[cuda][gpu]") {
  if (!have_gpu()) return;
  const Kernel k = kernel_from_file(catalogue_path("litmus/mp_inter.cu"));
  cuda::GpuOptions options;
  options.litmus = true;
  options.launches = 20;
  const auto result = cuda::run_on_gpu(k.program(), options);
  INFO(result.message);
  REQUIRE(result.status == cuda::GpuStatus::Ok);
  CHECK(result.executions == uint64_t(options.launches) * options.instances);
  const auto model = create_model("gpu");
  const auto allowed = outcome_strings(k.program(), explore_exhaustive(*k.machine, *model, {}));
  for (const auto& [outcome, count] : result.outcomes) CHECK(allowed.count(outcome.to_string(k.program())) == 1);
}

TEST_CASE("cuda GPU: plain mode reproduces the block reduction's sums (skips without a GPU)", "[cuda][gpu]") {
  if (!have_gpu()) return;
  const Kernel k = kernel_from_file(catalogue_path("reductions/block_reduction_optimized.cu"));
  cuda::GpuOptions options;
  options.runs = 10;
  const auto result = cuda::run_on_gpu(k.program(), options);
  INFO(result.message);
  REQUIRE(result.status == cuda::GpuStatus::Ok);
  REQUIRE(result.outcomes.size() == 1);
  CHECK(result.outcomes[0].first.to_string(k.program()) == "output[0]=10 output[1]=18");
}

TEST_CASE("cuda GPU: a trap is reported as a fault (skips without a GPU)", "[cuda][gpu]") {
  if (!have_gpu()) return;
  const Kernel k = kernel_from_text("//@ launch grid=1 block=1\n__device__ int x;\n__global__ void k() { x = 1; __trap(); }\n");
  cuda::GpuOptions options;
  options.runs = 1;
  const auto result = cuda::run_on_gpu(k.program(), options);
  CHECK(result.status == cuda::GpuStatus::Fault);
}
