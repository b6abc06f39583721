// Litmus programs: names, the well-formedness check, and the rendering as a CUDA kernel.
#include "litmus_program.h"

#include <algorithm>
#include <cstdio>

namespace fencelab::testing {

namespace {

/** The CUDA spelling of each atomic function (Programming Guide 10.14). */
const char* rmw_name(LitmusRmw rmw) {
  switch (rmw) {
  case LitmusRmw::Add: return "atomicAdd";
  case LitmusRmw::Sub: return "atomicSub";
  case LitmusRmw::Exch: return "atomicExch";
  case LitmusRmw::Cas: return "atomicCAS";
  case LitmusRmw::Min: return "atomicMin";
  case LitmusRmw::Max: return "atomicMax";
  case LitmusRmw::Inc: return "atomicInc";
  case LitmusRmw::Dec: return "atomicDec";
  case LitmusRmw::And: return "atomicAnd";
  case LitmusRmw::Or: return "atomicOr";
  case LitmusRmw::Xor: return "atomicXor";
  }
  return "?";
}

std::string hex(uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", mask);
  return text;
}

/** One operation as a statement (barriers included). */
std::string render_op(const LitmusOp& op) {
  const std::string x = location_name(op.location);
  switch (op.kind) {
  case LitmusOpKind::Store: return x + " = " + std::to_string(op.value) + ";";
  case LitmusOpKind::Load: return "int r" + std::to_string(op.result) + " = " + x + ";";
  case LitmusOpKind::Atomic: {
    const char* suffix = op.scope == LitmusScope::Block ? "_block" : op.scope == LitmusScope::System ? "_system" : "";
    // atomicInc and atomicDec take an unsigned int* (Programming Guide 10.14.1.7-8).
    const bool unsigned_only = op.rmw == LitmusRmw::Inc || op.rmw == LitmusRmw::Dec;
    std::string call = std::string(rmw_name(op.rmw)) + suffix + (unsigned_only ? "((unsigned int*)&" : "(&") + x + ", ";
    if (op.rmw == LitmusRmw::Cas) call += std::to_string(op.compare) + ", ";
    call += std::to_string(op.value) + (unsigned_only ? "u)" : ")");
    return op.result >= 0 ? "int r" + std::to_string(op.result) + " = " + call + ";" : call + ";";
  }
  case LitmusOpKind::Fence:
    return op.scope == LitmusScope::Block    ? "__threadfence_block();"
           : op.scope == LitmusScope::Device ? "__threadfence();"
                                             : "__threadfence_system();";
  case LitmusOpKind::Syncthreads: return "__syncthreads();";
  case LitmusOpKind::Syncwarp: return "__syncwarp(" + hex(op.mask) + ");";
  }
  return "";
}

uint32_t syncthreads_count(const LitmusThread& thread) {
  return uint32_t(std::count_if(thread.ops.begin(), thread.ops.end(),
                                [](const LitmusOp& op) { return op.kind == LitmusOpKind::Syncthreads; }));
}

/** The thread's operations between its phase-th and (phase+1)-th __syncthreads. */
std::vector<LitmusOp> phase_ops(const LitmusThread& thread, uint32_t phase) {
  std::vector<LitmusOp> out;
  uint32_t at = 0;
  for (const LitmusOp& op : thread.ops) {
    if (op.kind == LitmusOpKind::Syncthreads) {
      ++at;
      continue;
    }
    if (at == phase) out.push_back(op);
  }
  return out;
}

/** Whether every lane's __syncwarp masks of one phase can complete: a warp barrier completes
 *  when each lane of its mask waits at a __syncwarp with that mask (warp_schedule.h), and a
 *  completion only moves its own lanes on, so completing greedily decides it. */
bool warp_barriers_complete(std::vector<std::vector<uint32_t>> masks_by_lane) {
  std::vector<size_t> next(masks_by_lane.size(), 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t lane = 0; lane < masks_by_lane.size(); ++lane) {
      if (next[lane] == masks_by_lane[lane].size()) continue;
      const uint32_t mask = masks_by_lane[lane][next[lane]];
      bool all_there = true;
      for (size_t other = 0; other < masks_by_lane.size(); ++other)
        if ((mask >> other & 1) != 0)
          all_there = all_there && next[other] < masks_by_lane[other].size() && masks_by_lane[other][next[other]] == mask;
      if (!all_there) continue;
      for (size_t other = 0; other < masks_by_lane.size(); ++other)
        if ((mask >> other & 1) != 0) ++next[other];
      progress = true;
    }
  }
  for (size_t lane = 0; lane < masks_by_lane.size(); ++lane)
    if (next[lane] != masks_by_lane[lane].size()) return false;
  return true;
}

} // namespace

std::string location_name(uint32_t location) {
  static const char* kNames[] = {"x", "y", "z"};
  return location < 3 ? kNames[location] : "v" + std::to_string(location);
}

std::vector<std::string> observed_labels(const LitmusProgram& program) {
  std::vector<std::string> labels;
  for (uint32_t l = 0; l < program.initial.size(); ++l) labels.push_back(location_name(l));
  for (uint32_t r = 0; r < program.registers; ++r) labels.push_back("r" + std::to_string(r));
  return labels;
}

