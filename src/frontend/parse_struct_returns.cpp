// Functions that return a struct or vector value (`Matrix GetSubMatrix(Matrix A, int row, int
// col)` of the Programming Guide's shared-memory matrix multiplication, `float4 f()`), lowered
// onto void __device__ functions.
//
// A struct value is one variable per field (parse_structs.cpp), so a function cannot hand one
// back as its value. It is given its destination instead: `S f(a)` is a function whose first
// parameters are `result.f` for every field f (each a `T&`, that is a `T*`), followed by the
// parameters as written. `return e;` evaluates each of e's fields into a temporary, then stores
// them through the references and returns, so a destination that `e` also reads is read whole
// before it is written (C++ [stmt.return]: the result is initialized from e, then the function
// returns). The calls that can receive the value are lowered to pass their destination:
// `S s = f(a);` (a local's fields), `s = f(a);` and `p[i] = f(a);` (the target's fields), and
// `return f(a);` in a function returning S (its own destination). A call anywhere else (an
// operand, an argument, its result discarded) is named as not supported.
#include "fencelab/frontend/parser.h"

#include <fmt/format.h>

namespace fencelab {

namespace {

/** The type of field `k` of a vector or struct, as declared (a struct's pointer fields too). */
Type declared_field_type(const VectorType& type, uint8_t k) {
  return k < type.struct_field_declared.size() ? type.struct_field_declared[k] : Type::of(type.field_scalar(k));
}

} // namespace

void Parser::add_result_parameters(FunctionDecl& function) {
  if (!m_function_returns) return;
  const VectorType& type = *m_function_returns;
  m_struct_returning[function.name] = type;
  for (uint8_t k = 0; k < type.width; ++k) {
    auto param = std::make_unique<VarDecl>();
    param->storage = StorageKind::Param;
    param->name = "result." + std::string(type.field_name(k));
    param->type = Type::pointer_to(declared_field_type(type, k));
    param->range = param->name_range = function.name_range;
    function.params.push_back(std::move(param));
  }
}

const VectorType* Parser::struct_returning_call_at(const VectorType& type) const {
  if (!at(TokenKind::Identifier) || peek(1).kind != TokenKind::LeftParen) return nullptr;
  const auto found = m_struct_returning.find(std::string(peek().text));
  if (found == m_struct_returning.end()) return nullptr;
  const VectorType& returned = found->second;
  const bool same = returned.is_struct() || type.is_struct() ? returned.name == type.name
                                                             : returned.scalar == type.scalar && returned.width == type.width;
  return same ? &returned : nullptr;
}

ExprPtr Parser::parse_struct_returning_call(std::vector<ExprPtr> destination) {
  const Token& name = advance();
  const std::string function(name.text);
  advance(); // '('
  for (ExprPtr& arg : parse_call_arguments(function)) destination.push_back(std::move(arg));
  expect(TokenKind::RightParen, "')' after the arguments");
  return std::make_unique<Call>(SourceRange::join(name.range, previous().range), function, name.range,
                                std::move(destination));
}

std::vector<ExprPtr> Parser::field_addresses(std::vector<ExprPtr> lvalues) {
  for (ExprPtr& lvalue : lvalues) {
    const SourceRange range = lvalue->range;
    lvalue = std::make_unique<Unary>(range, UnaryOp::AddressOf, std::move(lvalue));
  }
  return lvalues;
}

VarDeclPtr Parser::hidden_call_variable(const VarDecl& var, ExprPtr call, const char* what) {
  // The call stands as the initializer of a variable declared after the fields, `(call, 0)`,
  // so that it runs where the declaration is.
  const SourceRange range = call->range;
  auto hidden = std::make_unique<VarDecl>();
  hidden->name = var.name + "." + what;
  hidden->range = range;
  hidden->name_range = var.name_range;
  hidden->storage = StorageKind::Local;
  hidden->type = Type::of(ScalarType::Int);
  hidden->initializer = std::make_unique<Binary>(
      range, BinaryOp::Comma, std::move(call),
      std::make_unique<Literal>(ExprKind::IntegerLiteral, range, 0, Type::of(ScalarType::Int)));
  return hidden;
}

StmtPtr Parser::parse_struct_return(SourceRange keyword) {
  const VectorType type = *m_function_returns;
  std::vector<StmtPtr> body;
  const auto result = [&](uint8_t k) -> ExprPtr {
    return std::make_unique<NameRef>(keyword, "result." + std::string(type.field_name(k)));
  };
  if (at(TokenKind::Semicolon)) {
    error(keyword, fmt::format("this function returns {}: return a {} value", type.name, type.name));
  } else if (struct_returning_call_at(type)) { // `return g(a);`: g writes this function's destination
    std::vector<ExprPtr> destination;
    for (uint8_t k = 0; k < type.width; ++k) destination.push_back(result(k));
    ExprPtr call = parse_struct_returning_call(std::move(destination));
    const SourceRange range = call->range;
    body.push_back(std::make_unique<ExprStmt>(range, std::move(call)));
  } else {
    std::vector<ExprPtr> values = parse_vector_value(type);
    std::vector<VarDeclPtr> temporaries;
    ExprPtr stores;
    for (uint8_t k = 0; k < type.width; ++k) {
      auto temporary = std::make_unique<VarDecl>();
      temporary->name = "returned." + std::string(type.field_name(k));
      temporary->range = temporary->name_range = values[k]->range;
      temporary->storage = StorageKind::Local;
      temporary->type = declared_field_type(type, k);
      temporary->initializer = std::move(values[k]);
      const SourceRange range = temporary->range;
      ExprPtr store = std::make_unique<Assign>(range, std::nullopt,
                                               std::make_unique<Unary>(range, UnaryOp::Deref, result(k)),
                                               std::make_unique<NameRef>(range, temporary->name));
      stores = stores ? std::make_unique<Binary>(range, BinaryOp::Comma, std::move(stores), std::move(store))
                      : std::move(store);
      temporaries.push_back(std::move(temporary));
    }
    const SourceRange range = SourceRange::join(keyword, previous().range);
    body.push_back(std::make_unique<Declaration>(range, std::move(temporaries)));
    body.push_back(std::make_unique<ExprStmt>(range, std::move(stores)));
  }
  expect(TokenKind::Semicolon, "';' after return");
  const SourceRange range = SourceRange::join(keyword, previous().range);
  body.push_back(std::make_unique<Return>(range, nullptr));
  return std::make_unique<Compound>(range, std::move(body));
}

} // namespace fencelab
