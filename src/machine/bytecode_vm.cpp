// Runs a compiled function (bytecode.h) in the thread's current frame: one loop over its
// instructions with the operands on a small stack. What an instruction does to memory, slots
// and the thread's state is done by the same Interpreter members the AST walker uses.
//
// The loop has two forms. On a fiber (`run`), a visible event switches to the scheduler inside
// the instruction, and the operands live on the native stack. Stackless (`run_stackless`, a
// stackless kernel: Machine::Impl::stackless_kernel), the loop returns to the scheduler before
// the event instead, with its place and operands in the SimThread, and runs the instruction
// again when resumed, performing the event first. Both perform the same steps in the same
// order; only where the thread waits differs.
#include "interpreter.h"
#include "memory_access.h"

#include "fencelab/frontend/operators.h"
#include "fencelab/machine/atomic_update.h"

#include <array>
#include <cassert>

namespace fencelab {

inline void Interpreter::store(const Instr& i, Word pointer, Word*& sp) {
  const Word v = (i.arg & kKeepValue) ? sp[-1] : *--sp;
  store_memory(m, t, pointer, *i.type, v, i.node->range, (i.arg & kCheckedAddress) != 0);
}

// Stackless accesses (see the file's comment): each begins its access, or, resumed at its event,
// performs it. False: the thread stopped before the event (the caller returns to the
// scheduler). The same steps as load_memory and store_memory, with the switch taken out.

bool Interpreter::load_or_stop(Word pointer, const Type& type, SourceRange range, bool checked, Word& value) {
  if (!t.resume_at_event) {
    const ResolvedAccess a = resolve_access(m, t, pointer, type, EventKind::Load, range, checked);
    if (load_without_event(m, a, type, value)) return true;
    t.resume_same_state = m.announce_read_event(t, EventKind::Load, range, a.location);
    t.pending_access = a;
    t.resume_at_event = true;
    return false;
  }
  t.resume_at_event = false;
  m.resumed_at_read_event(t, t.pending_access.location, t.resume_same_state);
  value = perform_load(m, t, t.pending_access, type, range);
  return true;
}

bool Interpreter::store_or_stop(Word pointer, const Type& type, Word value, SourceRange range, bool checked) {
  if (!t.resume_at_event) {
    const ResolvedAccess a = resolve_access(m, t, pointer, type, EventKind::Store, range, checked);
    if (store_without_event(m, t, a, reinterpret_word(value, type, a.element_type), range)) return true;
    m.announce_visible_event(t, EventKind::Store, range);
    t.pending_access = a;
    t.resume_at_event = true;
    return false;
  }
  t.resume_at_event = false;
  m.resumed_at_visible_event();
  const ResolvedAccess& a = t.pending_access;
  perform_store(m, t, a, type, reinterpret_word(value, type, a.element_type), range);
  return true;
}

bool Interpreter::store_or_stop(const Instr& i, Word pointer, Word value) {
  return store_or_stop(pointer, *i.type, value, i.node->range, (i.arg & kCheckedAddress) != 0);
}

bool Interpreter::atomic_or_stop(const Call& call, std::span<const Word> args, Word& old) {
  // Machine::Impl::apply_builtin's atomic, split at its switch like the accesses above. The
  // update is made again when resumed, but for whether it is unobserved, which depends on
  // whether any thread has run a fence since (Machine::Impl::atomic_update).
  // The read's site is the caller's to set (SimThread::set_read_site).
  AtomicUpdate update = m.atomic_update(t, call, args);
  if (!t.resume_at_event) {
    const ResolvedAccess a = m.resolve_atomic(t, args[0], update, call.range);
    t.resume_same_state = m.announce_read_event(t, EventKind::Atomic, call.range, a.location);
    t.pending_access = a;
    t.resume_unobserved = update.unobserved;
    t.resume_at_event = true;
    return false;
  }
  t.resume_at_event = false;
  update.unobserved = t.resume_unobserved;
  m.resumed_at_read_event(t, t.pending_access.location, t.resume_same_state);
  old = m.perform_atomic(t, t.pending_access, update, atomic_builtin(*call.builtin)->scope, call.range);
  return true;
}

template <class Update>
bool Interpreter::update_or_stop(const Expr& e, const Type& type, Word pointer, Update update) {
  // Interpreter::increment and compound_assign: a load, the update, a store, each event at e.
  // The read's site, `e`, is the caller's to set (SimThread::set_read_site).
  if (t.resume_events_done == 0) {
    if (!load_or_stop(pointer, type, e.range, false, t.resume_loaded)) return false;
    t.resume_updated = update(t.resume_loaded);
    t.resume_events_done = 1;
  }
  if (!store_or_stop(pointer, type, t.resume_updated, e.range, false)) return false;
  t.resume_events_done = 0;
  return true;
}

void Interpreter::run(const CompiledFunction& function) {
  std::array<Word, Bytecode::kMaxStack> stack;
  execute<false>(function, stack.data(), 0, 0);
}

bool Interpreter::run_stackless(const CompiledFunction& kernel) {
  // In a call, it resumes in its innermost frame's code.
  assert(t.stackless_calls + 1 == t.frames.size() && "stackless_calls counts the frames above the kernel's");
  const CompiledFunction& function = t.stackless_calls == 0 ? kernel : *t.frames.back().code;
  return execute<true>(function, t.operand_stack.data(), t.resume_depth, t.resume_pc);
}

size_t Interpreter::enter_stackless_call(const Instr& call, std::span<const Word> args, uint32_t return_pc,
                                         uint32_t return_depth) {
  // Interpreter::call's steps, but for its native frame's check: a stackless thread has none.
  const FunctionDecl& f = *call.callee->function;
  if (t.frames.size() >= m.call_depth_limit()) recursion_too_deep(f);
  const size_t base = enter_frame(f, args, &as<Call>(*call.node));
  Frame& frame = t.frames.back();
  frame.code = call.callee;
  frame.return_pc = return_pc;
  frame.return_depth = return_depth;
  ++t.stackless_calls;
  return base;
}

namespace {

[[noreturn]] void unreachable_in_stackless_code() {
  assert(!"an opcode that a stackless function does not contain");
  __builtin_unreachable();
}

} // namespace

// The loop's switch has a `default` that cannot be reached (every instruction holds an opcode
// the compiler emitted), so that its jump table needs no test for a value past the last opcode:
// two of the dispatch's eight instructions, 1.1% of a tree reduction's (callgrind). GCC 12 drops
// that test only for an unreachable default, and a default silences -Wswitch; -Wswitch-enum,
// an error here, still names every opcode the switch does not handle.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
template <bool kStackless>
bool Interpreter::execute(const CompiledFunction& function, Word* stack, uint32_t depth, uint32_t start) {
  Word* sp = stack + depth; // the next free entry
  // Stackless, in the kernel's frame, the first, the slots start at 0 (the frames' buffer, like
  // the rest of a resumed thread's state, is likely cold: not read for this, nor for whether
  // it is in a call: ThreadRunState::stackless_calls).
  size_t base = kStackless && t.stackless_calls == 0 ? 0 : frame_base();
  const Instr* code = function.code.data();
  const Instr* pc = code + start;
  // Nothing here takes the address of pc, sp, base or code (a lambda capturing them by
  // reference, for the stop before an event and the return to a stackless caller, kept pc on
  // the stack: a store and a reload per instruction). A stop passes their values
  // (stop_before_event); the return is the label return_to_caller.
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
      t.set_read_site(i.node, i.read_repeatable);
      if constexpr (kStackless) {
        if (!load_or_stop(sp[-1], *i.type, i.node->range, false, sp[-1]))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
      } else {
        sp[-1] = load_memory(m, t, sp[-1], *i.type, i.node->range, false);
      }
      break;
    case Opcode::LoadAt:
      t.set_read_site(i.node, i.read_repeatable);
      if constexpr (kStackless) {
        if (!load_or_stop(i.imm, *i.type, i.node->range, (i.arg & kCheckedAddress) != 0, *sp))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        ++sp;
      } else {
        *sp++ = load_memory(m, t, i.imm, *i.type, i.node->range, (i.arg & kCheckedAddress) != 0);
      }
      break;
    case Opcode::Store:
      if constexpr (kStackless) {
        if (!store_or_stop(i, sp[-1], sp[-2]))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        sp -= (i.arg & kKeepValue) ? 1 : 2;
      } else {
        const Word pointer = *--sp;
        store(i, pointer, sp);
      }
      break;
    case Opcode::StoreAt:
      if constexpr (kStackless) {
        if (!store_or_stop(i, i.imm, sp[-1]))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        if (!(i.arg & kKeepValue)) --sp;
      } else {
        store(i, i.imm, sp);
      }
      break;
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
      sp[-1] = BinaryOp(i.arg) == BinaryOp::Divide || BinaryOp(i.arg) == BinaryOp::Remainder
                   ? division_without_error(BinaryOp(i.arg), sp[-1], sp[0], *i.type)
                   : plain_integer_operation(BinaryOp(i.arg), sp[-1], sp[0], *i.type, *i.type2);
      break;
    case Opcode::Convert:
      sp[-1] = i.arg == kIntegerConversion ? extend_integer(sp[-1], i.arg2 & kTargetSize, (i.arg2 & kSignedTarget) != 0)
                                           : convert_word(sp[-1], *i.type, *i.type2);
      break;
    case Opcode::IndexAddress: {
      --sp;
      if (i.arg != 0) {
        sp[-1] = offset_pointer(sp[-1], int64_t(sp[0]) * int64_t(i.imm));
        break;
      }
      const Index& ix = as<Index>(*i.node);
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
      if constexpr (kStackless) {
        t.set_read_site(i.node, i.read_repeatable);
        if (!update_or_stop(u, u.operand->type, sp[-1], [this, &u](Word old) { return incremented(u, old); }))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        const bool prefix = u.op == UnaryOp::PreIncrement || u.op == UnaryOp::PreDecrement;
        sp[-1] = prefix ? t.resume_updated : t.resume_loaded;
      } else {
        sp[-1] = increment(u, LValue{false, 0, sp[-1], u.operand->type, nullptr});
      }
      break;
    }
    case Opcode::CompoundSlot: {
      const Assign& a = as<Assign>(*i.node);
      sp[-1] = compound_assign(a, LValue{true, base + i.arg, 0, a.lhs->type, i.variable}, sp[-1]);
      break;
    }
    case Opcode::CompoundSlotInteger: {
      // compound_assign's steps on the slot: compound_result's conversion of the slot to the
      // computation type, its own (convert_word from an integer `type` to itself), then
      // apply_binary's path for the operator, whose result is canonical already, so the
      // conversion back is the identity. On a shift count out of range, compound_assign
      // itself, which reports it.
      const Type& type = *i.type;
      const BinaryOp op = BinaryOp(i.imm);
      const Word old = extend_integer(t.slots[base + i.arg], scalar_size(type.scalar), scalar_is_signed(type.scalar));
      ArithmeticError error = ArithmeticError::None;
      const Word updated = is_plain_integer_operator(op) ? plain_integer_operation(op, old, sp[-1], type, type)
                                                         : integer_shift(op, old, sp[-1], type, *i.type2, error);
      if (error != ArithmeticError::None) {
        const Assign& a = as<Assign>(*i.node);
        sp[-1] = compound_assign(a, LValue{true, base + i.arg, 0, a.lhs->type, i.variable}, sp[-1]);
        break;
      }
      t.slots[base + i.arg] = updated;
      if (i.variable != nullptr) m.record_observed_local(t, *i.variable, updated);
      sp[-1] = updated;
      break;
    }
    case Opcode::CompoundSlotConst: {
      // CompoundSlotInteger's steps with a constant operand; a shift's count was found in
      // range when compiled.
      const Type& type = *i.type;
      const BinaryOp op = BinaryOp(i.arg2);
      const Word old = extend_integer(t.slots[base + i.arg], scalar_size(type.scalar), scalar_is_signed(type.scalar));
      const Word updated = is_plain_integer_operator(op) ? plain_integer_operation(op, old, i.imm, type, type)
                                                         : shift_in_range(op, old, uint32_t(i.imm), type);
      t.slots[base + i.arg] = updated;
      if (i.variable != nullptr) m.record_observed_local(t, *i.variable, updated);
      break;
    }
    case Opcode::CompoundMemory: {
      const Assign& a = as<Assign>(*i.node);
      if constexpr (kStackless) {
        const Word value = sp[-2];
        const auto updated = [this, &i, &a, value](Word old) {
          if (i.arg != kIntegerCompound) return compound_result(a, old, value);
          // compound_result's steps where its conversions are the identity (CompoundSlotInteger).
          const Type& type = *i.type;
          return plain_integer_operation(BinaryOp(i.imm), extend_integer(old, scalar_size(type.scalar), scalar_is_signed(type.scalar)),
                                         value, type, type);
        };
        t.set_read_site(i.node, i.read_repeatable);
        if (!update_or_stop(a, a.lhs->type, sp[-1], updated))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        sp[-2] = t.resume_updated;
        --sp;
      } else {
        const Word pointer = *--sp;
        sp[-1] = compound_assign(a, LValue{false, 0, pointer, a.lhs->type, nullptr}, sp[-1]);
      }
      break;
    }
    case Opcode::Jump: pc = code + i.arg; break;
    case Opcode::JumpIfFalse:
      if (!word_is_true(*--sp, *i.type)) pc = code + i.arg;
      break;
    case Opcode::JumpIfTrue:
      if (word_is_true(*--sp, *i.type)) pc = code + i.arg;
      break;
    case Opcode::JumpIfZero:
      if (*--sp == 0) pc = code + i.arg;
      break;
    case Opcode::JumpIfNonZero:
      if (*--sp != 0) pc = code + i.arg;
      break;
    case Opcode::CompareJump:
      if (compare_words(i.compare, t.slots[base + i.arg2], t.slots[base + i.imm])) pc = code + i.arg;
      break;
    case Opcode::CompareJumpConst:
      if (compare_words(i.compare, t.slots[base + i.arg2], i.imm)) pc = code + i.arg;
      break;
    case Opcode::Call: {
      sp -= i.arg;
      if constexpr (kStackless) {
        // A stackless function calls only stackless functions (CompiledFunction::stackless).
        base = enter_stackless_call(i, std::span<const Word>(sp, i.arg), uint32_t(pc - code), uint32_t(sp - stack));
        code = i.callee->code.data();
        pc = code;
        break;
      }
      const Word result = call(*i.function, std::span<const Word>(sp, i.arg), &as<Call>(*i.node), i.callee);
      *sp++ = result;
      break;
    }
    case Opcode::Barrier: {
      const Call& c = as<Call>(*i.node);
      if constexpr (kStackless) {
        if (!t.resume_at_event) {
          // Machine::Impl::wait_at_barrier up to its switch; the predicate stays on the stack.
          t.barrier_kind = *c.builtin;
          t.barrier_predicate = i.arg != 0 && word_is_true(sp[-1], *i.type);
          m.arrive_at_barrier(t, c.range);
          t.resume_at_event = true;
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        }
        t.resume_at_event = false;
        if (i.arg != 0) --sp;
        if (i.arg2 == 0) *sp++ = t.barrier_result;
      } else {
        const bool predicate = i.arg != 0 && word_is_true(*--sp, *i.type);
        const Word result = m.wait_at_barrier(t, *c.builtin, predicate, c.range);
        if (i.arg2 == 0) *sp++ = result;
      }
      break;
    }
    case Opcode::Builtin: {
      sp -= i.arg;
      const Word result = m.apply_builtin(t, as<Call>(*i.node), std::span<const Word>(sp, i.arg));
      *sp++ = result;
      break;
    }
    case Opcode::Fence: {
      const Call& c = as<Call>(*i.node);
      if constexpr (kStackless) {
        // Machine::Impl::apply_builtin's fence, split at its switch.
        if (!t.resume_at_event) {
          m.announce_visible_event(t, EventKind::Fence, c.range);
          t.resume_at_event = true;
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        }
        t.resume_at_event = false;
        m.resumed_at_visible_event();
        m.perform_fence(t, c);
        *sp++ = 0;
      } else {
        *sp++ = m.apply_builtin(t, c, {});
      }
      break;
    }
    case Opcode::Atomic: {
      const Call& c = as<Call>(*i.node);
      const std::span<const Word> args(sp - i.arg, i.arg);
      if constexpr (kStackless) {
        Word old = 0;
        t.set_read_site(i.node, i.read_repeatable);
        if (!atomic_or_stop(c, args, old))
          return stop_before_event(uint32_t(pc - 1 - code), uint32_t(sp - stack));
        sp -= i.arg;
        *sp++ = old;
      } else {
        const Word old = m.apply_builtin(t, c, args);
        sp -= i.arg;
        *sp++ = old;
      }
      break;
    }
    case Opcode::EvalAst: {
      // Not in a stackless function (CompiledFunction::stackless), the only kind a stackless
      // thread runs: these two would switch fibers from the scheduler's stack.
      if constexpr (kStackless) unreachable_in_stackless_code();
      const Word v = eval(*i.node);
      *sp++ = v;
      break;
    }
    case Opcode::ExecAst: {
      if constexpr (kStackless) unreachable_in_stackless_code();
      const Flow flow = exec(*i.statement);
      if (flow == Flow::Normal) break;
      if (flow == Flow::Return) return true; // the AST set the return value
      const uint64_t target = flow == Flow::Break ? i.arg : i.imm;
      if (target == kLeaveFunction) return true;
      pc = code + target;
      break;
    }
    case Opcode::Discarded: t.discarded_value = i.node; break;
    case Opcode::Step: m.count_local_step(t, i.statement->range); break;
    case Opcode::StepTwice:
      if (!m.count_two_local_steps(t)) m.count_local_step(t, i.statement->range);
      else ++pc;
      break;
    case Opcode::Return:
      t.return_value = *--sp;
      if (kStackless && t.stackless_calls > 0) goto return_to_caller;
      return true;
    case Opcode::Leave:
      if (kStackless && t.stackless_calls > 0) goto return_to_caller;
      return true;
    return_to_caller: {
      // Stackless, a call runs in this loop: its frame's code replaces the caller's, its
      // operands go on above the caller's, and its return goes back to the caller's frame and
      // place (Frame::return_pc, return_depth) with the value Interpreter::call would return.
      const Frame& callee = t.frames.back();
      const uint32_t return_pc = callee.return_pc;
      sp = stack + callee.return_depth;
      *sp++ = leave_frame(callee.base); // pops the callee's frame
      --t.stackless_calls;
      const Frame& caller = t.frames.back();
      base = caller.base;
      code = caller.code->code.data();
      pc = code + return_pc;
      break;
    }
    default: __builtin_unreachable(); // see the pragma above
    }
  }
}
#pragma GCC diagnostic pop

} // namespace fencelab
