// The parser: expressions, by C++ precedence (lowest first: comma, assignment, conditional,
// ||, &&, |, ^, &, equality, relational, shift, additive, multiplicative, unary, postfix).
#include "fencelab/frontend/parser.h"

#include <deque>
#include <fmt/format.h>

namespace fencelab {

namespace {

struct BinaryLevel {
  int precedence; ///< 0: not a binary operator
  BinaryOp op;
};

BinaryLevel binary_level(TokenKind kind) {
  switch (kind) {
  case TokenKind::PipePipe: return {1, BinaryOp::LogicalOr};
  case TokenKind::AmpAmp: return {2, BinaryOp::LogicalAnd};
  case TokenKind::Pipe: return {3, BinaryOp::BitOr};
  case TokenKind::Caret: return {4, BinaryOp::BitXor};
  case TokenKind::Amp: return {5, BinaryOp::BitAnd};
  case TokenKind::EqualEqual: return {6, BinaryOp::Equal};
  case TokenKind::BangEqual: return {6, BinaryOp::NotEqual};
  case TokenKind::Less: return {7, BinaryOp::Less};
  case TokenKind::Greater: return {7, BinaryOp::Greater};
  case TokenKind::LessEqual: return {7, BinaryOp::LessEqual};
  case TokenKind::GreaterEqual: return {7, BinaryOp::GreaterEqual};
  case TokenKind::LessLess: return {8, BinaryOp::ShiftLeft};
  case TokenKind::GreaterGreater: return {8, BinaryOp::ShiftRight};
  case TokenKind::Plus: return {9, BinaryOp::Add};
  case TokenKind::Minus: return {9, BinaryOp::Subtract};
  case TokenKind::Star: return {10, BinaryOp::Multiply};
  case TokenKind::Slash: return {10, BinaryOp::Divide};
  case TokenKind::Percent: return {10, BinaryOp::Remainder};
  default: return {0, BinaryOp::Comma};
  }
}

std::optional<std::optional<BinaryOp>> assignment_op(TokenKind kind) {
  switch (kind) {
  case TokenKind::Equal: return std::optional<BinaryOp>{};
  case TokenKind::PlusEqual: return BinaryOp::Add;
  case TokenKind::MinusEqual: return BinaryOp::Subtract;
  case TokenKind::StarEqual: return BinaryOp::Multiply;
  case TokenKind::SlashEqual: return BinaryOp::Divide;
  case TokenKind::PercentEqual: return BinaryOp::Remainder;
  case TokenKind::AmpEqual: return BinaryOp::BitAnd;
  case TokenKind::PipeEqual: return BinaryOp::BitOr;
  case TokenKind::CaretEqual: return BinaryOp::BitXor;
  case TokenKind::LessLessEqual: return BinaryOp::ShiftLeft;
  case TokenKind::GreaterGreaterEqual: return BinaryOp::ShiftRight;
  default: return std::nullopt;
  }
}

} // namespace

ExprPtr Parser::placeholder(SourceRange range) {
  return std::make_unique<Literal>(ExprKind::IntegerLiteral, range, 0, Type::of(ScalarType::Int));
}

// expression: assignment-expression { ',' assignment-expression }
ExprPtr Parser::parse_expression() {
  ExprPtr expr = parse_assignment_expression();
  std::deque<NestingGuard> chain; // a chain of operators nests as deeply as parentheses
  while (accept(TokenKind::Comma)) {
    if (!chain.emplace_back(*this).ok()) return expr;
    ExprPtr rhs = parse_assignment_expression();
    const SourceRange range = SourceRange::join(expr->range, rhs->range);
    expr = std::make_unique<Binary>(range, BinaryOp::Comma, std::move(expr), std::move(rhs));
  }
  return expr;
}

// assignment-expression: conditional-expression [ assignment-operator assignment-expression ]
ExprPtr Parser::parse_assignment_expression() {
  NestingGuard guard(*this);
  if (!guard.ok()) return placeholder(peek().range);
  VectorType vector;
  if (const size_t length = vector_lvalue_length(vector); length && assignment_op(peek(length).kind))
    return parse_vector_assignment(vector); // `v = make_float4(...)`, `p[i] = v`: field by field
  ExprPtr lhs = parse_conditional_expression();
  auto op = assignment_op(peek().kind);
  if (!op) return lhs;
  advance();
  ExprPtr rhs = parse_assignment_expression();
  const SourceRange range = SourceRange::join(lhs->range, rhs->range);
  // `p += n` of a pointer to vectors or structs moves n elements (scale_sequence_arithmetic).
  if (const VectorType* element = sequence_type(*lhs); element && (*op == BinaryOp::Add || *op == BinaryOp::Subtract))
    rhs = count_in_fields(std::move(rhs), element->width);
  return std::make_unique<Assign>(range, *op, std::move(lhs), std::move(rhs));
}

// conditional-expression: logical-or-expression [ '?' expression ':' assignment-expression ]
ExprPtr Parser::parse_conditional_expression() {
  ExprPtr condition = parse_binary(1);
  if (!accept(TokenKind::Question)) return condition;
  NestingGuard guard(*this);
  if (!guard.ok()) return condition;
  ExprPtr then_value = parse_expression();
  expect(TokenKind::Colon, "':' in the conditional expression");
  ExprPtr else_value = parse_assignment_expression();
  const SourceRange range = SourceRange::join(condition->range, else_value->range);
  return std::make_unique<Conditional>(range, std::move(condition), std::move(then_value),
                                       std::move(else_value));
}

// binary-expression(p): unary-expression { binary-operator(q >= p) binary-expression(q + 1) }
ExprPtr Parser::parse_binary(int min_precedence) {
  ExprPtr lhs = parse_unary_expression();
  std::deque<NestingGuard> chain; // a chain of operators nests as deeply as parentheses
  while (true) {
    const BinaryLevel level = binary_level(peek().kind);
    if (level.precedence == 0 || level.precedence < min_precedence) return lhs;
    advance();
    if (!chain.emplace_back(*this).ok()) return lhs;
    ExprPtr rhs = parse_binary(level.precedence + 1);
    lhs = scale_sequence_arithmetic(level.op, std::move(lhs), std::move(rhs));
  }
}

// unary-expression: ( '+' | '-' | '!' | '~' | '++' | '--' | '*' | '&' ) unary-expression
//                 | '(' type-name ')' unary-expression
//                 | 'sizeof' ( '(' type-name ')' | unary-expression )
//                 | postfix-expression
bool Parser::functional_cast_in_parentheses() {
  // `(uint(x) << 24)`: a type name after `(` that is followed by `(`, not `)`, is a functional
  // cast starting a parenthesized expression. Tried by parsing the type, then undone.
  const size_t start = m_pos;
  const size_t diagnostics = m_diagnostics.diagnostics().size();
  const bool panic = m_panic;
  const std::optional<VectorType> vector = m_last_vector_type;
  advance();
  parse_type_name();
  const bool functional = at(TokenKind::LeftParen);
  m_pos = start;
  m_diagnostics.take_from(diagnostics);
  m_panic = panic;
  m_last_vector_type = vector;
  return functional;
}

ExprPtr Parser::parse_unary_expression() {
  NestingGuard guard(*this);
  const Token& token = peek();
  if (!guard.ok()) return placeholder(token.range);
  std::optional<UnaryOp> op;
  switch (token.kind) {
  case TokenKind::Plus: op = UnaryOp::Plus; break;
  case TokenKind::Minus: op = UnaryOp::Negate; break;
  case TokenKind::Bang: op = UnaryOp::LogicalNot; break;
  case TokenKind::Tilde: op = UnaryOp::BitNot; break;
  case TokenKind::PlusPlus: op = UnaryOp::PreIncrement; break;
  case TokenKind::MinusMinus: op = UnaryOp::PreDecrement; break;
  case TokenKind::Star: op = UnaryOp::Deref; break;
  case TokenKind::Amp: op = UnaryOp::AddressOf; break;
  case TokenKind::KwSizeof: return parse_sizeof();
  case TokenKind::LeftParen:
    if (is_type_start(1) && !functional_cast_in_parentheses()) {
      const SourceRange start = advance().range;
      std::optional<Type> type = parse_type_name();
      const std::optional<VectorType> vector = m_last_vector_type;
      expect(TokenKind::RightParen, "')' after the cast type");
      ExprPtr operand = parse_unary_expression();
      const SourceRange range = SourceRange::join(start, operand->range);
      return vector_cast(std::make_unique<Cast>(range, type.value_or(Type::of(ScalarType::Int)),
                                                std::move(operand), false),
                         vector);
    }
    break;
  default: break;
  }
  if (op == UnaryOp::AddressOf)
    if (ExprPtr element = parse_vector_element_address()) return element;
  if (op) {
    const SourceRange start = advance().range;
    ExprPtr operand = parse_unary_expression();
    const SourceRange range = SourceRange::join(start, operand->range);
    return std::make_unique<Unary>(range, *op, std::move(operand));
  }
  return parse_postfix(parse_primary());
}

// sizeof-expression: 'sizeof' '(' type-name ')' | 'sizeof' unary-expression
//   (the second form becomes a Call to "sizeof" that sema replaces by its value)
ExprPtr Parser::parse_sizeof() {
  const SourceRange start = advance().range;
  if (at(TokenKind::LeftParen) && is_type_start(1)) {
    advance();
    std::optional<Type> type = parse_type_name();
    const bool whole = m_last_vector_type && type && !type->is_pointer();
    expect(TokenKind::RightParen, "')' after the type");
    const Type size_type = Type::of(ScalarType::ULong);
    return std::make_unique<Literal>(ExprKind::IntegerLiteral, SourceRange::join(start, previous().range),
                                     whole ? m_last_vector_type->byte_size() : type ? type->size() : 0, size_type);
  }
  // `sizeof(v)`, `sizeof p[i]` of a whole vector or struct: its fields' total (they are lowered
  // onto fields, so there is no variable or element of the whole to ask sema about).
  const bool parenthesized = at(TokenKind::LeftParen);
  if (parenthesized) advance();
  VectorType vector;
  if (const size_t length = vector_lvalue_length(vector);
      length && (!parenthesized || peek(length).kind == TokenKind::RightParen)) {
    m_pos += length;
    if (parenthesized) advance();
    return std::make_unique<Literal>(ExprKind::IntegerLiteral, SourceRange::join(start, previous().range),
                                     Word(vector.byte_size()),
                                     Type::of(ScalarType::ULong));
  }
  if (parenthesized) --m_pos;
  ExprPtr operand = parse_unary_expression();
  const SourceRange range = SourceRange::join(start, operand->range);
  std::vector<ExprPtr> args;
  args.push_back(std::move(operand));
  return std::make_unique<Call>(range, "sizeof", start, std::move(args));
}

// postfix-expression: primary { '[' expression ']' | '++' | '--' }
ExprPtr Parser::parse_postfix(ExprPtr expr) {
  std::deque<NestingGuard> chain;
  while (true) {
    const Token& token = peek();
    if (!chain.emplace_back(*this).ok()) return expr;
    if (token.kind == TokenKind::LeftBracket && is_vector_pointer_cast(*expr)) {
      // `reinterpret_cast<float4*>(p)[i].x`
      const VectorType type = m_vector_pointer_casts.at(expr.get()).type;
      m_vector_pointer_casts.erase(expr.get());
      expr = parse_sequence_element_field(std::move(expr), type, std::nullopt);
    } else if ((token.kind == TokenKind::LeftBracket || token.kind == TokenKind::Arrow) &&
               expr->kind != ExprKind::NameRef && sequence_type(*expr)) {
      // `(p + 1)[0].x`, `(p + 1)->x`: arithmetic on a pointer to vectors or structs.
      const VectorType type = *sequence_type(*expr);
      if (token.kind == TokenKind::LeftBracket) {
        expr = parse_sequence_element_field(std::move(expr), type, std::nullopt);
      } else {
        advance(); // '->'
        if (type.method(peek().text) && peek(1).kind == TokenKind::LeftParen) { // `(p + 1)->m(a)`
          error(expr->range, "not supported: a member function call through this pointer (name it first: " +
                                 type.name + "* q = ...; q->" + std::string(peek().text) + "(...))");
          return expr;
        }
        const std::optional<uint8_t> field = parse_field_name(type);
        if (!field) return expr;
        const SourceRange range = SourceRange::join(expr->range, previous().range);
        expr = field_of_element(std::move(expr), type, *field,
                                std::make_unique<Literal>(ExprKind::IntegerLiteral, range, Word(*field),
                                                          Type::of(ScalarType::Int)),
                                range);
      }
    } else if (token.kind == TokenKind::LeftBracket) {
      advance();
      ExprPtr index = parse_expression();
      expect(TokenKind::RightBracket, "']' after the index");
      const SourceRange range = SourceRange::join(expr->range, previous().range);
      expr = std::make_unique<Index>(range, std::move(expr), std::move(index));
    } else if (token.kind == TokenKind::PlusPlus || token.kind == TokenKind::MinusMinus) {
      advance();
      const UnaryOp op = token.kind == TokenKind::PlusPlus ? UnaryOp::PostIncrement : UnaryOp::PostDecrement;
      const SourceRange range = SourceRange::join(expr->range, token.range);
      expr = std::make_unique<Unary>(range, op, std::move(expr));
    } else if (token.kind == TokenKind::Dot && peek(1).kind == TokenKind::Identifier &&
               peek(2).kind == TokenKind::LeftParen) {
      expr = parse_member_call(std::move(expr)); // cooperative groups' member functions
    } else if (m_field_labels && token.kind == TokenKind::Dot && expr->kind == ExprKind::NameRef &&
               peek(1).kind == TokenKind::Identifier) {
      advance();
      const Token& field = advance();
      expr = std::make_unique<NameRef>(SourceRange::join(expr->range, field.range),
                                       as<NameRef>(*expr).name + "." + std::string(field.text));
    } else if (token.kind == TokenKind::Dot || token.kind == TokenKind::Arrow) {
      error(token.range, "not supported: member access here (of a struct or vector variable, a pointer to one or "
                         "an element of an array of them only)");
      return expr;
    } else if (token.kind == TokenKind::LeftParen) {
      error(token.range, "not supported: calling something other than a named function");
      return expr;
    } else {
      return expr;
    }
  }
}

// primary: literal | identifier | call | builtin-variable | '(' expression ')'
//        | simple-type '(' expression ')' | cast-keyword '<' type-name '>' '(' expression ')'
ExprPtr Parser::parse_primary() {
  const Token& token = peek();
  switch (token.kind) {
  case TokenKind::IntegerLiteral: case TokenKind::FloatLiteral: case TokenKind::CharLiteral:
  case TokenKind::StringLiteral: case TokenKind::KwTrue: case TokenKind::KwFalse:
    return parse_literal();
  case TokenKind::Identifier:
    if (cooperative_groups_name_at(0)) return parse_cooperative_groups_expression();
    // In an expression `half` is the type only in a functional cast (names_half_type).
    if (token.text == "half" && peek(1).kind != TokenKind::LeftParen) return parse_identifier_expression();
    // `S::f()`, a struct's static member function, is no functional cast.
    if (!is_type_start() || peek(1).kind == TokenKind::ColonColon) return parse_identifier_expression();
    [[fallthrough]];
  case TokenKind::KwInt: case TokenKind::KwUnsigned: case TokenKind::KwSigned:
  case TokenKind::KwFloat: case TokenKind::KwDouble: case TokenKind::KwBool:
  case TokenKind::KwChar: case TokenKind::KwShort: case TokenKind::KwLong: {
    // functional-cast: simple-type '(' expression ')'
    const SourceRange start = token.range;
    std::optional<Type> type = parse_type_name();
    if (!at(TokenKind::LeftParen)) {
      error(peek().range, "expected '(' after the type name in a functional cast");
      return placeholder(start);
    }
    advance();
    ExprPtr operand = parse_expression();
    expect(TokenKind::RightParen, "')' after the cast operand");
    return std::make_unique<Cast>(SourceRange::join(start, previous().range),
                                  type.value_or(Type::of(ScalarType::Int)), std::move(operand), false);
  }
  case TokenKind::LeftParen: {
    advance();
    ExprPtr inner = parse_expression();
    expect(TokenKind::RightParen, "')'");
    return inner;
  }
  case TokenKind::KwStaticCast: case TokenKind::KwReinterpretCast:
    return parse_cast_keyword();
  case TokenKind::KwConstCast: case TokenKind::KwDynamicCast:
    error(token.range, "not supported: '" + std::string(token.text) + "'");
    return placeholder(advance().range);
  case TokenKind::LeftBracket:
    error(token.range, "not supported: lambdas");
    return placeholder(token.range);
  case TokenKind::KwNew: case TokenKind::KwDelete:
    error(token.range, "not supported: '" + std::string(token.text) + "' (dynamic allocation)");
    return placeholder(advance().range);
  case TokenKind::KwThis:
    return parse_this_member(advance());
  default: {
    std::string found = token.kind == TokenKind::EndOfFile ? "end of file" : "'" + std::string(token.text) + "'";
    error(token.range, "expected an expression, found " + found);
    return placeholder(token.range);
  }
  }
}

// cast-keyword-expression: ( 'static_cast' | 'reinterpret_cast' ) '<' type-name '>' '(' expression ')'
ExprPtr Parser::parse_cast_keyword() {
  const SourceRange start = advance().range;
  expect(TokenKind::Less, "'<' after the cast keyword");
  std::optional<Type> type = parse_type_name();
  const std::optional<VectorType> vector = m_last_vector_type;
  expect(TokenKind::Greater, "'>' after the cast type");
  expect(TokenKind::LeftParen, "'('");
  ExprPtr operand = parse_expression();
  expect(TokenKind::RightParen, "')'");
  return vector_cast(std::make_unique<Cast>(SourceRange::join(start, previous().range),
                                            type.value_or(Type::of(ScalarType::Int)), std::move(operand), false),
                     vector);
}

ExprPtr Parser::parse_literal() {
  const Token& token = advance();
  switch (token.kind) {
  case TokenKind::KwTrue: case TokenKind::KwFalse:
    return std::make_unique<Literal>(ExprKind::BoolLiteral, token.range,
                                     token.kind == TokenKind::KwTrue ? 1 : 0, Type::of(ScalarType::Bool));
  case TokenKind::StringLiteral: {
    // string-literal: one or more adjacent string tokens
    std::string value, problem;
    SourceRange range = token.range;
    value = decode_string_literal(token.text, problem);
    while (at(TokenKind::StringLiteral)) {
      const Token& next = advance();
      value += decode_string_literal(next.text, problem);
      range = SourceRange::join(range, next.range);
    }
    if (!problem.empty() && problem != "unterminated string literal") error(range, problem);
    return std::make_unique<StringLiteral>(range, std::move(value));
  }
  default: break;
  }
  LiteralValue value = token.kind == TokenKind::IntegerLiteral ? decode_integer_literal(token.text)
                       : token.kind == TokenKind::FloatLiteral ? decode_float_literal(token.text)
                                                               : decode_char_literal(token.text);
  if (!value.error.empty()) {
    const bool unterminated = token.kind == TokenKind::CharLiteral &&
                              (token.text.size() < 2 || token.text.back() != '\'');
    if (!unterminated) error(token.range, value.error); // the lexer reported unterminated ones
    return placeholder(token.range);
  }
  const ExprKind kind = token.kind == TokenKind::FloatLiteral ? ExprKind::FloatLiteral : ExprKind::IntegerLiteral;
  return std::make_unique<Literal>(kind, token.range, value.bits, value.type);
}

// identifier-expression: builtin-variable | identifier [ template-args ] '(' arguments ')' | identifier
// builtin-variable: ( threadIdx | blockIdx | blockDim | gridDim ) '.' ( x | y | z ) | warpSize
ExprPtr Parser::parse_identifier_expression() {
  const Token& name = advance();
  const std::string text(name.text);
#define X(kind, spelling)                                                                          \
  if (text == spelling) {                                                                          \
    const BuiltinVariableKind variable = BuiltinVariableKind::kind;                                \
    if (variable == BuiltinVariableKind::WarpSize)                                                 \
      return std::make_unique<BuiltinVariable>(name.range, variable, 0);                           \
    if (!accept(TokenKind::Dot) || !at(TokenKind::Identifier) ||                                   \
        (peek().text != "x" && peek().text != "y" && peek().text != "z")) {                        \
      error(name.range, "'" + text + "' must be followed by .x, .y or .z");                        \
      return placeholder(name.range);                                                              \
    }                                                                                              \
    const Token& component = advance();                                                            \
    return std::make_unique<BuiltinVariable>(SourceRange::join(name.range, component.range),       \
                                             variable, uint8_t(component.text[0] - 'x'));          \
  }
  FENCELAB_BUILTIN_VARIABLES(X)
#undef X
  if (text == "std" && at(TokenKind::ColonColon))
    if (ExprPtr standard = parse_std_name(name)) return standard;
  if (at(TokenKind::ColonColon)) {
    // `S::f(args)`: a static member function.
    const std::optional<VectorType> owner = named_vector_type(text);
    if (owner && owner->is_struct() && peek(1).kind == TokenKind::Identifier && owner->method(peek(1).text) &&
        peek(2).kind == TokenKind::LeftParen) {
      advance();
      const Token& method = advance();
      return parse_method_call(*owner, method, {});
    }
    error(SourceRange::join(name.range, peek().range), "not supported: qualified names ('" + text + "::')");
    advance();
    return placeholder(name.range);
  }
  if (m_shared_memory_templates.count(text) && at(TokenKind::Less)) return parse_shared_memory_value(name);
  if (m_shared_memory_objects.count(text) && !m_vector_locals.count(text)) return parse_shared_memory_object_use(name);
  if (ExprPtr member = parse_object_member(name)) return member;
  if (ExprPtr vector_member = parse_vector_member(name)) return vector_member;
  auto templ = m_template_functions.find(text);
  const bool explicit_arguments = templ != m_template_functions.end() && at(TokenKind::Less);
  if (explicit_arguments) parse_explicit_template_arguments(templ->second);
  if (at(TokenKind::LeftParen)) {
    if (const auto returning = m_struct_returning.find(text); returning != m_struct_returning.end()) {
      error(name.range, fmt::format("not supported: a call of '{}', which returns {}, here (its value can initialize "
                                    "or be assigned to a {}, or be returned)",
                                    text, returning->second.name, returning->second.name));
      return placeholder(name.range);
    }
    // call: identifier '(' [ assignment-expression { ',' assignment-expression } ] ')'
    advance();
    std::vector<ExprPtr> args = parse_call_arguments(text);
    expect(TokenKind::RightParen, "')' after the arguments");
    auto call = std::make_unique<Call>(SourceRange::join(name.range, previous().range), text, name.range,
                                       std::move(args));
    call->explicit_template_arguments = explicit_arguments;
    return call;
  }
  if (is_reference_name(text)) return reference_use(name);
  return std::make_unique<NameRef>(name.range, text);
}

std::vector<ExprPtr> Parser::parse_call_arguments(const std::string& function, TokenKind close) {
  std::vector<ExprPtr> args;
  const auto vector_parameters = m_vector_parameters.find(function);
  const auto reference_parameters = m_reference_parameters.find(function);
  for (size_t written = 0; !at_end() && !at(close); ++written) {
    // A vector argument is passed as its fields, one per parameter (parse_vector_types.cpp).
    if (vector_parameters != m_vector_parameters.end() && written < vector_parameters->second.size() &&
        vector_parameters->second[written]) {
      for (ExprPtr& field : parse_vector_value(*vector_parameters->second[written])) args.push_back(std::move(field));
    } else if (reference_parameters != m_reference_parameters.end() && written < reference_parameters->second.size() &&
               reference_parameters->second[written]) {
      // A reference argument is passed by address (parse_references.cpp).
      args.push_back(bind_reference(parse_assignment_expression(),
                                    "parameter " + std::to_string(written + 1) + " of '" + function + "'"));
    } else {
      args.push_back(parse_assignment_expression());
    }
    if (!accept(TokenKind::Comma)) break;
  }
  return args;
}

} // namespace fencelab
