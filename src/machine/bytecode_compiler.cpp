// Compiles a kernel's functions to bytecode (bytecode.h). Each construct is laid out to do
// exactly what the AST walker does for it (interpreter.cpp), in the same order: the same
// private steps counted at the same statements, the same operands evaluated first, the same
// reads and writes with the same sites and ranges.
#include "bytecode.h"
#include "interpreter.h"

#include "fencelab/frontend/operators.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/pointer.h"

#include <algorithm>
#include <optional>

namespace fencelab {

namespace {

/** A compound assignment `x op= v` whose conversions (Interpreter::compound_result: x to the
 *  computation type and back) are the identity: x an integer (not bool) of the computation
 *  type, op a plain integer operator or a shift. Its result is then apply_binary's for op,
 *  without the dispatch (Opcode::CompoundSlotInteger). */
bool integer_compound_in_own_type(const Assign& a) {
  const Type& lt = a.lhs->type;
  const BinaryOp op = *a.compound;
  return !lt.is_pointer() && lt.is_integer() && lt.scalar != ScalarType::Bool &&
         lt.same_unqualified(a.computation_type) &&
         (is_plain_integer_operator(op) || op == BinaryOp::ShiftLeft || op == BinaryOp::ShiftRight);
}

/** A jump target not yet known: the instruction and which of its fields gets it. */
struct Fixup {
  size_t instruction;
  bool in_imm; ///< ExecAst's continue target is in `imm`; every other target in `arg`
};

class FunctionCompiler {
public:
  FunctionCompiler(std::vector<Instr>& code, const CompileQueries& queries, std::vector<const FunctionDecl*>& callees)
      : m_code(code), m_queries(queries), m_callees(callees) {}

  /** False if the function cannot be compiled (its expressions nest too deep). */
  bool compile(const FunctionDecl& function) {
    statement(*function.body);
    emit({.op = Opcode::Leave});
    // A jump to the second of two Steps runs it alone; every other way in runs both.
    for (size_t i = 0; i + 1 < m_code.size(); ++i)
      if (m_code[i].op == Opcode::Step && m_code[i + 1].op == Opcode::Step) m_code[i].op = Opcode::StepTwice;
    return m_max_depth <= Bytecode::kMaxStack;
  }
  uint32_t max_depth() const { return m_max_depth; }

private:
  /** What an lvalue designates once its address code is emitted: a slot (no code), memory at
   *  the address the code pushed, or a global variable (no code; its address is constant). */
  enum class Place : uint8_t { None, Slot, Memory, Global };
  /** An lvalue's designation and what locates it. */
  struct Lvalue {
    Place place = Place::None;
    uint32_t slot = 0;
    const VarDecl* variable = nullptr; ///< a slot's local, where its assignments are recorded ...
    uint32_t item = 0;                 ///< ... as this observed item
    Word address = 0;                  ///< a global's
  };
  struct Loop {
    std::vector<Fixup> breaks, continues;
  };

  std::vector<Instr>& m_code;
  const CompileQueries& m_queries;
  std::vector<const FunctionDecl*>& m_callees;
  std::vector<Loop> m_loops;
  uint32_t m_depth = 0, m_max_depth = 0;
  static Word address_of(const VarDecl& global) {
    return PointerValue{PointerKind::Object, global.object_id, 0}.encode();
  }

  size_t here() const { return m_code.size(); }
  /** Appends `instr`, which changes the stack's depth by `effect`. */
  size_t emit(Instr instr, int effect = 0) {
    m_depth = uint32_t(int(m_depth) + effect);
    m_max_depth = std::max(m_max_depth, m_depth);
    m_code.push_back(instr);
    return m_code.size() - 1;
  }
  void patch(const Fixup& fixup, size_t target) {
    if (fixup.in_imm) m_code[fixup.instruction].imm = target;
    else m_code[fixup.instruction].arg = uint32_t(target);
  }
  void step(const Stmt& s) { emit({.op = Opcode::Step, .statement = &s}); }
  /** LoadAt and StoreAt's kCheckedAddress, where the Machine vouches for the access. */
  uint32_t checked(Word address, const Type& type) const {
    return m_queries.address_always_valid(address, type) ? kCheckedAddress : 0;
  }

