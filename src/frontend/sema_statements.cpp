// Semantic analysis: statements.
#include "fencelab/frontend/sema.h"

namespace fencelab {

// Conditions of if/while/for/do and `?:` are converted to bool (C++ [stmt.pre] "contextually
// converted to bool").
void Sema::check_condition(ExprPtr& condition) {
  check_expr(condition);
  if (!condition->type.is_arithmetic() && !condition->type.is_pointer()) {
    error(condition->range, "a condition must be a number or a pointer, not '" +
                                condition->type.to_string() + "'");
    return;
  }
  insert_cast(condition, Type::of(ScalarType::Bool));
}

// `if constexpr` (C++ [stmt.if]/2): the condition is a constant expression, and the statement
// it discards is not instantiated, so it may be invalid for the template arguments bound here
// (`v.x` where T has no fields, in the branch for another T). Neither its parse errors nor
// sema's are reported, and it becomes a null statement so that no later pass meets it.
void Sema::check_constexpr_if(If& s) {
  check_condition(s.condition);
  const std::optional<Word> value = fold(*s.condition);
  if (!value) error(s.condition->range, "the condition of 'if constexpr' must be a constant expression");
  // What parsing found in a branch counts only where the branch is instantiated.
  const auto report_held = [this](std::vector<Diagnostic>& held) {
    for (Diagnostic& d : held) m_diagnostics.add(std::move(d));
    held.clear();
  };
  if (!value || *value != 0) report_held(s.then_diagnostics);
  if (!value || *value == 0) report_held(s.else_diagnostics);
  if (value) {
    StmtPtr& discarded = *value != 0 ? s.else_branch : s.then_branch;
    if (discarded) discarded = std::make_unique<SimpleStmt>(StmtKind::Null, discarded->range);
  }
  check_scoped(s.then_branch.get());
  check_scoped(s.else_branch.get());
}

void Sema::check_scoped(Stmt* stmt) {
  if (stmt == nullptr) return;
  push_scope();
  check_statement(*stmt);
  pop_scope();
}

void Sema::check_compound(Compound& compound, bool new_scope) {
  if (new_scope) push_scope();
  for (StmtPtr& stmt : compound.body) check_statement(*stmt);
  if (new_scope) pop_scope();
}

void Sema::check_statement(Stmt& stmt) {
  switch (stmt.kind) {
  case StmtKind::Compound: return check_compound(as<Compound>(stmt), true);
  case StmtKind::Declaration:
    lower_group_declarations(as<Declaration>(stmt).variables);
    for (VarDeclPtr& var : as<Declaration>(stmt).variables) {
      check_variable(*var);
      declare(*var);
    }
    return;
  case StmtKind::ExprStmt: return check_expr(as<ExprStmt>(stmt).expr);
  case StmtKind::If: {
    auto& s = as<If>(stmt);
    if (s.is_constexpr) return check_constexpr_if(s);
    check_condition(s.condition);
    check_scoped(s.then_branch.get());
    check_scoped(s.else_branch.get());
    return;
  }
  case StmtKind::For: {
    auto& s = as<For>(stmt);
    push_scope();
    if (s.init) check_statement(*s.init);
    if (s.condition) check_condition(s.condition);
    if (s.step) check_expr(s.step);
    function_has_loop();
    ++m_loop_depth;
    check_statement(*s.body);
    --m_loop_depth;
    pop_scope();
    return;
  }
  case StmtKind::While: {
    auto& s = as<While>(stmt);
    check_condition(s.condition);
    function_has_loop();
    ++m_loop_depth;
    check_scoped(s.body.get());
    --m_loop_depth;
    return;
  }
  case StmtKind::DoWhile: {
    auto& s = as<DoWhile>(stmt);
    function_has_loop();
    ++m_loop_depth;
    check_scoped(s.body.get());
    --m_loop_depth;
    check_condition(s.condition);
    return;
  }
  case StmtKind::Switch: return check_switch(as<Switch>(stmt));
  case StmtKind::Case:
    error(stmt.range, m_switches.empty()
                          ? "case label outside a switch"
                          : "not supported: a case label nested inside another statement of the switch");
    return;
  case StmtKind::Break:
    if (m_loop_depth == 0 && m_switches.empty()) error(stmt.range, "break outside a loop or switch");
    return;
  case StmtKind::Continue:
    if (m_loop_depth == 0) error(stmt.range, "continue outside a loop");
    return;
  case StmtKind::Return: return check_return(as<Return>(stmt));
  case StmtKind::Null: return;
  }
}

// switch: the value is promoted; case labels are integer constants converted to its type,
// each value at most once, at most one default (C++ [stmt.switch]).
void Sema::check_switch(Switch& stmt) {
  check_expr(stmt.value);
  if (!stmt.value->type.is_integer()) {
    error(stmt.value->range, "a switch value must be an integer, not '" + stmt.value->type.to_string() + "'");
  }
  const Type type = stmt.value->type.is_integer() ? promote(stmt.value) : Type::of(ScalarType::Int);
  m_switches.push_back({type, {}, false});
  // The loop depth is saved so that `continue` inside a switch inside a loop still works.
  push_scope();
  for (StmtPtr& child : stmt.body->body) {
    if (child->kind == StmtKind::Case) check_case(as<Case>(*child));
    else check_statement(*child);
  }
  pop_scope();
  m_switches.pop_back();
}

void Sema::check_case(Case& label) {
  SwitchContext& context = m_switches.back();
  if (!label.value) {
    if (context.has_default) error(label.range, "more than one default label in the switch");
    context.has_default = true;
    return;
  }
  check_expr(label.value);
  std::optional<Word> value = label.value->type.is_integer() ? fold(*label.value) : std::nullopt;
  if (!value) {
    error(label.value->range, "a case value must be an integer constant");
    return;
  }
  label.folded_value = convert_word(*value, label.value->type, context.type);
  for (const auto& [previous, range] : context.values) {
    if (previous == label.folded_value) {
      error(label.value->range, "duplicate case value " + format_word(previous, context.type));
      return;
    }
  }
  context.values.emplace_back(label.folded_value, label.range);
}

void Sema::check_return(Return& stmt) {
  const Type& expected = m_function->return_type;
  if (!stmt.value) {
    if (!expected.is_void())
      error(stmt.range, "function '" + m_function->name + "' must return a value of type '" +
                            expected.to_string() + "'");
    return;
  }
  check_expr(stmt.value);
  if (expected.is_void()) {
    if (!stmt.value->type.is_void())
      error(stmt.value->range, "void function '" + m_function->name + "' cannot return a value");
    return;
  }
  Type target = expected;
  target.is_const = target.is_volatile = false;
  convert(stmt.value, target, "in the return value");
}

} // namespace fencelab
