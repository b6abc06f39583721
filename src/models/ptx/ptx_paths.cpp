// Paths by depth-first search over branch decisions, each branch and goto at most kBranchBound
// times on one path (bounded loop unrolling, as bounded model checkers of litmus tests do).
#include "ptx_paths.h"

#include <algorithm>

namespace fencelab::ptx {

using litmus::PtxInstruction;
using litmus::PtxInstructionKind;

namespace {

/** Paths per thread beyond which the search stops adding (a test that large is refused later
 *  by the candidate limit anyway). */
constexpr size_t kMaxPaths = 256;

int label_index(const std::vector<PtxInstruction>& code, const std::string& label) {
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].kind == PtxInstructionKind::label && code[i].label == label) return static_cast<int>(i);
  return static_cast<int>(code.size());
}

void walk(const std::vector<PtxInstruction>& code, size_t pc, std::vector<int>& counts, std::vector<PtxInstruction>& path,
          std::vector<std::vector<PtxInstruction>>& paths) {
  if (paths.size() >= kMaxPaths) return;
  if (pc >= code.size()) {
    paths.push_back(path);
    return;
  }
  const PtxInstruction& instruction = code[pc];
  switch (instruction.kind) {
  case PtxInstructionKind::label: walk(code, pc + 1, counts, path, paths); return;
  case PtxInstructionKind::jump:
    if (++counts[pc] <= kBranchBound) walk(code, label_index(code, instruction.label), counts, path, paths);
    --counts[pc];
    return;
  case PtxInstructionKind::branch: {
    if (++counts[pc] <= kBranchBound) {
      for (bool taken : {false, true}) {
        PtxInstruction assume = instruction;
        assume.kind = PtxInstructionKind::assume;
        assume.assume_taken = taken;
        path.push_back(assume);
        walk(code, taken ? label_index(code, instruction.label) : pc + 1, counts, path, paths);
        path.pop_back();
      }
    }
    --counts[pc];
    return;
  }
  default:
    path.push_back(instruction);
    walk(code, pc + 1, counts, path, paths);
    path.pop_back();
    return;
  }
}

} // namespace

bool has_control_flow(const litmus::PtxTest& test) {
  for (const auto& thread : test.threads)
    for (const auto& instruction : thread.instructions)
      if (instruction.kind == PtxInstructionKind::branch || instruction.kind == PtxInstructionKind::jump ||
          instruction.kind == PtxInstructionKind::label)
        return true;
  return false;
}

std::vector<std::vector<std::vector<PtxInstruction>>> thread_paths(const litmus::PtxTest& test) {
  std::vector<std::vector<std::vector<PtxInstruction>>> result;
  for (const auto& thread : test.threads) {
    std::vector<int> counts(thread.instructions.size(), 0);
    std::vector<PtxInstruction> path;
    std::vector<std::vector<PtxInstruction>> paths;
    walk(thread.instructions, 0, counts, path, paths);
    result.push_back(std::move(paths));
  }
  return result;
}

} // namespace fencelab::ptx
