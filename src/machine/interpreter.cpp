// The tree-walking interpreter: runs on a thread's fiber, evaluating the annotated AST (the
// reference engine; compiled functions run in bytecode_vm.cpp and fall back to it).
// Thread-private work (locals, arithmetic, control flow) runs without switching; memory
// accesses go through memory_access.cpp, which suspends the thread before each visible event.
#include "interpreter.h"

#include "fencelab/frontend/operators.h"

#include <array>
#include <fmt/format.h>
#include <span>

namespace fencelab {

Word Interpreter::pointer_add(Word pointer, const Type& pointer_type, int64_t count) const {
  return offset_pointer(pointer, count * int64_t(pointer_type.pointee().size()));
}

Word Interpreter::arithmetic(BinaryOp op, Word a, Word b, const Type& type, const Type& rhs_type,
                             const Type& result_type, SourceRange range) {
  ArithmeticError error = ArithmeticError::None;
  const Word r = apply_binary(op, a, b, type, rhs_type, result_type, error);
  if (error != ArithmeticError::None) m.fault(t, range, RuntimeErrorKind::Arithmetic, arithmetic_error_message(error));
  return r;
}

LValue Interpreter::lvalue(const Expr& e) {
  LValue lv;
  lv.type = e.type;
  switch (e.kind) {
  case ExprKind::NameRef: {
    const VarDecl* v = as<NameRef>(e).variable;
    if (v == nullptr) break;
    if (v->address_taken) {
      lv.pointer = t.slots[frame_base() + v->slot]; // the slot holds its private cell's address
    } else if (v->storage == StorageKind::Local || v->storage == StorageKind::Param) {
      lv.is_slot = true;
      lv.slot = frame_base() + v->slot;
      lv.variable = v;
    } else {
      lv.pointer = m.pointer_to_object(v->object_id);
    }
    return lv;
  }
  case ExprKind::Index: {
    const Index& ix = as<Index>(e);
    const Word base = eval(*ix.base);
    const Word index = eval(*ix.index);
    lv.pointer = pointer_add(base, ix.base->type, word_to_int(index, ix.index->type));
    return lv;
  }
  case ExprKind::Unary:
    if (as<Unary>(e).op == UnaryOp::Deref) {
      lv.pointer = eval(*as<Unary>(e).operand);
      return lv;
    }
    break;
  case ExprKind::Cast:
    // A cast that sema kept as an lvalue is a no-op qualification change.
    if (e.is_lvalue) return lvalue(*as<Cast>(e).operand);
    break;
  default: break;
  }
  m.fault(t, e.range, "internal error: expression is not an lvalue");
}

Word Interpreter::read(const LValue& lv, const Expr& site) {
  if (lv.is_slot) return t.slots[lv.slot];
  t.set_read_site(&site);
  return m.load(t, lv.pointer, lv.type, site.range);
}

void Interpreter::write(const LValue& lv, Word value, SourceRange range) {
  if (lv.is_slot) {
    t.slots[lv.slot] = value;
    if (lv.variable != nullptr) m.record_observed_local(t, *lv.variable, value);
    return;
  }
  m.store(t, lv.pointer, lv.type, value, range);
}

Word Interpreter::eval_name(const NameRef& e) {
  if (e.constant) return *e.constant;
  const VarDecl* v = e.variable;
  if (v == nullptr) m.fault(t, e.range, fmt::format("internal error: unresolved name '{}'", e.name));
  if (v->address_taken) return m.load(t, t.slots[frame_base() + v->slot], e.type, e.range); // private cell
  if (v->storage == StorageKind::Local || v->storage == StorageKind::Param)
    return t.slots[frame_base() + v->slot]; // a local array's slot holds its pointer
  if (v->is_array) return m.pointer_to_object(v->object_id);
  t.set_read_site(&e);
  return m.load(t, m.pointer_to_object(v->object_id), e.type, e.range);
}

Word Interpreter::eval_unary(const Unary& e) {
  switch (e.op) {
  case UnaryOp::Plus:
  case UnaryOp::Negate:
  case UnaryOp::LogicalNot:
  case UnaryOp::BitNot: return apply_unary(e.op, eval(*e.operand), e.operand->type, e.type);
  case UnaryOp::Deref: {
    const Word pointer = eval(*e.operand);
    t.set_read_site(&e);
    return m.load(t, pointer, e.type, e.range);
  }
  case UnaryOp::AddressOf: {
    const LValue lv = lvalue(*e.operand);
    if (lv.is_slot) m.fault(t, e.range, "not supported: taking the address of a local variable");
    return lv.pointer;
  }
  case UnaryOp::PreIncrement:
  case UnaryOp::PreDecrement:
  case UnaryOp::PostIncrement:
  case UnaryOp::PostDecrement: return increment(e, lvalue(*e.operand));
  }
  return 0;
}

Word Interpreter::increment(const Unary& e, const LValue& lv) {
  const Word old = read(lv, e);
  const Word updated = incremented(e, old);
  write(lv, updated, e.range);
  return (e.op == UnaryOp::PreIncrement || e.op == UnaryOp::PreDecrement) ? updated : old;
}

Word Interpreter::incremented(const Unary& e, Word old) {
  const bool up = e.op == UnaryOp::PreIncrement || e.op == UnaryOp::PostIncrement;
  const Type& type = e.operand->type;
  Word updated;
  if (type.is_pointer()) {
    updated = pointer_add(old, type, up ? 1 : -1);
  } else {
    const Word one = word_from_int(1, type);
    updated = arithmetic(up ? BinaryOp::Add : BinaryOp::Subtract, old, one, type, type, type, e.range);
  }
  return updated;
}

Word Interpreter::eval_binary(const Binary& e) {
  switch (e.op) {
  case BinaryOp::LogicalAnd: return condition(*e.lhs) && condition(*e.rhs) ? 1 : 0;
  case BinaryOp::LogicalOr: return condition(*e.lhs) || condition(*e.rhs) ? 1 : 0;
  case BinaryOp::Comma: eval(*e.lhs); return eval(*e.rhs);
  default: break;
  }
  const Word a = eval(*e.lhs);
  return binary_values(e, a, eval(*e.rhs));
}

Word Interpreter::binary_values(const Binary& e, Word a, Word b) {
  const Type& lt = e.lhs->type;
  const Type& rt = e.rhs->type;
  // Pointer arithmetic (C++ [expr.add]): pointer +- integer, integer + pointer, pointer - pointer.
  if (e.op == BinaryOp::Add || e.op == BinaryOp::Subtract) {
    if (lt.is_pointer() && rt.is_integer())
      return pointer_add(a, lt, (e.op == BinaryOp::Add ? 1 : -1) * word_to_int(b, rt));
    if (rt.is_pointer() && lt.is_integer()) return pointer_add(b, rt, word_to_int(a, lt));
    if (lt.is_pointer() && rt.is_pointer()) {
      const PointerValue pa = PointerValue::decode(a), pb = PointerValue::decode(b);
      return word_from_int((pa.offset - pb.offset) / int64_t(lt.pointee().size()), e.type);
    }
  }
  return arithmetic(e.op, a, b, lt, rt, e.type, e.range);
}

Word Interpreter::eval_assign(const Assign& e) {
  // C++17 [expr.ass]: the right operand is sequenced before the left.
  const Word value = eval(*e.rhs);
  const LValue lv = lvalue(*e.lhs);
  if (!e.compound) {
    write(lv, value, e.range);
    return value;
  }
  return compound_assign(e, lv, value);
}

Word Interpreter::compound_assign(const Assign& e, const LValue& lv, Word value) {
  const Word updated = compound_result(e, read(lv, e), value);
  write(lv, updated, e.range);
  return updated;
}

Word Interpreter::compound_result(const Assign& e, Word old, Word value) {
  const Type& lt = e.lhs->type;
  Word updated;
  if (lt.is_pointer()) {
    const int64_t n = word_to_int(value, e.rhs->type);
    updated = pointer_add(old, lt, *e.compound == BinaryOp::Subtract ? -n : n);
  } else {
    const Type& ct = e.computation_type;
    const Word a = convert_word(old, lt, ct);
    const Word r = arithmetic(*e.compound, a, value, ct, e.rhs->type, ct, e.range);
    updated = convert_word(r, ct, lt);
  }
  return updated;
}

Word Interpreter::eval(const Expr& e) {
  switch (e.kind) {
  case ExprKind::IntegerLiteral:
  case ExprKind::FloatLiteral:
  case ExprKind::BoolLiteral: return static_cast<const Literal&>(e).bits;
  case ExprKind::StringLiteral: return 0;
  case ExprKind::NameRef: return eval_name(as<NameRef>(e));
  case ExprKind::BuiltinVariable: return builtin_variable(as<BuiltinVariable>(e));
  case ExprKind::Unary: return eval_unary(as<Unary>(e));
  case ExprKind::Binary: return eval_binary(as<Binary>(e));
  case ExprKind::Assign: return eval_assign(as<Assign>(e));
  case ExprKind::Conditional: {
    const Conditional& c = as<Conditional>(e);
    return condition(*c.condition) ? eval(*c.then_value) : eval(*c.else_value);
  }
  case ExprKind::Call: {
    const Call& c = as<Call>(e);
    if (c.builtin) return m.call_builtin(t, c);
    const ArgumentValues args(c, [this](const Expr& arg) { return eval(arg); });
    return call(*c.function, args.values(), &c);
  }
  case ExprKind::Index: {
    const LValue lv = lvalue(e);
    return read(lv, e);
  }
  case ExprKind::Cast: {
    const Cast& c = as<Cast>(e);
    return convert_word(eval(*c.operand), c.operand->type, c.type);
  }
  case ExprKind::InitList: break;
  }
  m.fault(t, e.range, fmt::format("internal error: cannot evaluate {}", expr_kind_name(e.kind)));
}

void Interpreter::declare(const VarDecl& v) {
  // __shared__, __device__ and __constant__ variables declared in a function are per-block or
  // per-grid objects set up before the kernel runs; executing the declaration does nothing.
  if (v.storage != StorageKind::Local) return;
  const size_t slot = frame_base() + v.slot;
  if (v.is_array) {
    LocalArray array{v.type, std::vector<Word>(v.array_length, 0)};
    if (v.initializer && v.initializer->kind == ExprKind::InitList) {
      const auto& elements = as<InitList>(*v.initializer).elements;
      for (size_t i = 0; i < elements.size() && i < array.elements.size(); ++i)
        array.elements[i] = convert_word(eval(*elements[i]), elements[i]->type, v.type);
    }
    const uint32_t index = static_cast<uint32_t>(t.local_arrays.size());
    t.local_arrays.push_back(std::move(array));
    t.slots[slot] = PointerValue{PointerKind::LocalArray, index, 0}.encode();
    return;
  }
  Word value = 0;
  if (v.initializer) value = convert_word(eval(*v.initializer), v.initializer->type, v.type);
  if (v.address_taken) {
    t.slots[slot] = private_cell(v.type, value);
    return;
  }
  t.slots[slot] = value;
  if (v.initializer) m.record_observed_local(t, v, value);
}

Word Interpreter::private_cell(const Type& type, Word value) {
  const uint32_t index = static_cast<uint32_t>(t.local_arrays.size());
  t.local_arrays.push_back(LocalArray{type, std::vector<Word>{value}});
  return PointerValue{PointerKind::LocalArray, index, 0}.encode();
}

Flow Interpreter::exec_body(const std::vector<StmtPtr>& body, size_t first) {
  for (size_t i = first; i < body.size(); ++i) {
    const Flow flow = exec(*body[i]);
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

Flow Interpreter::exec_switch(const Switch& s) {
  const Word value = eval(*s.value);
  const auto& body = s.body->body;
  size_t start = body.size();
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i]->kind != StmtKind::Case) continue;
    const Case& label = as<Case>(*body[i]);
    if (label.value == nullptr) {
      if (start == body.size()) start = i; // default, unless a case matches
    } else if (label.folded_value == value) {
      start = i;
      break;
    }
  }
  const Flow flow = exec_body(body, start);
  return flow == Flow::Break ? Flow::Normal : flow;
}

