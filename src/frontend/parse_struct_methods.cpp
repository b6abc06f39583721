// Member functions and constructors of the kernel's structs, lowered onto __device__ functions.
//
// A struct value is one variable per field (parse_structs.cpp), so a member function cannot be
// given the object as one pointer. It is given each field by reference instead: `S::m` is a
// function whose first parameters are `this.f` for every field f (each a `T&`, that is a `T*`:
// parse_references.cpp), followed by the parameters as written. In its body a field's name, or
// `this->f`, is a use of that reference, and a member function of the same struct called by
// name passes the references on. A call `s.m(a)` passes the addresses of `s`'s fields (`&s.f`),
// `p->m(a)` and `p[i].m(a)` those of the element's fields in memory, then `a`. Every access to a
// field is therefore the one load or store of the object's field that C++ gives it (C++
// [class.mfct.non.static]: a member function acts on the object it is called for), and an
// object in global or shared memory is read and written there, visibly.
//
// A constructor is `S::S`, called for a local declared `S s(a);`, `S s{a};` or `S s;`, after
// which the object's fields hold what it stored; a member-initializer list `: f(e)` stores each
// `e` into its field before the body (C++ [class.base.init]). Member functions that are not
// __device__ (a constructor that calls cudaMalloc, a destructor that frees) are host code: they
// are skipped, and device code that calls one gets an error. Not supported, each named:
// __device__ destructors, operators (named at their use), overloaded member functions, member
// function templates, static member functions called as `S::f`, `*this`.
#include "fencelab/frontend/parser.h"

#include <fmt/format.h>
#include <functional>

