// Which compiled functions a thread can run stackless (CompiledFunction::stackless): the
// bytecode loop runs their calls itself, stopping and resuming between events without a
// native stack (bytecode_vm.cpp; docs/architecture.md, "Stackless threads").
#include "bytecode.h"

#include <algorithm>
#include <unordered_map>

namespace fencelab {

void Bytecode::mark_stackless() {
  // Depth first over the calls: a function met again while its own calls are being visited is
  // recursive, and neither it nor any function that can reach it runs stackless.
  struct Verdict {
    bool visiting = true;
    bool stackless = false;
    uint32_t stack_need = 0;
  };
  std::unordered_map<const CompiledFunction*, Verdict> verdicts;
  const auto visit = [&verdicts](auto& self, const CompiledFunction& f) -> Verdict {
    verdicts[&f] = Verdict{};
    Verdict v{false, true, f.max_depth};
    for (const Instr& instr : f.code) {
      if (instr.op == Opcode::EvalAst || instr.op == Opcode::ExecAst) v.stackless = false;
      if (instr.op != Opcode::Call) continue;
      const CompiledFunction* callee = instr.callee;
      if (callee == nullptr || instr.arg != callee->function->params.size()) {
        v.stackless = false;
        continue;
      }
      const auto found = verdicts.find(callee);
      const Verdict c = found == verdicts.end() ? self(self, *callee) : found->second;
      if (c.visiting || !c.stackless) v.stackless = false; // visiting: a recursive call
      else v.stack_need = std::max(v.stack_need, instr.arg2 + c.stack_need);
    }
    v.stackless = v.stackless && v.stack_need <= Bytecode::kMaxStack;
    return verdicts[&f] = v;
  };
  for (const auto& function : m_functions) {
    const auto found = verdicts.find(function.get());
    const Verdict v = found == verdicts.end() ? visit(visit, *function) : found->second;
    function->stackless = v.stackless;
    function->stack_need = v.stack_need;
  }
}

} // namespace fencelab