  // Expressions ------------------------------------------------------------------------------

  /** Code that pushes `e`'s value: compiled where it can be, else evaluated on the AST. */
  void value(const Expr& e) {
    const size_t mark = here();
    const uint32_t depth = m_depth;
    if (compile_value(e)) return;
    m_code.resize(mark);
    m_depth = depth;
    emit({.op = Opcode::EvalAst, .node = &e}, +1);
  }

  /** Code that evaluates `e` for its effects only (an expression statement). */
  void effect(const Expr& e) {
    if (e.kind == ExprKind::Assign && !as<Assign>(e).compound) {
      const size_t mark = here();
      const uint32_t depth = m_depth;
      if (compile_assign(as<Assign>(e), false)) return;
      m_code.resize(mark);
      m_depth = depth;
    }
    const size_t mark = here();
    value(e);
    if (here() > mark && m_code.back().op == Opcode::Barrier && m_code.back().node == &e) {
      // `__syncthreads();`: its result is not pushed to be popped (a barrier round's
      // resumption then writes nothing to the operand stack, a line a large grid leaves cold).
      m_code.back().arg2 = 1;
      --m_depth;
      return;
    }
    if (const std::optional<Instr> fused = compound_with_constant(mark)) {
      m_code.resize(mark);
      emit(*fused, -1);
      return;
    }
    emit({.op = Opcode::Pop}, -1);
  }

  /** The CompoundSlotConst that does what the code from `mark` (an expression statement) and
   *  its Pop do, where that code is `x op= c` on an integer local of its own computation type
   *  (Const, CompoundSlotInteger) and a shift's count c is in range: computed as apply_binary
   *  would, it cannot fail. */
  std::optional<Instr> compound_with_constant(size_t mark) const {
    if (here() - mark != 2 || m_code[mark].op != Opcode::Const || m_code[mark + 1].op != Opcode::CompoundSlotInteger)
      return std::nullopt;
    const Instr& constant = m_code[mark];
    const Instr& compound = m_code[mark + 1];
    const BinaryOp op = BinaryOp(compound.imm);
    Instr fused = compound;
    fused.op = Opcode::CompoundSlotConst;
    fused.arg2 = uint32_t(op);
    fused.imm = constant.imm;
    if (!is_plain_integer_operator(op)) {
      const std::optional<uint32_t> count = shift_count(constant.imm, *compound.type, *compound.type2);
      if (!count) return std::nullopt;
      fused.imm = *count;
    }
    return fused;
  }

  /** Converts the value compiled from `mark` from `from` to `to`: a constant is converted now
   *  (convert_word is a function of the word and the types alone). */
  void convert(size_t mark, const Type& from, const Type& to) {
    if (here() - mark == 1 && m_code[mark].op == Opcode::Const) {
      m_code[mark].imm = convert_word(m_code[mark].imm, from, to);
      return;
    }
    // Between integer types (not bool) a conversion keeps the low bytes of the target's size,
    // extended as its signedness says (convert_word's inline path): decided here, once.
    if (!from.is_pointer() && !to.is_pointer() && scalar_is_integer(from.scalar) && scalar_is_integer(to.scalar) &&
        to.scalar != ScalarType::Bool) {
      emit({.op = Opcode::Convert, .arg = kIntegerConversion,
            .arg2 = scalar_size(to.scalar) | (scalar_is_signed(to.scalar) ? kSignedTarget : 0u), .type = &from,
            .type2 = &to});
      return;
    }
    emit({.op = Opcode::Convert, .type = &from, .type2 = &to});
  }

  /** `e` as a condition: pushes its value, then jumps as its truth says (to be patched). */
  size_t branch(const Expr& e, bool if_true) {
    const size_t mark = here();
    value(e);
    if (const std::optional<Instr> fused = compare_and_jump(e, mark, if_true)) {
      m_code.resize(mark);
      return emit(*fused, -1);
    }
    const Opcode op = e.type.is_floating() ? (if_true ? Opcode::JumpIfTrue : Opcode::JumpIfFalse)
                                           : (if_true ? Opcode::JumpIfNonZero : Opcode::JumpIfZero);
    return emit({.op = op, .type = &e.type}, -1);
  }

