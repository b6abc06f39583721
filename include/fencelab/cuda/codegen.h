// CUDA code generation from a Program: an AST-to-CUDA printer (never text substitution).
//
// Two shapes of generated source:
//  - plain: the kernel file's functions and variables as CUDA, the launched kernel turned into
//    a __device__ function called from `extern "C" __global__ void __fl_plain(params)`.
//    Observed locals are recorded into `__device__ unsigned long long __fl_obs[K]` and
//    `__device__ unsigned char __fl_obs_present[K]` (K = observed items; index = item index)
//    after every assignment to them. Observed memory items are read back from the globals and
//    buffers by the host.
//  - litmus: many instances of the test per launch. Every global/constant variable and argument
//    buffer of one instance lives in a cell of one large buffer (`mem`); the host gives each
//    instance's objects shuffled byte offsets (`place`) and each logical block slot a shuffled
//    (instance, logical block) pair (`assign`) before every launch. The kernel body reaches its
//    variables, its threadIdx/blockIdx/blockDim/gridDim and its result slots through a
//    per-thread context `__fl_ctx`, passed to every function. Entries: `__fl_init`,
//    `__fl_litmus`, `__fl_collect` (signatures in litmus_kernel_signature below).
// Template parameters are printed as the values sema folded from `//@ template`, so no
// function is printed as a template (the kernel language takes template values only from
// directives; see frontend/parse_expressions.cpp).
#pragma once

#include "fencelab/program/program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fencelab::cuda {

/** How a litmus launch maps logical blocks onto physical blocks. */
struct LitmusShape {
  uint32_t block_threads = 1;   ///< threads of one logical block (the harness's block size)
  uint32_t logical_blocks = 1;  ///< blocks of one instance (the harness's grid size)
  uint32_t slots_per_block = 1; ///< logical blocks packed in one physical block
  uint32_t object_count = 0;    ///< memory objects (indices into Program::memory_objects)
  uint32_t cell_bytes = 4;      ///< bytes of one cell of the large buffer
  std::vector<uint32_t> objects; ///< Program::memory_objects index of each litmus object
};

struct GeneratedCuda {
  std::string source;
  std::string entry; ///< the kernel to launch: __fl_plain or __fl_litmus
  LitmusShape litmus; ///< litmus mode only
};

/** A canonical word of `type` as a CUDA expression of exactly that type. */
std::string cuda_literal(Word value, const Type& type);

/** Whether the Program uses __half anywhere: its source then includes cuda_fp16.h. */
bool uses_half(const Program& program);

/** Plain mode: the kernel as written, plus the recording of observed locals. */
GeneratedCuda generate_plain(const Program& program);

/** Why litmus mode cannot run this Program (empty when it can). */
std::string litmus_unsuitable(const Program& program);

/** Whether litmus mode is the default for this Program: small grid, scalar outcome. */
bool litmus_by_default(const Program& program);

/** Litmus mode (see above). Call only when litmus_unsuitable() is empty. */
GeneratedCuda generate_litmus(const Program& program);

} // namespace fencelab::cuda
