// Which compiled reads can repeat a spin iteration (Instr::read_repeatable): spin recognition
// (spin_loops.cpp) compares the thread's state before a read with its state before its previous
// read, and only where both reads are at the same expression with no other visible event
// between them can the two be equal. A read from which every path back to its expression
// passes a barrier or a fence (each always a visible event of the thread: arrive_at_barrier,
// announce_visible_event) is never compared so, and its snapshot is not taken: in a tree
// reduction every read is such a read, and its snapshot cost a twentieth of the run (issue 12).
#include "bytecode.h"

#include <vector>

namespace fencelab {

namespace {

/** Loads, atomics and read-modify-writes of memory: the instructions whose read names `node`
 *  as its site (bytecode_vm.cpp sets SimThread::read_site from them). */
bool reads_memory(Opcode op) {
  switch (op) {
  case Opcode::Load:
  case Opcode::LoadAt:
  case Opcode::IncrementMemory:
  case Opcode::CompoundMemory:
  case Opcode::Atomic: return true;
  default: return false;
  }
}

/** Whether a path from `read`'s successors reaches a read at the same expression, or somewhere
 *  this function cannot see past (a call, code left to the AST, a device function's end, after
 *  which its caller may call it again), without passing a barrier or a fence. `in_kernel`:
 *  the function's end is the thread's, which ends the path. */
bool may_reach_again(const std::vector<Instr>& code, size_t read, bool in_kernel) {
  std::vector<bool> seen(code.size(), false);
  std::vector<size_t> pending;
  bool leaves = false; // a path leaves a device function
  const auto go = [&](size_t at) {
    if (at >= code.size()) leaves = leaves || !in_kernel;
    else if (!seen[at]) {
      seen[at] = true;
      pending.push_back(at);
    }
  };
  go(read + 1);
  while (!pending.empty() && !leaves) {
    const size_t at = pending.back();
    pending.pop_back();
    const Instr& i = code[at];
    if (reads_memory(i.op) && i.node == code[read].node) return true;
    switch (i.op) {
    case Opcode::Barrier:
    case Opcode::Fence: continue; // a visible event: the path ends the comparison here
    case Opcode::Call:
    case Opcode::EvalAst:
    case Opcode::ExecAst: return true; // reads this analysis does not follow
    case Opcode::Return:
    case Opcode::Leave: go(code.size()); continue;
    case Opcode::Jump: go(i.arg); continue;
    case Opcode::JumpIfFalse:
    case Opcode::JumpIfTrue:
    case Opcode::JumpIfZero:
    case Opcode::JumpIfNonZero:
    case Opcode::CompareJump:
    case Opcode::CompareJumpConst: go(i.arg); break;
    case Opcode::StepTwice: go(at + 2); break; // it may skip the Step after it
    default: break;
    }
    go(at + 1);
  }
  return leaves;
}

} // namespace

void Bytecode::mark_repeatable_reads(const FunctionDecl& kernel) {
  for (const auto& function : m_functions) {
    const bool in_kernel = function->function == &kernel;
    std::vector<Instr>& code = function->code;
    for (size_t at = 0; at < code.size(); ++at)
      if (reads_memory(code[at].op)) code[at].read_repeatable = may_reach_again(code, at, in_kernel);
  }
}

} // namespace fencelab