  /** The CompareJump that does what the code from `mark` (condition `e`) and a jump on its
   *  truth do, where that code is one comparison of integers on a local and a local or a
   *  constant: Slot, Slot or Const, IntegerBinary. Nothing jumps into that code (it is one
   *  expression's, compiled just now), so it can be replaced whole. */
  std::optional<Instr> compare_and_jump(const Expr& e, size_t mark, bool if_true) const {
    if (here() - mark != 3 || e.type.is_floating()) return std::nullopt;
    const Instr& left = m_code[mark];
    const Instr& right = m_code[mark + 1];
    const Instr& operation = m_code[mark + 2];
    if (left.op != Opcode::Slot || (right.op != Opcode::Slot && right.op != Opcode::Const) ||
        operation.op != Opcode::IntegerBinary)
      return std::nullopt;
    std::optional<Comparison> comparison;
    switch (BinaryOp(operation.arg)) {
    case BinaryOp::Less: comparison = Comparison::Less; break;
    case BinaryOp::LessEqual: comparison = Comparison::LessEqual; break;
    case BinaryOp::Greater: comparison = Comparison::Greater; break;
    case BinaryOp::GreaterEqual: comparison = Comparison::GreaterEqual; break;
    case BinaryOp::Equal: comparison = Comparison::Equal; break;
    case BinaryOp::NotEqual: comparison = Comparison::NotEqual; break;
    default: return std::nullopt;
    }
    // The comparison yields 1 or 0, true or false as any non-floating type: JumpIfZero jumps
    // where it does not hold.
    if (!if_true) comparison = negated(*comparison);
    const bool is_signed = scalar_is_signed(operation.type->scalar);
    return Instr{.op = right.op == Opcode::Slot ? Opcode::CompareJump : Opcode::CompareJumpConst,
                 .compare = uint8_t(uint8_t(*comparison) | (is_signed ? kSignedCompare : 0)),
                 .arg2 = left.arg,
                 .imm = right.op == Opcode::Slot ? right.arg : right.imm,
                 .node = &e};
  }

  /** Emits the address code of lvalue `e` (none for a slot or a global). Mirrors
   *  Interpreter::lvalue. */
  Lvalue place(const Expr& e) {
    switch (e.kind) {
    case ExprKind::NameRef: {
      const VarDecl* v = as<NameRef>(e).variable;
      if (v == nullptr) return {};
      if (v->address_taken) { // the slot holds its private cell's address
        emit({.op = Opcode::Slot, .arg = v->slot}, +1);
        return {.place = Place::Memory};
      }
      if (v->storage == StorageKind::Local || v->storage == StorageKind::Param) {
        const std::optional<uint32_t> item = m_queries.observed_item(*v);
        return {.place = Place::Slot, .slot = v->slot, .variable = item ? v : nullptr, .item = item.value_or(0)};
      }
      return {.place = Place::Global, .address = address_of(*v)};
    }
    case ExprKind::Index: {
      const Index& ix = as<Index>(e);
      value(*ix.base);
      value(*ix.index);
      // An integer index's canonical word is its value (word_to_int), and the element's size
      // is the base's static type's: both known now (Interpreter::pointer_add).
      if (ix.base->type.is_pointer() && ix.index->type.is_integer() && !ix.index->type.is_pointer())
        emit({.op = Opcode::IndexAddress, .arg = 1, .imm = ix.base->type.pointee().size(), .node = &e}, -1);
      else
        emit({.op = Opcode::IndexAddress, .node = &e}, -1);
      return {.place = Place::Memory};
    }
    case ExprKind::Unary:
      if (as<Unary>(e).op != UnaryOp::Deref) return {};
      value(*as<Unary>(e).operand);
      return {.place = Place::Memory};
    case ExprKind::Cast:
      if (!e.is_lvalue) return {};
      return place(*as<Cast>(e).operand);
    default: return {};
    }
  }

