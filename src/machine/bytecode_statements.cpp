// The FunctionCompiler's statements (function_compiler.h): each laid out as the AST walker
// runs it (Interpreter::exec), with its steps at the same statements and the same ranges.
#include "function_compiler.h"

#include "fencelab/machine/atomic_update.h"

namespace fencelab {

bool FunctionCompiler::compile(const FunctionDecl& function) {
  statement(*function.body);
  emit({.op = Opcode::Leave});
  // A jump to the second of two Steps runs it alone; every other way in runs both.
  for (size_t i = 0; i + 1 < m_code.size(); ++i)
    if (m_code[i].op == Opcode::Step && m_code[i + 1].op == Opcode::Step) m_code[i].op = Opcode::StepTwice;
  return m_max_depth <= Bytecode::kMaxStack;
}

void FunctionCompiler::on_ast(const Stmt& s) {
  const size_t at = emit({.op = Opcode::ExecAst, .arg = kLeaveFunction, .imm = kLeaveFunction, .statement = &s});
  if (m_loops.empty()) return;
  m_loops.back().breaks.push_back({at, false});
  m_loops.back().continues.push_back({at, true});
}

void FunctionCompiler::loop_jump(bool is_break) {
  if (m_loops.empty()) {
    emit({.op = Opcode::Leave});
    return;
  }
  const size_t at = emit({.op = Opcode::Jump});
  (is_break ? m_loops.back().breaks : m_loops.back().continues).push_back({at, false});
}

void FunctionCompiler::repeat_loop(const Stmt& s, size_t top, size_t next, std::optional<size_t> exit) {
  step(s);
  emit({.op = Opcode::Jump, .arg = uint32_t(top)});
  if (exit) m_loops.back().breaks.push_back({*exit, false});
  end_loop(next);
}

void FunctionCompiler::end_loop(size_t continue_target) {
  for (const Fixup& f : m_loops.back().continues) patch(f, continue_target);
  for (const Fixup& f : m_loops.back().breaks) patch(f, here());
  m_loops.pop_back();
}

void FunctionCompiler::declaration(const Declaration& d) {
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

void FunctionCompiler::statement(const Stmt& s) {
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

} // namespace fencelab
