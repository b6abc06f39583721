// Compiles a kernel's functions to bytecode (bytecode.h): Bytecode::compile, and the
// FunctionCompiler's expressions (its statements are in bytecode_statements.cpp).
#include "function_compiler.h"
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

} // namespace

void FunctionCompiler::value(const Expr& e) {
  const size_t mark = here();
  const uint32_t depth = m_depth;
  if (compile_value(e)) return;
  m_code.resize(mark);
  m_depth = depth;
  emit({.op = Opcode::EvalAst, .node = &e}, +1);
}

void FunctionCompiler::effect(const Expr& e) {
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
  std::optional<Instr> fused = compound_with_constant(mark);
  if (!fused) fused = increment_as_compound(mark);
  if (fused) {
    m_code.resize(mark);
    emit(*fused, -1);
    return;
  }
  emit({.op = Opcode::Pop}, -1);
}

std::optional<Instr> FunctionCompiler::increment_as_compound(size_t mark) const {
  if (here() - mark != 1 || m_code[mark].op != Opcode::IncrementSlot) return std::nullopt;
  // Interpreter::incremented computes x + 1 (x - 1) in x's own type, as apply_binary; for an
  // integer type that is its own promoted type (int, unsigned and wider: C++ [expr.pre.incr],
  // [conv.prom]), that is what CompoundSlotConst's plain_integer_operation computes for
  // `x += 1`, and it cannot fail. Narrower types and bool keep the general instruction.
  const Instr& increment = m_code[mark];
  const Unary& u = as<Unary>(*increment.node);
  const Type& type = u.operand->type;
  if (type.is_pointer() || !type.is_integer() || type.scalar == ScalarType::Bool || scalar_size(type.scalar) < 4)
    return std::nullopt;
  const bool up = u.op == UnaryOp::PreIncrement || u.op == UnaryOp::PostIncrement;
  Instr fused = increment;
  fused.op = Opcode::CompoundSlotConst;
  fused.arg2 = uint32_t(up ? BinaryOp::Add : BinaryOp::Subtract);
  fused.imm = word_from_int(1, type);
  fused.type = &type;
  return fused;
}

std::optional<Instr> FunctionCompiler::compound_with_constant(size_t mark) const {
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

void FunctionCompiler::convert(size_t mark, const Type& from, const Type& to) {
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

size_t FunctionCompiler::branch(const Expr& e, bool if_true) {
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

std::optional<Instr> FunctionCompiler::compare_and_jump(const Expr& e, size_t mark, bool if_true) const {
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

FunctionCompiler::Lvalue FunctionCompiler::place(const Expr& e) {
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

FunctionCompiler::Lvalue FunctionCompiler::place_on_stack(const Expr& e) {
  Lvalue lv = place(e);
  if (lv.place == Place::Global) {
    emit({.op = Opcode::Const, .imm = lv.address}, +1);
    lv.place = Place::Memory;
  }
  return lv;
}

bool FunctionCompiler::compile_assign(const Assign& e, bool keep) {
  value(*e.rhs); // C++17 [expr.ass]: the right operand is sequenced before the left
  const Lvalue lv = place(*e.lhs);
  const uint32_t flags = keep ? kKeepValue : 0;
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

bool FunctionCompiler::compile_value(const Expr& e) {
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

bool FunctionCompiler::compile_name(const NameRef& e) {
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

bool FunctionCompiler::compile_unary(const Unary& e) {
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

bool FunctionCompiler::compile_binary(const Binary& e) {
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
  default: {
    value(*e.lhs);
    const size_t rhs_mark = here();
    value(*e.rhs);
    const bool rhs_constant = here() - rhs_mark == 1 && m_code[rhs_mark].op == Opcode::Const;
    if ((is_plain_integer_operator(e.op) && e.lhs->type.is_integer() && !e.lhs->type.is_pointer() &&
         !e.rhs->type.is_pointer()) ||
        (rhs_constant && divides_without_error(e, m_code[rhs_mark].imm)))
      emit({.op = Opcode::IntegerBinary, .arg = uint32_t(e.op), .type = &e.lhs->type, .type2 = &e.type}, -1);
    else
      emit({.op = Opcode::Binary, .node = &e}, -1);
    return true;
  }
  }
}

bool FunctionCompiler::divides_without_error(const Binary& e, Word divisor) {
  // `n / 2`, `i % 32`: a division or remainder of integers whose divisor, the rhs compiled to
  // that one constant, is neither 0 (an error) nor -1 of a signed type (INT_MIN / -1
  // overflows): integer_binary's result without its checks (division_without_error). Both
  // operands have the computation type (sema's usual arithmetic conversions), so does the result.
  if (e.op != BinaryOp::Divide && e.op != BinaryOp::Remainder) return false;
  const Type& type = e.lhs->type;
  if (type.is_pointer() || !type.is_integer() || type.scalar == ScalarType::Bool ||
      !e.rhs->type.same_unqualified(type) || !e.type.same_unqualified(type))
    return false;
  const Word canonical = canonical_word(divisor, type);
  return canonical != 0 && !(type.is_signed() && int64_t(canonical) == -1);
}

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
  mark_repeatable_reads(*definition_of(kernel));
}

} // namespace fencelab