std::string outcome_text(const LitmusProgram& program, const std::vector<int32_t>& values) {
  const std::vector<std::string> labels = observed_labels(program);
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? " " : "") + (i < labels.size() ? labels[i] : "?") + "=" + std::to_string(values[i]);
  return out;
}

std::string check_litmus_program(const LitmusProgram& p) {
  if (p.blocks == 0 || p.threads_per_block == 0 || p.threads_per_block > 32)
    return "a launch of 1 or more blocks of 1 to 32 threads (one warp) is needed";
  if (p.threads.size() != size_t(p.blocks) * p.threads_per_block) return "the thread count is not blocks * threads";
  if (p.initial.empty() || p.initial.size() > 3) return "1 to 3 locations are needed";
  std::vector<uint32_t> writes(p.registers, 0);
  for (uint32_t t = 0; t < p.threads.size(); ++t) {
    const uint32_t lane = p.lane_of(t);
    for (const LitmusOp& op : p.threads[t].ops) {
      const bool memory = op.kind == LitmusOpKind::Store || op.kind == LitmusOpKind::Load || op.kind == LitmusOpKind::Atomic;
      if (memory && op.location >= p.initial.size()) return "thread " + std::to_string(t) + " names no location";
      if (op.kind == LitmusOpKind::Load && op.result < 0) return "a load without a register";
      if (op.result >= 0 && (op.kind == LitmusOpKind::Load || op.kind == LitmusOpKind::Atomic)) {
        if (uint32_t(op.result) >= p.registers) return "register r" + std::to_string(op.result) + " beyond the count";
        ++writes[op.result];
      }
      if (op.kind == LitmusOpKind::Syncwarp) {
        if ((op.mask >> lane & 1) == 0) return "thread " + std::to_string(t) + "'s __syncwarp mask omits its own lane";
        if (p.threads_per_block < 32 && (op.mask >> p.threads_per_block) != 0)
          return "a __syncwarp mask names a lane the block does not have";
      }
    }
  }
  for (uint32_t r = 0; r < p.registers; ++r)
    if (writes[r] != 1) return "register r" + std::to_string(r) + " is not written by exactly one operation";
  for (uint32_t b = 0; b < p.blocks; ++b) {
    uint32_t phases = 0;
    for (uint32_t lane = 0; lane < p.threads_per_block; ++lane)
      phases = std::max(phases, syncthreads_count(p.threads[b * p.threads_per_block + lane]));
    for (uint32_t phase = 0; phase <= phases; ++phase) {
      std::vector<std::vector<uint32_t>> masks(p.threads_per_block);
      for (uint32_t lane = 0; lane < p.threads_per_block; ++lane)
        for (const LitmusOp& op : phase_ops(p.threads[b * p.threads_per_block + lane], phase))
          if (op.kind == LitmusOpKind::Syncwarp) masks[lane].push_back(op.mask);
      if (!warp_barriers_complete(masks))
        return "block " + std::to_string(b) + "'s __syncwarp masks of phase " + std::to_string(phase) + " can deadlock";
    }
  }
  return "";
}

// Each block's code, phase by phase: `if (threadIdx.x == L) { ... }` for each lane with
// something to do in the phase, then the block's __syncthreads() at the top level of the
// block's branch (uniform within the block). A lane with fewer __syncthreads than its block
// returns at the end of its last phase.
std::string render_litmus_kernel(const LitmusProgram& p) {
  std::string text = "//@ launch grid=" + std::to_string(p.blocks) + " block=" + std::to_string(p.threads_per_block) + "\n";
  for (uint32_t l = 0; l < p.initial.size(); ++l)
    text += "__device__ int " + location_name(l) + " = " + std::to_string(p.initial[l]) + ";\n";
  text += "//@ observe";
  for (uint32_t l = 0; l < p.initial.size(); ++l) text += " " + location_name(l);
  for (uint32_t r = 0; r < p.registers; ++r) text += " k.r" + std::to_string(r);
  text += "\n__global__ void k() {\n";
  for (uint32_t b = 0; b < p.blocks; ++b) {
    const std::string indent = p.blocks > 1 ? "    " : "  ";
    if (p.blocks > 1) text += "  if (blockIdx.x == " + std::to_string(b) + ") {\n";
    uint32_t phases = 0;
    for (uint32_t lane = 0; lane < p.threads_per_block; ++lane)
      phases = std::max(phases, syncthreads_count(p.threads[b * p.threads_per_block + lane]));
    for (uint32_t phase = 0; phase <= phases; ++phase) {
      for (uint32_t lane = 0; lane < p.threads_per_block; ++lane) {
        const LitmusThread& thread = p.threads[b * p.threads_per_block + lane];
        const uint32_t own_phases = syncthreads_count(thread);
        if (phase > own_phases) continue;
        std::string code;
        for (const LitmusOp& op : phase_ops(thread, phase)) code += " " + render_op(op);
        if (phase == own_phases && own_phases < phases) code += " return;";
        if (!code.empty()) text += indent + "if (threadIdx.x == " + std::to_string(lane) + ") {" + code + " }\n";
      }
      if (phase < phases) text += indent + "__syncthreads();\n";
    }
    if (p.blocks > 1) text += "  }\n";
  }
  return text + "}\n";
}

} // namespace fencelab::testing
