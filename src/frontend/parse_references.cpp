// The parser: lvalue references (`T&`), lowered onto pointers.
//
// fencelab's values are scalars and its variables have addresses, so a reference is a pointer
// the source does not spell: a parameter or local declared `T& r` is a `T* r`; each use of `r`
// is `*r`; a reference parameter's argument, and a reference local's initializer, is taken by
// address (`&a`). Every access through the reference is then the one load or store of the
// referred object that C++ gives it ([dcl.ref]: a reference is an alias of its object), with
// the qualifiers of `T` (a `const volatile int&` reads the flag afresh at each use).
//
// A local bound to a reference has its address taken, so it lives in the thread's private
// memory instead of a register slot (sema marks it; Interpreter::declare).
//
// Not lowered, and named: rvalue references (`T&&`), references to vector types, a reference
// bound to a value that is not a variable (a temporary: `f(a + 1)` for `const int&`), and
// references anywhere but a parameter or a local (kernel parameters, return types, globals).
// Names follow the vector types' scoping: a name declared anywhere in a function hides one of
// the same name declared before it there (Parser::declare_vector_name).
#include "fencelab/frontend/parser.h"

namespace fencelab {

bool Parser::parse_reference_marker(bool allowed) {
  if (at(TokenKind::AmpAmp)) {
    error(peek().range, "not supported: rvalue references ('&&')");
    advance();
    return false;
  }
  if (!at(TokenKind::Amp)) return false;
  const SourceRange amp = advance().range;
  if (!allowed) {
    error(amp, "not supported: a reference here (references are supported as parameters of __device__ "
               "functions and as local variables)");
    return false;
  }
  return true;
}

Type Parser::reference_type(Type referred, const std::optional<VectorType>& vector, SourceRange range) {
  if (vector) {
    error(range, "not supported: a reference to " + vector->name + " (use a pointer)");
    return referred;
  }
  if (referred.pointer_depth >= 2) {
    error(range, "not supported: a reference to a pointer to a pointer");
    return referred;
  }
  return Type::pointer_to(referred);
}

void Parser::declare_reference_name(const std::string& name, bool reference) {
  if (m_in_function) m_reference_locals[name] = reference;
}

bool Parser::is_reference_name(const std::string& name) const {
  if (!m_in_function) return false;
  const auto local = m_reference_locals.find(name);
  return local != m_reference_locals.end() && local->second;
}

ExprPtr Parser::bind_reference(ExprPtr referred, const std::string& what) {
  const bool is_object = referred->kind == ExprKind::NameRef || referred->kind == ExprKind::Index ||
                         (referred->kind == ExprKind::Unary && static_cast<const Unary&>(*referred).op == UnaryOp::Deref);
  if (!is_object) {
    error(referred->range, "not supported: binding " + what +
                               " to a value that is not a variable (a temporary); store it in a variable first");
    return placeholder(referred->range);
  }
  const SourceRange range = referred->range;
  return std::make_unique<Unary>(range, UnaryOp::AddressOf, std::move(referred));
}

ExprPtr Parser::reference_use(const Token& name) {
  auto variable = std::make_unique<NameRef>(name.range, std::string(name.text));
  return std::make_unique<Unary>(name.range, UnaryOp::Deref, std::move(variable));
}

} // namespace fencelab
