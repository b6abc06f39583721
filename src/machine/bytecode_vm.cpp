// Runs a compiled function (bytecode.h) in the thread's current frame: one loop over its
// instructions with the operands on a small native stack. What an instruction does to memory,
// slots and the thread's state is done by the same Interpreter members the AST walker uses.
#include "interpreter.h"
#include "memory_access.h"

#include "fencelab/frontend/operators.h"

#include <array>

namespace fencelab {

inline void Interpreter::store(const Instr& i, Word pointer, Word*& sp) {
  const Word v = (i.arg & kKeepValue) ? sp[-1] : *--sp;
  store_memory(m, t, pointer, *i.type, v, i.node->range, (i.arg & kConstantValue) && m.observing(), // only the checkers ask
               (i.arg & kCheckedAddress) != 0);
}

void Interpreter::run(const CompiledFunction& function) {
  std::array<Word, Bytecode::kMaxStack> stack;
  Word* sp = stack.data(); // the next free entry
  const size_t base = frame_base();
  const Instr* const code = function.code.data();
  const Instr* pc = code;
  for (;;) {
    const Instr& i = *pc++;
    switch (i.op) {
    case Opcode::Const: *sp++ = i.imm; break;
    case Opcode::Slot: *sp++ = t.slots[base + i.arg]; break;
    case Opcode::SetSlot: {
      const Word v = *--sp;
      t.slots[base + i.arg] = v;
      if (i.variable != nullptr) m.record_observed_item(t, uint32_t(i.imm), *i.variable, v);
      break;
    }
    case Opcode::Pop: --sp; break;
    case Opcode::Dup:
      *sp = sp[-1];
      ++sp;
      break;
    case Opcode::Load:
      t.read_site = i.node;
      sp[-1] = load_memory(m, t, sp[-1], *i.type, i.node->range, false);
      break;
    case Opcode::LoadAt:
      t.read_site = i.node;
      *sp++ = load_memory(m, t, i.imm, *i.type, i.node->range, (i.arg & kCheckedAddress) != 0);
      break;
    case Opcode::Store: {
      const Word pointer = *--sp;
      store(i, pointer, sp);
      break;
    }
    case Opcode::StoreAt: store(i, i.imm, sp); break;
    case Opcode::BuiltinVariable: *sp++ = builtin_variable(as<BuiltinVariable>(*i.node)); break;
    case Opcode::Unary: {
      const Unary& u = as<Unary>(*i.node);
      sp[-1] = apply_unary(u.op, sp[-1], u.operand->type, u.type);
      break;
    }
    case Opcode::Binary:
      --sp;
      sp[-1] = binary_values(as<Binary>(*i.node), sp[-1], sp[0]);
      break;
    case Opcode::IntegerBinary:
      --sp;
      sp[-1] = plain_integer_operation(BinaryOp(i.arg), sp[-1], sp[0], *i.type, *i.type2);
      break;
    case Opcode::Convert: sp[-1] = convert_word(sp[-1], *i.type, *i.type2); break;
    case Opcode::IndexAddress: {
      const Index& ix = as<Index>(*i.node);
      --sp;
      sp[-1] = pointer_add(sp[-1], ix.base->type, word_to_int(sp[0], ix.index->type));
      break;
    }
    case Opcode::IncrementSlot: {
      const Unary& u = as<Unary>(*i.node);
      *sp++ = increment(u, LValue{true, base + i.arg, 0, u.operand->type, i.variable});
      break;
    }
    case Opcode::IncrementMemory: {
      const Unary& u = as<Unary>(*i.node);
      sp[-1] = increment(u, LValue{false, 0, sp[-1], u.operand->type, nullptr});
      break;
    }
    case Opcode::CompoundSlot: {
      const Assign& a = as<Assign>(*i.node);
      sp[-1] = compound_assign(a, LValue{true, base + i.arg, 0, a.lhs->type, i.variable}, sp[-1]);
      break;
    }
    case Opcode::CompoundMemory: {
      const Assign& a = as<Assign>(*i.node);
      const Word pointer = *--sp;
      sp[-1] = compound_assign(a, LValue{false, 0, pointer, a.lhs->type, nullptr}, sp[-1]);
      break;
    }
    case Opcode::Jump: pc = code + i.arg; break;
    case Opcode::JumpIfFalse:
      if (!word_is_true(*--sp, *i.type)) pc = code + i.arg;
      break;
    case Opcode::JumpIfTrue:
      if (word_is_true(*--sp, *i.type)) pc = code + i.arg;
      break;
    case Opcode::Call: {
      sp -= i.arg;
      const Word result = call(*i.function, std::span<const Word>(sp, i.arg), &as<Call>(*i.node), i.callee);
      *sp++ = result;
      break;
    }
    case Opcode::Barrier: {
      const Call& c = as<Call>(*i.node);
      const bool predicate = i.arg != 0 && word_is_true(*--sp, *i.type);
      *sp++ = m.wait_at_barrier(t, *c.builtin, predicate, c.range);
      break;
    }
    case Opcode::EvalAst: {
      const Word v = eval(*i.node);
      *sp++ = v;
      break;
    }
    case Opcode::ExecAst: {
      const Flow flow = exec(*i.statement);
      if (flow == Flow::Normal) break;
      if (flow == Flow::Return) return; // the AST set the return value
      const uint64_t target = flow == Flow::Break ? i.arg : i.imm;
      if (target == kLeaveFunction) return;
      pc = code + target;
      break;
    }
    case Opcode::Discarded: t.discarded_value = i.node; break;
    case Opcode::Step: m.count_local_step(t, i.statement->range); break;
    case Opcode::Return: t.return_value = *--sp; return;
    case Opcode::Leave: return;
    }
  }
}

} // namespace fencelab