namespace fencelab {

const std::string* VectorType::method(std::string_view name, std::optional<size_t> arity) const {
  const std::string* first = nullptr;
  for (const Method& method : methods) {
    if (method.written != name) continue;
    if (!arity || method.arity == *arity) return &method.lowered;
    if (!first) first = &method.lowered; // sema names the wrong count
  }
  return first;
}

bool Parser::at_struct_member_function(const std::string& tag) const {
  if (at(TokenKind::KwTemplate) || at(TokenKind::Tilde) || at(TokenKind::KwOperator)) return true;
  if (!tag.empty() && at(TokenKind::Identifier) && peek().text == tag && peek(1).kind == TokenKind::LeftParen)
    return true;
  // `[specifiers] type [*...] name (`: a `(` before the member's end.
  for (size_t ahead = 0;; ++ahead) {
    switch (peek(ahead).kind) {
    case TokenKind::LeftParen: return ahead > 0 && peek(ahead - 1).kind == TokenKind::Identifier;
    case TokenKind::KwOperator: return true;
    case TokenKind::Semicolon: case TokenKind::LeftBrace: case TokenKind::RightBrace: case TokenKind::Equal:
    case TokenKind::LeftBracket: case TokenKind::Colon: case TokenKind::Comma: case TokenKind::EndOfFile:
      return false;
    default: break;
    }
  }
}

VectorType::Method Parser::struct_method_names(size_t start, const std::string& struct_name) const {
  std::string written;
  bool tilde = false;
  size_t i = start;
  for (; i < m_tokens.size(); ++i) {
    const Token& token = m_tokens[i];
    if (token.kind == TokenKind::KwOperator) return {"operator", struct_name + "::operator", 0};
    if (token.kind == TokenKind::LeftParen || token.kind == TokenKind::EndOfFile) break;
    if (token.kind == TokenKind::Identifier) written = std::string(token.text);
    tilde = tilde || token.kind == TokenKind::Tilde;
  }
  if (tilde) written = "~" + written;
  // `(void)` declares no parameters (C++ [dcl.fct]/4).
  const bool is_void = i + 2 < m_tokens.size() && m_tokens[i + 1].kind == TokenKind::KwVoid &&
                       m_tokens[i + 2].kind == TokenKind::RightParen;
  return {written, struct_name + "::" + written, is_void ? 0 : count_arguments(i)};
}

size_t Parser::count_arguments(size_t open) const {
  const auto kind_at = [&](size_t i) { return i < m_tokens.size() ? m_tokens[i].kind : TokenKind::EndOfFile; };
  const TokenKind close = kind_at(open) == TokenKind::LeftBrace ? TokenKind::RightBrace : TokenKind::RightParen;
  if (kind_at(open + 1) == close) return 0;
  size_t count = 1;
  int depth = 0;
  for (size_t i = open;; ++i) {
    const TokenKind kind = kind_at(i);
    if (kind == TokenKind::EndOfFile) return count;
    if (kind == TokenKind::LeftParen || kind == TokenKind::LeftBrace || kind == TokenKind::LeftBracket) ++depth;
    else if (kind == TokenKind::RightParen || kind == TokenKind::RightBrace || kind == TokenKind::RightBracket) {
      if (--depth == 0) return count;
    } else if (kind == TokenKind::Comma && depth == 1) {
      ++count;
    }
  }
}

void Parser::parse_struct_method(const VectorType& type, const VectorType::Method& method) {
  const SourceRange start = peek().range;
  if (at(TokenKind::KwTemplate)) return error(start, "not supported: member function templates (in " + type.name + ")");
  const std::string& lowered = method.lowered;
  DeclSpecifiers spec;
  parse_decl_specifiers(spec);
  if (at(TokenKind::KwOperator)) return; // named where an operator is used on the struct
  const bool device = spec.is_device;
  if (spec.is_global) return error(start, "a member function cannot be __global__");
  if (!device) {
    m_host_methods.insert(lowered); // skipped; a call from device code is an error
    return;
  }
  if (at(TokenKind::Tilde))
    return error(start, fmt::format("not supported: a __device__ destructor ('~{}')", type.name));
  if (m_struct_functions_named.count(lowered))
    return error(start, fmt::format("not supported: overloaded member functions with the same number of parameters "
                                    "('{}')",
                                    lowered));
  const bool constructor = spec.vector && spec.vector->name == type.name && at(TokenKind::LeftParen);
  Type return_type = Type::of(ScalarType::Void);
  if (!constructor) {
    return_type = parse_pointers(spec.type);
    if (spec.vector)
      return error(spec.range, fmt::format("not supported: a member function returning {}{}",
                                           return_type.is_pointer() ? "a pointer to " : "", spec.vector->name));
    if (!at(TokenKind::Identifier)) return error(peek().range, "expected the member function's name");
    advance();
  }
  const Token& name = previous(); // the function's name, or the struct's for a constructor
  MethodContext context{&type, constructor, spec.is_static, lowered};
  m_method = &context;
  TranslationUnit scratch;
  parse_function(scratch, spec, return_type, name, {});
  m_method = nullptr;
  for (FunctionDeclPtr& function : scratch.functions) {
    m_struct_functions_named.insert(lowered);
    m_struct_functions.push_back(std::move(function));
  }
}

void Parser::add_object_parameters(FunctionDecl& function) {
  if (!m_method || m_method->is_static) return;
  const VectorType& type = *m_method->type;
  for (uint8_t k = 0; k < type.width; ++k) {
    auto param = std::make_unique<VarDecl>();
    param->storage = StorageKind::Param;
    param->name = "this." + std::string(type.field_name(k));
    param->type = Type::pointer_to(type.struct_field_declared[k]);
    param->range = param->name_range = function.name_range;
    declare_reference_name(param->name, true);
    function.params.push_back(std::move(param));
  }
}

std::vector<StmtPtr> Parser::parse_member_initializers() {
  std::vector<StmtPtr> stores;
  if (!m_method || !m_method->constructor || !accept(TokenKind::Colon)) return stores;
  // mem-initializer-list: NAME ( '(' expression ')' | '{' expression '}' ) { ',' ... }
  do {
    if (!at(TokenKind::Identifier)) {
      error(peek().range, "expected a field name in the member-initializer list");
      break;
    }
    const Token& field = advance();
    const bool brace = at(TokenKind::LeftBrace);
    if (!accept(TokenKind::LeftParen) && !accept(TokenKind::LeftBrace)) {
      error(peek().range, "expected '(' after the field name");
      break;
    }
    ExprPtr value = parse_assignment_expression();
    expect(brace ? TokenKind::RightBrace : TokenKind::RightParen, brace ? "'}'" : "')'");
    const SourceRange range = SourceRange::join(field.range, previous().range);
    ExprPtr target = object_field(field);
    if (!target) {
      error(field.range, fmt::format("{} has no field '{}' to initialize", m_method->type->name, field.text));
      continue;
    }
    stores.push_back(std::make_unique<ExprStmt>(
        range, std::make_unique<Assign>(range, std::nullopt, std::move(target), std::move(value))));
  } while (accept(TokenKind::Comma));
  return stores;
}

ExprPtr Parser::object_field(const Token& name) {
  if (!m_method || m_method->is_static) return nullptr;
  const VectorType& type = *m_method->type;
  for (uint8_t k = 0; k < type.width; ++k)
    if (type.field_name(k) == name.text) {
      auto reference = std::make_unique<NameRef>(name.range, "this." + std::string(name.text));
      return std::make_unique<Unary>(name.range, UnaryOp::Deref, std::move(reference));
    }
  return nullptr;
}

ExprPtr Parser::parse_object_member(const Token& name) {
  if (!m_method || m_method->is_static) return nullptr;
  const std::string text(name.text);
  if (const auto local = m_vector_locals.find(text); local != m_vector_locals.end()) return nullptr; // hides it
  if (ExprPtr field = object_field(name)) return field;
  if (m_method->type->method(text) && at(TokenKind::LeftParen)) {
    std::vector<ExprPtr> fields;
    for (uint8_t k = 0; k < m_method->type->width; ++k)
      fields.push_back(std::make_unique<NameRef>(name.range, "this." + std::string(m_method->type->field_name(k))));
    return parse_method_call(*m_method->type, name, std::move(fields));
  }
  return nullptr;
}

ExprPtr Parser::parse_this_member(const Token& keyword) {
  if (!m_method || m_method->is_static || !at(TokenKind::Arrow) || peek(1).kind != TokenKind::Identifier) {
    error(keyword.range, "not supported: 'this' (other than 'this->member' in a member function)");
    return placeholder(keyword.range);
  }
  advance(); // '->'
  const Token& name = advance();
  if (ExprPtr field = object_field(name)) return field;
  if (m_method->type->method(name.text) && at(TokenKind::LeftParen)) {
    std::vector<ExprPtr> fields;
    for (uint8_t k = 0; k < m_method->type->width; ++k)
      fields.push_back(std::make_unique<NameRef>(name.range, "this." + std::string(m_method->type->field_name(k))));
    return parse_method_call(*m_method->type, name, std::move(fields));
  }
  error(name.range, fmt::format("{} has no member '{}'", m_method->type->name, name.text));
  return placeholder(name.range);
}

ExprPtr Parser::parse_method_call(const VectorType& type, const Token& method, std::vector<ExprPtr> object_fields) {
  const std::string& lowered = *type.method(method.text, count_arguments(m_pos));
  expect(TokenKind::LeftParen, "'(' after the member function's name");
  std::vector<ExprPtr> args = std::move(object_fields);
  for (ExprPtr& arg : parse_call_arguments(lowered)) args.push_back(std::move(arg));
  expect(TokenKind::RightParen, "')' after the arguments");
  const SourceRange range = SourceRange::join(method.range, previous().range);
  if (m_host_methods.count(lowered)) {
    error(method.range, fmt::format("'{}' is host code: a member function that is not __device__ cannot be called "
                                    "from device code",
                                    lowered));
    return placeholder(range);
  }
  return std::make_unique<Call>(range, lowered, method.range, std::move(args));
}

ExprPtr Parser::address_of_fields_call(const VectorType& type, const Token& method,
                                       const std::function<ExprPtr(uint8_t)>& field) {
  std::vector<ExprPtr> addresses;
  for (uint8_t k = 0; k < type.width; ++k) {
    ExprPtr lvalue = field(k);
    const SourceRange range = lvalue->range;
    addresses.push_back(std::make_unique<Unary>(range, UnaryOp::AddressOf, std::move(lvalue)));
  }
  return parse_method_call(type, method, std::move(addresses));
}

void Parser::construct_struct_variable(std::vector<VarDeclPtr>& out, const VectorType& type, const VarDecl& var) {
  const bool arguments = at(TokenKind::LeftParen) || at(TokenKind::LeftBrace);
  const std::string& constructor = *type.method(type.name, arguments ? count_arguments(m_pos) : 0);
  if (var.storage != StorageKind::Local) {
    error(var.name_range, fmt::format("not supported: a constructor for a {} variable (CUDA runs none for "
                                      "__device__ or __shared__ variables)",
                                      var.storage == StorageKind::Shared ? "__shared__" : "__device__"));
    return;
  }
  // `S s(a)` and `S s{a}` pass `a`; `S s;` calls the default constructor.
  std::vector<ExprPtr> args;
  for (uint8_t k = 0; k < type.width; ++k) {
    auto field = std::make_unique<NameRef>(var.name_range, var.name + "." + std::string(type.field_name(k)));
    args.push_back(std::make_unique<Unary>(var.name_range, UnaryOp::AddressOf, std::move(field)));
  }
  const bool brace = at(TokenKind::LeftBrace);
  if (accept(TokenKind::LeftParen) || accept(TokenKind::LeftBrace)) {
    for (ExprPtr& arg : parse_call_arguments(constructor, brace ? TokenKind::RightBrace : TokenKind::RightParen))
      args.push_back(std::move(arg));
    expect(brace ? TokenKind::RightBrace : TokenKind::RightParen, brace ? "'}' after the arguments" : "')' after the arguments");
  }
  const SourceRange range = SourceRange::join(var.name_range, previous().range);
  if (m_host_methods.count(constructor)) {
    error(range, fmt::format("the constructor '{}' is host code (declare it __device__ to construct a {} in device "
                             "code)",
                             constructor, type.name));
    return;
  }
  out.push_back(hidden_call_variable(var, std::make_unique<Call>(range, constructor, var.name_range, std::move(args)),
                                     "constructed"));
}

} // namespace fencelab