  /** place(), with a global's address pushed too: Memory, Slot or None. */
  Lvalue place_on_stack(const Expr& e) {
    Lvalue lv = place(e);
    if (lv.place == Place::Global) {
      emit({.op = Opcode::Const, .imm = lv.address}, +1);
      lv.place = Place::Memory;
    }
    return lv;
  }

  /** A plain assignment; `keep`: its value stays on the stack. */
  bool compile_assign(const Assign& e, bool keep) {
    value(*e.rhs); // C++17 [expr.ass]: the right operand is sequenced before the left
    const Lvalue lv = place(*e.lhs);
    const uint32_t flags = (keep ? kKeepValue : 0) | (is_source_constant(*e.rhs) ? kConstantValue : 0);
    switch (lv.place) {
    case Place::None: return false;
    case Place::Slot:
      if (keep) emit({.op = Opcode::Dup}, +1);
      emit({.op = Opcode::SetSlot, .arg = lv.slot, .imm = lv.item, .variable = lv.variable}, -1);
      return true;
    case Place::Memory:
      emit({.op = Opcode::Store, .arg = flags, .node = &e, .type = &e.lhs->type}, keep ? -1 : -2);
      return true;
    case Place::Global:
      emit({.op = Opcode::StoreAt, .arg = flags | checked(lv.address, e.lhs->type), .imm = lv.address, .node = &e,
            .type = &e.lhs->type},
           keep ? 0 : -1);
      return true;
    }
    return false;
  }

  bool compile_value(const Expr& e) {
    switch (e.kind) {
    case ExprKind::IntegerLiteral:
    case ExprKind::FloatLiteral:
    case ExprKind::BoolLiteral: emit({.op = Opcode::Const, .imm = static_cast<const Literal&>(e).bits}, +1); return true;
    case ExprKind::StringLiteral: emit({.op = Opcode::Const, .imm = 0}, +1); return true;
    case ExprKind::NameRef: return compile_name(as<NameRef>(e));
    case ExprKind::BuiltinVariable: emit({.op = Opcode::BuiltinVariable, .node = &e}, +1); return true;
    case ExprKind::Unary: return compile_unary(as<Unary>(e));
    case ExprKind::Binary: return compile_binary(as<Binary>(e));
    case ExprKind::Assign: {
      const Assign& a = as<Assign>(e);
      if (!a.compound) return compile_assign(a, true);
      value(*a.rhs);
      const Lvalue lv = place_on_stack(*a.lhs);
      switch (lv.place) {
      case Place::Slot:
        if (integer_compound_in_own_type(a)) {
          emit({.op = Opcode::CompoundSlotInteger, .arg = lv.slot, .imm = uint64_t(*a.compound), .node = &e,
                .type = &a.computation_type, .type2 = &a.rhs->type, .variable = lv.variable});
          return true;
        }
        emit({.op = Opcode::CompoundSlot, .arg = lv.slot, .node = &e, .variable = lv.variable});
        return true;
      case Place::Memory:
        // A plain integer operator in the location's own type: its update is
        // plain_integer_operation's, as for CompoundSlotInteger (kIntegerCompound).
        emit({.op = Opcode::CompoundMemory,
              .arg = integer_compound_in_own_type(a) && is_plain_integer_operator(*a.compound) ? kIntegerCompound : 0u,
              .imm = uint64_t(*a.compound), .node = &e, .type = &a.computation_type},
             -1);
        return true;
      default: return false;
      }
    }
    case ExprKind::Conditional: {
      const Conditional& c = as<Conditional>(e);
      const size_t to_else = branch(*c.condition, false);
      value(*c.then_value);
      const size_t to_end = emit({.op = Opcode::Jump}, -1); // the else branch pushes instead
      patch({to_else, false}, here());
      value(*c.else_value);
      patch({to_end, false}, here());
      return true;
    }
    case ExprKind::Call: {
      const Call& c = as<Call>(e);
      if (c.builtin && builtin_info(*c.builtin).category == BuiltinCategory::Barrier && c.args.size() <= 1) {
        // Mirrors Machine::Impl::call_builtin's barrier case.
        for (const ExprPtr& arg : c.args) value(*arg);
        emit({.op = Opcode::Barrier, .arg = uint32_t(c.args.size()), .node = &e,
              .type = c.args.empty() ? nullptr : &c.args[0]->type},
             1 - int(c.args.size()));
        return true;
      }
      if (c.builtin) {
        // Warp operations stay on the AST (their lanes meet in warp_schedule.h's code), as does
        // a barrier form the case above does not take.
        const BuiltinCategory category = builtin_info(*c.builtin).category;
        if (category == BuiltinCategory::Warp || category == BuiltinCategory::Barrier) return false;
        for (const ExprPtr& arg : c.args) value(*arg);
        const Opcode op = category == BuiltinCategory::Fence    ? Opcode::Fence
                          : category == BuiltinCategory::Atomic ? Opcode::Atomic
                                                                : Opcode::Builtin;
        emit({.op = op, .arg = uint32_t(c.args.size()), .node = &e}, 1 - int(c.args.size()));
        return true;
      }
      if (c.function == nullptr) return false;
      const FunctionDecl* callee = definition_of(*c.function);
      if (callee == nullptr || callee->body == nullptr) return false;
      for (const ExprPtr& arg : c.args) value(*arg);
      const int effect = 1 - int(c.args.size());
      const uint32_t below_arguments = m_depth - uint32_t(c.args.size());
      emit({.op = Opcode::Call, .arg = uint32_t(c.args.size()), .arg2 = below_arguments, .node = &e,
            .function = c.function},
           effect);
      m_callees.push_back(callee);
      return true;
    }
    case ExprKind::Index: {
      if (place_on_stack(e).place != Place::Memory) return false;
      emit({.op = Opcode::Load, .node = &e, .type = &e.type});
      return true;
    }
    case ExprKind::Cast: {
      const Cast& c = as<Cast>(e);
      const size_t mark = here();
      value(*c.operand);
      convert(mark, c.operand->type, c.type);
      return true;
    }
    case ExprKind::InitList: return false;
    }
    return false;
  }

