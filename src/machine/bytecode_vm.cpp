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
  store_memory(m, t, pointer, *i.type, v, i.node->range, (i.arg & kConstantValue) && m.observing(), // only the checkers ask
               (i.arg & kCheckedAddress) != 0);
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

bool Interpreter::store_or_stop(Word pointer, const Type& type, Word value, SourceRange range, bool constant,
                                bool checked) {
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
  perform_store(m, t, a, type, reinterpret_word(value, type, a.element_type), range, constant);
  return true;
}

bool Interpreter::store_or_stop(const Instr& i, Word pointer, Word value) {
  return store_or_stop(pointer, *i.type, value, i.node->range, (i.arg & kConstantValue) && m.observing(),
                       (i.arg & kCheckedAddress) != 0);
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
  if (!store_or_stop(pointer, type, t.resume_updated, e.range, false, false)) return false;
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

// Dispatch. The loop's switch is its entry: each instruction's handler then jumps straight to
// the next instruction's (threaded code, with GCC's labels as values), so that every handler
// has its own indirect jump, which the branch predictor tells apart by where it comes from.
// FENCELAB_SWITCH_DISPATCH (a CMake option) builds the plain switch instead (FL_NEXT a
// `break`), the form to compare against. Either way nothing takes the address of `pc`, `sp`,
// `base` or `code` (no lambda captures them by reference), so that they stay in registers.
//
// The switch has a `default` that cannot be reached (every instruction holds an opcode the
// compiler emitted), so that its jump table needs no test for a value past the last opcode.
// GCC 12 drops that test only for an unreachable default, and a default silences -Wswitch;
// -Wswitch-enum, an error here, still names every opcode the switch does not handle.
//
// The handlers' table lists the opcodes in Opcode's order (checked below); a new opcode goes
// into Opcode, FL_OPCODES and the switch.
#define FL_OPCODES(X)                                                                                              \
  X(Const) X(Slot) X(SetSlot) X(Pop) X(Dup) X(Load) X(LoadAt) X(Store) X(StoreAt) X(BuiltinVariable) X(Unary)       \
  X(Binary) X(IntegerBinary) X(Convert) X(IndexAddress) X(IncrementSlot) X(IncrementMemory) X(CompoundSlot)      \
  X(CompoundSlotInteger) X(CompoundSlotConst) X(CompoundMemory) X(Jump) X(JumpIfFalse) X(JumpIfTrue)            \
  X(JumpIfZero) X(JumpIfNonZero) X(CompareJump) X(CompareJumpConst) X(Call) X(Barrier) X(Builtin) X(Fence)      \
  X(Atomic) X(EvalAst) X(ExecAst) X(Discarded) X(Step) X(StepTwice) X(Return) X(Leave)

namespace {

#define FL_OPCODE_VALUE(name) Opcode::name,
constexpr Opcode kOpcodesInTableOrder[] = {FL_OPCODES(FL_OPCODE_VALUE)};
#undef FL_OPCODE_VALUE

constexpr bool table_follows_opcode_order() {
  for (size_t k = 0; k < std::size(kOpcodesInTableOrder); ++k)
    if (kOpcodesInTableOrder[k] != Opcode(k)) return false;
  return std::size(kOpcodesInTableOrder) == size_t(Opcode::Leave) + 1;
}
static_assert(table_follows_opcode_order(), "FL_OPCODES must list every Opcode, in its order");

} // namespace

#ifdef FENCELAB_SWITCH_DISPATCH
#define FL_OPCODE(name) case Opcode::name:
#define FL_HANDLER_TABLE static_cast<void>(0)
#define FL_NEXT break
#else
#define FL_OPCODE(name) case Opcode::name: handle_##name:
#define FL_HANDLER_ADDRESS(name) &&handle_##name,
#define FL_HANDLER_TABLE static const void* const handlers[] = {FL_OPCODES(FL_HANDLER_ADDRESS)}
#define FL_NEXT                                                                                                    \
  do {                                                                                                             \
    ip = pc++;                                                                                                     \
    goto* handlers[size_t(ip->op)];                                                                                \
  } while (false)
#endif

// Stackless: the thread stops before its event in the instruction just begun, which runs again
// when it is resumed. A macro: a lambda capturing `pc` and `sp` by reference kept both (and
// the other locals it captured) in memory, not registers, for the whole loop.
#define FL_STOP_BEFORE_EVENT()                                                                                     \
  do {                                                                                                             \
    t.resume_pc = uint32_t(pc - 1 - code);                                                                         \
    t.resume_depth = uint32_t(sp - stack);                                                                         \
    return false;                                                                                                  \
  } while (false)

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
#pragma GCC diagnostic ignored "-Wpedantic" // labels as values (a GNU extension: see above)
template <bool kStackless>
bool Interpreter::execute(const CompiledFunction& function, Word* stack, uint32_t depth, uint32_t start) {
  Word* sp = stack + depth; // the next free entry
  // Stackless, in the kernel's frame, the first, the slots start at 0 (the frames' buffer, like
  // the rest of a resumed thread's state, is likely cold: not read for this, nor for whether
  // it is in a call: ThreadRunState::stackless_calls).
  size_t base = kStackless && t.stackless_calls == 0 ? 0 : frame_base();
  const Instr* code = function.code.data();
  const Instr* pc = code + start;
  const Instr* ip = nullptr; // the instruction being run
  FL_HANDLER_TABLE;
  for (;;) {
    ip = pc++;
    switch (ip->op) {
    FL_OPCODE(Const) *sp++ = ip->imm; FL_NEXT;
    FL_OPCODE(Slot) *sp++ = t.slots[base + ip->arg]; FL_NEXT;
    FL_OPCODE(SetSlot) {
      const Word v = *--sp;
      t.slots[base + ip->arg] = v;
      if (ip->variable != nullptr) m.record_observed_item(t, uint32_t(ip->imm), *ip->variable, v);
      FL_NEXT;
    }
    FL_OPCODE(Pop) --sp; FL_NEXT;
    FL_OPCODE(Dup)
      *sp = sp[-1];
      ++sp;
      FL_NEXT;
    FL_OPCODE(Load)
      t.set_read_site(ip->node, ip->read_repeatable);
      if constexpr (kStackless) {
        if (!load_or_stop(sp[-1], *ip->type, ip->node->range, false, sp[-1])) FL_STOP_BEFORE_EVENT();
      } else {
        sp[-1] = load_memory(m, t, sp[-1], *ip->type, ip->node->range, false);
      }
      FL_NEXT;
    FL_OPCODE(LoadAt)
      t.set_read_site(ip->node, ip->read_repeatable);
      if constexpr (kStackless) {
        if (!load_or_stop(ip->imm, *ip->type, ip->node->range, (ip->arg & kCheckedAddress) != 0, *sp)) FL_STOP_BEFORE_EVENT();
        ++sp;
      } else {
        *sp++ = load_memory(m, t, ip->imm, *ip->type, ip->node->range, (ip->arg & kCheckedAddress) != 0);
      }
      FL_NEXT;
    FL_OPCODE(Store)
      if constexpr (kStackless) {
        if (!store_or_stop(*ip, sp[-1], sp[-2])) FL_STOP_BEFORE_EVENT();
        sp -= (ip->arg & kKeepValue) ? 1 : 2;
      } else {
        const Word pointer = *--sp;
        store(*ip, pointer, sp);
      }
      FL_NEXT;
    FL_OPCODE(StoreAt)
      if constexpr (kStackless) {
        if (!store_or_stop(*ip, ip->imm, sp[-1])) FL_STOP_BEFORE_EVENT();
        if (!(ip->arg & kKeepValue)) --sp;
      } else {
        store(*ip, ip->imm, sp);
      }
      FL_NEXT;
    FL_OPCODE(BuiltinVariable) *sp++ = builtin_variable(as<BuiltinVariable>(*ip->node)); FL_NEXT;
    FL_OPCODE(Unary) {
      const Unary& u = as<Unary>(*ip->node);
      sp[-1] = apply_unary(u.op, sp[-1], u.operand->type, u.type);
      FL_NEXT;
    }
    FL_OPCODE(Binary)
      --sp;
      sp[-1] = binary_values(as<Binary>(*ip->node), sp[-1], sp[0]);
      FL_NEXT;
    FL_OPCODE(IntegerBinary)
      --sp;
      sp[-1] = plain_integer_operation(BinaryOp(ip->arg), sp[-1], sp[0], *ip->type, *ip->type2);
      FL_NEXT;
    FL_OPCODE(Convert)
      sp[-1] = ip->arg == kIntegerConversion ? extend_integer(sp[-1], ip->arg2 & kTargetSize, (ip->arg2 & kSignedTarget) != 0)
                                           : convert_word(sp[-1], *ip->type, *ip->type2);
      FL_NEXT;
    FL_OPCODE(IndexAddress) {
      --sp;
      if (ip->arg != 0) {
        sp[-1] = offset_pointer(sp[-1], int64_t(sp[0]) * int64_t(ip->imm));
        FL_NEXT;
      }
      const Index& ix = as<Index>(*ip->node);
      sp[-1] = pointer_add(sp[-1], ix.base->type, word_to_int(sp[0], ix.index->type));
      FL_NEXT;
    }
    FL_OPCODE(IncrementSlot) {
      const Unary& u = as<Unary>(*ip->node);
      *sp++ = increment(u, LValue{true, base + ip->arg, 0, u.operand->type, ip->variable});
      FL_NEXT;
    }
    FL_OPCODE(IncrementMemory) {
      const Unary& u = as<Unary>(*ip->node);
      if constexpr (kStackless) {
        t.set_read_site(ip->node, ip->read_repeatable);
        if (!update_or_stop(u, u.operand->type, sp[-1], [this, &u](Word old) { return incremented(u, old); })) FL_STOP_BEFORE_EVENT();
        const bool prefix = u.op == UnaryOp::PreIncrement || u.op == UnaryOp::PreDecrement;
        sp[-1] = prefix ? t.resume_updated : t.resume_loaded;
      } else {
        sp[-1] = increment(u, LValue{false, 0, sp[-1], u.operand->type, nullptr});
      }
      FL_NEXT;
    }
    FL_OPCODE(CompoundSlot) {
      const Assign& a = as<Assign>(*ip->node);
      sp[-1] = compound_assign(a, LValue{true, base + ip->arg, 0, a.lhs->type, ip->variable}, sp[-1]);
      FL_NEXT;
    }
    FL_OPCODE(CompoundSlotInteger) {
      // compound_assign's steps on the slot: compound_result's conversion of the slot to the
      // computation type, its own (convert_word from an integer `type` to itself), then
      // apply_binary's path for the operator, whose result is canonical already, so the
      // conversion back is the identity. On a shift count out of range, compound_assign
      // itself, which reports it.
      const Type& type = *ip->type;
      const BinaryOp op = BinaryOp(ip->imm);
      const Word old = extend_integer(t.slots[base + ip->arg], scalar_size(type.scalar), scalar_is_signed(type.scalar));
      ArithmeticError error = ArithmeticError::None;
      const Word updated = is_plain_integer_operator(op) ? plain_integer_operation(op, old, sp[-1], type, type)
                                                         : integer_shift(op, old, sp[-1], type, *ip->type2, error);
      if (error != ArithmeticError::None) {
        const Assign& a = as<Assign>(*ip->node);
        sp[-1] = compound_assign(a, LValue{true, base + ip->arg, 0, a.lhs->type, ip->variable}, sp[-1]);
        FL_NEXT;
      }
      t.slots[base + ip->arg] = updated;
      if (ip->variable != nullptr) m.record_observed_local(t, *ip->variable, updated);
      sp[-1] = updated;
      FL_NEXT;
    }
    FL_OPCODE(CompoundSlotConst) {
      // CompoundSlotInteger's steps with a constant operand; a shift's count was found in
      // range when compiled.
      const Type& type = *ip->type;
      const BinaryOp op = BinaryOp(ip->arg2);
      const Word old = extend_integer(t.slots[base + ip->arg], scalar_size(type.scalar), scalar_is_signed(type.scalar));
      const Word updated = is_plain_integer_operator(op) ? plain_integer_operation(op, old, ip->imm, type, type)
                                                         : shift_in_range(op, old, uint32_t(ip->imm), type);
      t.slots[base + ip->arg] = updated;
      if (ip->variable != nullptr) m.record_observed_local(t, *ip->variable, updated);
      FL_NEXT;
    }
    FL_OPCODE(CompoundMemory) {
      const Assign& a = as<Assign>(*ip->node);
      if constexpr (kStackless) {
        const Word value = sp[-2];
        const auto updated = [this, ip, &a, value](Word old) {
          if (ip->arg != kIntegerCompound) return compound_result(a, old, value);
          // compound_result's steps where its conversions are the identity (CompoundSlotInteger).
          const Type& type = *ip->type;
          return plain_integer_operation(BinaryOp(ip->imm), extend_integer(old, scalar_size(type.scalar), scalar_is_signed(type.scalar)),
                                         value, type, type);
        };
        t.set_read_site(ip->node, ip->read_repeatable);
        if (!update_or_stop(a, a.lhs->type, sp[-1], updated)) FL_STOP_BEFORE_EVENT();
        sp[-2] = t.resume_updated;
        --sp;
      } else {
        const Word pointer = *--sp;
        sp[-1] = compound_assign(a, LValue{false, 0, pointer, a.lhs->type, nullptr}, sp[-1]);
      }
      FL_NEXT;
    }
    FL_OPCODE(Jump) pc = code + ip->arg; FL_NEXT;
    FL_OPCODE(JumpIfFalse)
      if (!word_is_true(*--sp, *ip->type)) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(JumpIfTrue)
      if (word_is_true(*--sp, *ip->type)) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(JumpIfZero)
      if (*--sp == 0) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(JumpIfNonZero)
      if (*--sp != 0) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(CompareJump)
      if (compare_words(ip->compare, t.slots[base + ip->arg2], t.slots[base + ip->imm])) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(CompareJumpConst)
      if (compare_words(ip->compare, t.slots[base + ip->arg2], ip->imm)) pc = code + ip->arg;
      FL_NEXT;
    FL_OPCODE(Call) {
      sp -= ip->arg;
      if constexpr (kStackless) {
        // A stackless function calls only stackless functions (CompiledFunction::stackless).
        base = enter_stackless_call(*ip, std::span<const Word>(sp, ip->arg), uint32_t(pc - code), uint32_t(sp - stack));
        code = ip->callee->code.data();
        pc = code;
        FL_NEXT;
      }
      const Word result = call(*ip->function, std::span<const Word>(sp, ip->arg), &as<Call>(*ip->node), ip->callee);
      *sp++ = result;
      FL_NEXT;
    }
    FL_OPCODE(Barrier) {
      const Call& c = as<Call>(*ip->node);
      if constexpr (kStackless) {
        if (!t.resume_at_event) {
          // Machine::Impl::wait_at_barrier up to its switch; the predicate stays on the stack.
          t.barrier_kind = *c.builtin;
          t.barrier_predicate = ip->arg != 0 && word_is_true(sp[-1], *ip->type);
          m.arrive_at_barrier(t, c.range);
          t.resume_at_event = true;
          FL_STOP_BEFORE_EVENT();
        }
        t.resume_at_event = false;
        if (ip->arg != 0) --sp;
        if (ip->arg2 == 0) *sp++ = t.barrier_result;
      } else {
        const bool predicate = ip->arg != 0 && word_is_true(*--sp, *ip->type);
        const Word result = m.wait_at_barrier(t, *c.builtin, predicate, c.range);
        if (ip->arg2 == 0) *sp++ = result;
      }
      FL_NEXT;
    }
    FL_OPCODE(Builtin) {
      sp -= ip->arg;
      const Word result = m.apply_builtin(t, as<Call>(*ip->node), std::span<const Word>(sp, ip->arg));
      *sp++ = result;
      FL_NEXT;
    }
    FL_OPCODE(Fence) {
      const Call& c = as<Call>(*ip->node);
      if constexpr (kStackless) {
        // Machine::Impl::apply_builtin's fence, split at its switch.
        if (!t.resume_at_event) {
          m.announce_visible_event(t, EventKind::Fence, c.range);
          t.resume_at_event = true;
          FL_STOP_BEFORE_EVENT();
        }
        t.resume_at_event = false;
        m.resumed_at_visible_event();
        m.perform_fence(t, c);
        *sp++ = 0;
      } else {
        *sp++ = m.apply_builtin(t, c, {});
      }
      FL_NEXT;
    }
    FL_OPCODE(Atomic) {
      const Call& c = as<Call>(*ip->node);
      const std::span<const Word> args(sp - ip->arg, ip->arg);
      if constexpr (kStackless) {
        Word old = 0;
        t.set_read_site(ip->node, ip->read_repeatable);
        if (!atomic_or_stop(c, args, old)) FL_STOP_BEFORE_EVENT();
        sp -= ip->arg;
        *sp++ = old;
      } else {
        const Word old = m.apply_builtin(t, c, args);
        sp -= ip->arg;
        *sp++ = old;
      }
      FL_NEXT;
    }
    FL_OPCODE(EvalAst) {
      // Not in a stackless function (CompiledFunction::stackless), the only kind a stackless
      // thread runs: these two would switch fibers from the scheduler's stack.
      if constexpr (kStackless) unreachable_in_stackless_code();
      const Word v = eval(*ip->node);
      *sp++ = v;
      FL_NEXT;
    }
    FL_OPCODE(ExecAst) {
      if constexpr (kStackless) unreachable_in_stackless_code();
      const Flow flow = exec(*ip->statement);
      if (flow == Flow::Normal) FL_NEXT;
      if (flow == Flow::Return) return true; // the AST set the return value
      const uint64_t target = flow == Flow::Break ? ip->arg : ip->imm;
      if (target == kLeaveFunction) return true;
      pc = code + target;
      FL_NEXT;
    }
    FL_OPCODE(Discarded) t.discarded_value = ip->node; FL_NEXT;
    FL_OPCODE(Step) m.count_local_step(t, ip->statement->range); FL_NEXT;
    FL_OPCODE(StepTwice)
      if (!m.count_two_local_steps(t)) m.count_local_step(t, ip->statement->range);
      else ++pc;
      FL_NEXT;
    FL_OPCODE(Return)
      t.return_value = *--sp;
      if (kStackless && t.stackless_calls > 0) goto return_to_caller;
      return true;
    FL_OPCODE(Leave)
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
      FL_NEXT;
    }
    default: __builtin_unreachable(); // see the pragma above
    }
  }
}
#pragma GCC diagnostic pop
#undef FL_NEXT
#undef FL_STOP_BEFORE_EVENT
#undef FL_HANDLER_TABLE
#undef FL_HANDLER_ADDRESS
#undef FL_OPCODE
#undef FL_OPCODES

} // namespace fencelab
