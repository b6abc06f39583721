// Pointers to and arrays of vector types and structs ("sequences"), lowered onto their fields
// in a row (parse_vector_types.cpp): an element's field, `&p[i]`, pointer arithmetic counted in
// whole elements, and casts to a pointer to a vector type.
#include "fencelab/frontend/parser.h"
#include "vector_lowering.h"

#include <fmt/format.h>

namespace fencelab {

using vector_lowering::integer;
using vector_lowering::is_assignment_token;

// `[` index `]` after a sequence: field `whole_field` of the element when a whole vector is read
// field by field, else the field `.x` after it names. Fields are at index * width + field.
ExprPtr Parser::parse_sequence_element_field(ExprPtr base, const VectorType& type, std::optional<uint8_t> whole_field) {
  advance(); // '['
  const size_t index_start = m_pos;
  ExprPtr index = parse_expression();
  const size_t index_end = m_pos;
  expect(TokenKind::RightBracket, "']' after the index");
  for (size_t i = index_start; i < index_end; ++i) {
    const TokenKind kind = m_tokens[i].kind;
    const bool call = kind == TokenKind::LeftParen && i > index_start && m_tokens[i - 1].kind == TokenKind::Identifier;
    if (is_assignment_token(kind) || call || kind == TokenKind::LeftBracket) {
      error(m_tokens[i].range, fmt::format("not supported: an index with {} in a whole-{} access (each field would "
                                           "repeat it: compute the index into a variable first)",
                                           call ? "a call" : kind == TokenKind::LeftBracket ? "a memory read" : "a side effect",
                                           type.name));
      break;
    }
  }
  uint8_t field = whole_field.value_or(0);
  SourceRange range = SourceRange::join(base->range, previous().range);
  if (!whole_field && at(TokenKind::Dot) && type.method(peek(1).text) && peek(2).kind == TokenKind::LeftParen &&
      base->kind == ExprKind::NameRef) {
    // `p[i].m(a)`: the index is read again for each field's address, as for a whole element.
    advance(); // '.'
    const Token& method = advance();
    const size_t after = m_pos;
    const std::string sequence = as<NameRef>(*base).name;
    const SourceRange sequence_range = base->range;
    std::vector<ExprPtr> addresses;
    for (uint8_t k = 0; k < type.width; ++k) {
      m_pos = index_start;
      ExprPtr again = k == 0 ? std::move(index) : parse_expression();
      ExprPtr element_base = std::make_unique<NameRef>(sequence_range, sequence);
      ExprPtr scaled = std::make_unique<Binary>(again->range, BinaryOp::Multiply, std::move(again),
                                                integer(range, type.width, ScalarType::Int));
      ExprPtr offset = std::make_unique<Binary>(range, BinaryOp::Add, std::move(scaled), integer(range, k, ScalarType::Int));
      addresses.push_back(std::make_unique<Unary>(range, UnaryOp::AddressOf,
                                                  field_of_element(std::move(element_base), type, k, std::move(offset), range)));
    }
    m_pos = after;
    return parse_method_call(type, method, std::move(addresses));
  }
  if (!whole_field && (at(TokenKind::Dot) || at(TokenKind::Arrow))) { // `p[i].y`
    advance();
    const std::optional<uint8_t> named = parse_field_name(type);
    if (!named) return placeholder(range);
    field = *named;
    range = SourceRange::join(range, previous().range);
  } else if (!whole_field) {
    error(range, fmt::format("not supported: a whole {} here (use its fields, or assign it whole to a {} variable)",
                             type.name, type.name));
    return placeholder(range);
  }
  ExprPtr scaled = std::make_unique<Binary>(index->range, BinaryOp::Multiply, std::move(index),
                                            integer(index->range, type.width, ScalarType::Int));
  ExprPtr offset = std::make_unique<Binary>(scaled->range, BinaryOp::Add, std::move(scaled),
                                            integer(range, field, ScalarType::Int));
  return field_of_element(std::move(base), type, field, std::move(offset), range);
}

ExprPtr Parser::field_of_element(ExprPtr base, const VectorType& type, uint8_t field, ExprPtr offset,
                                 SourceRange range) {
  if (type.field_scalar(field) != type.scalar) {
    // The same bytes as another scalar of the same size (sema keeps the pointer's qualifiers).
    const SourceRange base_range = base->range;
    auto view = std::make_unique<Cast>(base_range, Type::pointer_to(Type::of(type.field_scalar(field))),
                                       std::move(base), false);
    view->field_view = true;
    base = std::move(view);
  }
  return std::make_unique<Index>(range, std::move(base), std::move(offset));
}
ExprPtr Parser::parse_vector_element_address() {
  const size_t start = m_pos;
  const Token& amp = advance();
  VectorType type;
  const VectorVariable* variable = at(TokenKind::Identifier) ? vector_variable(std::string(peek().text)) : nullptr;
  if (!variable || !variable->sequence || !vector_lvalue_length(type)) {
    m_pos = start;
    return nullptr;
  }
  const Token& name = advance();
  advance(); // '['
  ExprPtr index = parse_expression();
  expect(TokenKind::RightBracket, "']' after the index");
  const SourceRange range = SourceRange::join(amp.range, previous().range);
  ExprPtr scaled = std::make_unique<Binary>(index->range, BinaryOp::Multiply, std::move(index),
                                            integer(index->range, type.width, ScalarType::Int));
  ExprPtr element = std::make_unique<Index>(SourceRange::join(name.range, previous().range),
                                            std::make_unique<NameRef>(name.range, std::string(name.text)),
                                            std::move(scaled));
  return std::make_unique<Unary>(range, UnaryOp::AddressOf, std::move(element));
}

const VectorType* Parser::sequence_type(const Expr& expr) const {
  if (expr.kind == ExprKind::NameRef) {
    const VectorVariable* variable = vector_variable(as<NameRef>(expr).name);
    return variable && variable->sequence ? &variable->type : nullptr;
  }
  const auto found = m_sequence_results.find(&expr);
  return found != m_sequence_results.end() && found->second.first.begin == expr.range.begin &&
                 found->second.first.end == expr.range.end
             ? &found->second.second
             : nullptr;
}

ExprPtr Parser::count_in_fields(ExprPtr count, uint32_t width) {
  const SourceRange range = count->range;
  return std::make_unique<Binary>(range, BinaryOp::Multiply, std::move(count), integer(range, width, ScalarType::Long));
}

ExprPtr Parser::scale_sequence_arithmetic(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  // A pointer to vectors or structs points to their fields, one element `width` fields on
  // (C++ [expr.add]: p + n moves n elements): n is scaled, and a difference divided.
  const bool additive = op == BinaryOp::Add || op == BinaryOp::Subtract;
  const VectorType* left_type = additive ? sequence_type(*lhs) : nullptr;
  const VectorType* right_type = additive ? sequence_type(*rhs) : nullptr;
  const uint32_t left = left_type ? left_type->width : 0;
  const uint32_t right = right_type ? right_type->width : 0;
  std::optional<VectorType> element;
  if (left_type) element = *left_type;
  else if (right_type) element = *right_type;
  const SourceRange range = SourceRange::join(lhs->range, rhs->range);
  if (left && right) {
    if (op == BinaryOp::Add) error(range, "invalid operands: the sum of two pointers");
    auto difference = std::make_unique<Binary>(range, op, std::move(lhs), std::move(rhs));
    return std::make_unique<Binary>(range, BinaryOp::Divide, std::move(difference), integer(range, left, ScalarType::Long));
  }
  if (left) rhs = count_in_fields(std::move(rhs), left);
  else if (right && op == BinaryOp::Add) lhs = count_in_fields(std::move(lhs), right);
  ExprPtr result = std::make_unique<Binary>(range, op, std::move(lhs), std::move(rhs));
  if (element && !(left && right)) m_sequence_results[result.get()] = {result->range, *element};
  return result;
}
ExprPtr Parser::vector_cast(ExprPtr cast, const std::optional<VectorType>& vector) {
  if (!vector) return cast;
  if (!cast->type.is_pointer()) {
    error(cast->range, "not supported: a cast to " + vector->name + " (CUDA has no conversions to vector types)");
    return cast;
  }
  if (!vector->layout_problem.empty())
    error(cast->range, "not supported: a cast to a pointer to " + vector->name + " (it has " + vector->layout_problem +
                           "; structs lie in memory here only when their fields are scalars of one size)");
  if (cast->type.pointer_depth == 1) m_vector_pointer_casts[cast.get()] = VectorPointerCast{*vector, cast->range};
  return cast;
}

bool Parser::is_vector_pointer_cast(const Expr& expr) const {
  const auto found = m_vector_pointer_casts.find(&expr);
  return found != m_vector_pointer_casts.end() && found->second.range.begin == expr.range.begin &&
         found->second.range.end == expr.range.end;
}

} // namespace fencelab