  /** Mirrors Interpreter::eval_name; a local whose address is taken stays on the AST. */
  bool compile_name(const NameRef& e) {
    if (e.constant) {
      emit({.op = Opcode::Const, .imm = *e.constant}, +1);
      return true;
    }
    const VarDecl* v = e.variable;
    if (v == nullptr || v->address_taken) return false;
    if (v->storage == StorageKind::Local || v->storage == StorageKind::Param) {
      emit({.op = Opcode::Slot, .arg = v->slot}, +1);
      return true;
    }
    if (v->is_array) emit({.op = Opcode::Const, .imm = address_of(*v)}, +1);
    else emit({.op = Opcode::LoadAt, .arg = checked(address_of(*v), e.type), .imm = address_of(*v), .node = &e, .type = &e.type}, +1);
    return true;
  }

  bool compile_unary(const Unary& e) {
    switch (e.op) {
    case UnaryOp::Plus:
    case UnaryOp::Negate:
    case UnaryOp::LogicalNot:
    case UnaryOp::BitNot:
      value(*e.operand);
      emit({.op = Opcode::Unary, .node = &e});
      return true;
    case UnaryOp::Deref:
      value(*e.operand);
      emit({.op = Opcode::Load, .node = &e, .type = &e.type});
      return true;
    case UnaryOp::AddressOf: return place_on_stack(*e.operand).place == Place::Memory; // a slot's: the AST's error
    case UnaryOp::PreIncrement:
    case UnaryOp::PreDecrement:
    case UnaryOp::PostIncrement:
    case UnaryOp::PostDecrement: {
      const Lvalue lv = place_on_stack(*e.operand);
      switch (lv.place) {
      case Place::Slot: emit({.op = Opcode::IncrementSlot, .arg = lv.slot, .node = &e, .variable = lv.variable}, +1); return true;
      case Place::Memory: emit({.op = Opcode::IncrementMemory, .node = &e}); return true;
      default: return false;
      }
    }
    }
    return false;
  }