Flow Interpreter::exec(const Stmt& s) {
  m.count_local_step(t, s.range);
  switch (s.kind) {
  case StmtKind::Compound: return exec_body(as<Compound>(s).body, 0);
  case StmtKind::Declaration:
    for (const VarDeclPtr& v : as<Declaration>(s).variables) declare(*v);
    return Flow::Normal;
  case StmtKind::ExprStmt: {
    const Expr& expr = *as<ExprStmt>(s).expr;
    t.discarded_value = &expr;
    eval(expr);
    return Flow::Normal;
  }
  case StmtKind::If: {
    const If& i = as<If>(s);
    if (condition(*i.condition)) return exec(*i.then_branch);
    return i.else_branch ? exec(*i.else_branch) : Flow::Normal;
  }
  case StmtKind::For: {
    const For& f = as<For>(s);
    if (f.init) exec(*f.init);
    while (!f.condition || condition(*f.condition)) {
      const Flow flow = exec(*f.body);
      if (flow == Flow::Break) break;
      if (flow == Flow::Return) return flow;
      if (f.step) eval(*f.step);
      m.count_local_step(t, s.range);
    }
    return Flow::Normal;
  }
  case StmtKind::While: {
    const While& w = as<While>(s);
    while (condition(*w.condition)) {
      const Flow flow = exec(*w.body);
      if (flow == Flow::Break) break;
      if (flow == Flow::Return) return flow;
      m.count_local_step(t, s.range);
    }
    return Flow::Normal;
  }
  case StmtKind::DoWhile: {
    const DoWhile& d = as<DoWhile>(s);
    do {
      const Flow flow = exec(*d.body);
      if (flow == Flow::Break) break;
      if (flow == Flow::Return) return flow;
      m.count_local_step(t, s.range);
    } while (condition(*d.condition));
    return Flow::Normal;
  }
  case StmtKind::Switch: return exec_switch(as<Switch>(s));
  case StmtKind::Case: return Flow::Normal;
  case StmtKind::Break: return Flow::Break;
  case StmtKind::Continue: return Flow::Continue;
  case StmtKind::Return: {
    const Return& r = as<Return>(s);
    t.return_value = r.value ? eval(*r.value) : 0;
    return Flow::Return;
  }
  case StmtKind::Null: return Flow::Normal;
  }
  return Flow::Normal;
}

} // namespace fencelab