  bool compile_binary(const Binary& e) {
    switch (e.op) {
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr: {
      // && jumps to its result 0 at the first false operand, || to its 1 at the first true one.
      const bool is_or = e.op == BinaryOp::LogicalOr;
      const size_t first = branch(*e.lhs, is_or);
      const size_t second = branch(*e.rhs, is_or);
      emit({.op = Opcode::Const, .imm = is_or ? 0u : 1u}, +1);
      const size_t to_end = emit({.op = Opcode::Jump}, -1);
      patch({first, false}, here());
      patch({second, false}, here());
      emit({.op = Opcode::Const, .imm = is_or ? 1u : 0u}, +1);
      patch({to_end, false}, here());
      return true;
    }
    case BinaryOp::Comma:
      value(*e.lhs);
      emit({.op = Opcode::Pop}, -1);
      value(*e.rhs);
      return true;
    default:
      value(*e.lhs);
      value(*e.rhs);
      if (is_plain_integer_operator(e.op) && e.lhs->type.is_integer() && !e.lhs->type.is_pointer() &&
          !e.rhs->type.is_pointer())
        emit({.op = Opcode::IntegerBinary, .arg = uint32_t(e.op), .type = &e.lhs->type, .type2 = &e.type}, -1);
      else
        emit({.op = Opcode::Binary, .node = &e}, -1);
      return true;
    }
  }

  // Statements -------------------------------------------------------------------------------

  /** `s` run on the AST; its break and continue go to the enclosing compiled loop's targets. */
  void on_ast(const Stmt& s) {
    const size_t at = emit({.op = Opcode::ExecAst, .arg = kLeaveFunction, .imm = kLeaveFunction, .statement = &s});
    if (m_loops.empty()) return;
    m_loops.back().breaks.push_back({at, false});
    m_loops.back().continues.push_back({at, true});
  }

  /** A jump out of the loop (break) or to its next iteration (continue); with no compiled loop
   *  around it (sema allows none) it leaves the function, as the AST's flow would. */
  void loop_jump(bool is_break) {
    if (m_loops.empty()) {
      emit({.op = Opcode::Leave});
      return;
    }
    const size_t at = emit({.op = Opcode::Jump});
    (is_break ? m_loops.back().breaks : m_loops.back().continues).push_back({at, false});
  }

  /** Ends a for or while loop whose next iteration begins at `next`: a step at the loop's
   *  range and a jump back to `top`; the condition's exit jump (if any) leaves with the breaks. */
  void repeat_loop(const Stmt& s, size_t top, size_t next, std::optional<size_t> exit) {
    step(s);
    emit({.op = Opcode::Jump, .arg = uint32_t(top)});
    if (exit) m_loops.back().breaks.push_back({*exit, false});
    end_loop(next);
  }

  /** Closes the innermost loop: its continues go to `continue_target`, its breaks to here. */
  void end_loop(size_t continue_target) {
    for (const Fixup& f : m_loops.back().continues) patch(f, continue_target);
    for (const Fixup& f : m_loops.back().breaks) patch(f, here());
    m_loops.pop_back();
  }

  void declaration(const Declaration& d) {
    // Local arrays and locals whose address is taken live in private memory: the AST makes them.
    for (const VarDeclPtr& v : d.variables)
      if (v->storage == StorageKind::Local && (v->is_array || v->address_taken)) return on_ast(d);
    step(d);
    for (const VarDeclPtr& v : d.variables) {
      if (v->storage != StorageKind::Local) continue; // per-block or per-grid: set up before the kernel
      if (!v->initializer) {
        emit({.op = Opcode::Const, .imm = 0}, +1);
        emit({.op = Opcode::SetSlot, .arg = v->slot}, -1);
        continue;
      }
      const size_t mark = here();
      value(*v->initializer);
      convert(mark, v->initializer->type, v->type);
      const std::optional<uint32_t> item = m_queries.observed_item(*v);
      emit({.op = Opcode::SetSlot, .arg = v->slot, .imm = item.value_or(0), .variable = item ? v.get() : nullptr}, -1);
    }
  }

  void statement(const Stmt& s) {
    switch (s.kind) {
    case StmtKind::Compound:
      step(s);
      for (const StmtPtr& child : as<Compound>(s).body) statement(*child);
      return;
    case StmtKind::Declaration: return declaration(as<Declaration>(s));
    case StmtKind::ExprStmt: {
      const Expr& expr = *as<ExprStmt>(s).expr;
      step(s);
      // Only an atomic called as the whole statement asks whether its value is discarded
      // (AtomicUpdate::unobserved compares the pointer with its own Call node). Nothing else
      // reads it, and writing it at every `__syncthreads();` cost a large grid a miss per thread
      // and round (the field lies in ThreadRareState, which a barrier round leaves cold).
      if (expr.kind == ExprKind::Call && as<Call>(expr).builtin && atomic_builtin(*as<Call>(expr).builtin))
        emit({.op = Opcode::Discarded, .node = &expr});
      effect(expr);
      return;
    }
    case StmtKind::If: {
      const If& i = as<If>(s);
      step(s);
      const size_t to_else = branch(*i.condition, false);
      statement(*i.then_branch);
      if (!i.else_branch) {
        patch({to_else, false}, here());
        return;
      }
      const size_t to_end = emit({.op = Opcode::Jump});
      patch({to_else, false}, here());
      statement(*i.else_branch);
      patch({to_end, false}, here());
      return;
    }
    case StmtKind::For: {
      // The AST: a step for the statement, the init, then per iteration the condition, the
      // body, the increment and a step at the statement's range.
      const For& f = as<For>(s);
      step(s);
      if (f.init) statement(*f.init);
      const size_t top = here();
      std::optional<size_t> exit;
      if (f.condition) exit = branch(*f.condition, false);
      m_loops.emplace_back();
      statement(*f.body);
      const size_t next = here();
      if (f.step) effect(*f.step);
      repeat_loop(s, top, next, exit);
      return;
    }
    case StmtKind::While: {
      const While& w = as<While>(s);
      step(s);
      const size_t top = here();
      const size_t exit = branch(*w.condition, false);
      m_loops.emplace_back();
      statement(*w.body);
      repeat_loop(s, top, here(), exit);
      return;
    }
    case StmtKind::DoWhile: {
      const DoWhile& d = as<DoWhile>(s);
      step(s);
      const size_t top = here();
      m_loops.emplace_back();
      statement(*d.body);
      const size_t next = here();
      step(s);
      const size_t back = branch(*d.condition, true);
      patch({back, false}, top);
      end_loop(next);
      return;
    }
    case StmtKind::Switch: return on_ast(s);
    case StmtKind::Case: step(s); return; // only inside a switch, which runs on the AST
    case StmtKind::Break:
      step(s);
      return loop_jump(true);
    case StmtKind::Continue:
      step(s);
      return loop_jump(false);
    case StmtKind::Return: {
      const Return& r = as<Return>(s);
      step(s);
      if (r.value) value(*r.value);
      else emit({.op = Opcode::Const, .imm = 0}, +1);
      emit({.op = Opcode::Return}, -1);
      return;
    }
    case StmtKind::Null: step(s); return;
    }
  }
};

} // namespace

void Bytecode::compile(const FunctionDecl& kernel, const CompileQueries& queries) {
  m_functions.clear();
  std::vector<const FunctionDecl*> pending{definition_of(kernel)};
  std::vector<const FunctionDecl*> seen;
  while (!pending.empty()) {
    const FunctionDecl* function = pending.back();
    pending.pop_back();
    if (function == nullptr || function->body == nullptr || std::find(seen.begin(), seen.end(), function) != seen.end()) continue;
    seen.push_back(function);
    auto compiled = std::make_unique<CompiledFunction>();
    compiled->function = function;
    std::vector<const FunctionDecl*> callees;
    FunctionCompiler compiler(compiled->code, queries, callees);
    const bool compiles = compiler.compile(*function);
    compiled->max_depth = compiler.max_depth();
    // Its callees are compiled even where it is not: a call from the AST finds their code too.
    pending.insert(pending.end(), callees.begin(), callees.end());
    if (compiles) m_functions.push_back(std::move(compiled)); // else it runs on the AST
  }
  // Calls between compiled functions go straight to the callee's code.
  for (const auto& function : m_functions)
    for (Instr& instr : function->code)
      if (instr.op == Opcode::Call) instr.callee = find(*instr.function);
  mark_stackless();
}

} // namespace fencelab
