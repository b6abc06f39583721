// The few names of the C++ standard library that device code uses (`std::min` in a kernel
// compiled with --expt-relaxed-constexpr, `std::is_same` in a template, `std::numeric_limits`
// for a reduction's identity). Each is lowered onto what the language already has: a call of
// the min/max builtins, a bool constant, a constant of the type. Any other `std::` name is
// named as not supported by the caller (qualified names).
#include "fencelab/frontend/parser.h"

#include <fmt/format.h>
#include <limits>
#include <type_traits>

namespace fencelab {

namespace {

/** `std::numeric_limits<T>::member()` (C++ [numeric.limits.members]), or nullopt. */
std::optional<Word> numeric_limit(const Type& type, std::string_view member) {
  if (type.is_pointer()) return std::nullopt;
  const auto of = [&](auto tag) -> std::optional<Word> {
    using T = typename decltype(tag)::type;
    using L = std::numeric_limits<T>;
    if (member != "max" && member != "min" && member != "lowest") return std::nullopt;
    const T value = member == "max" ? L::max() : member == "min" ? L::min() : L::lowest();
    return std::is_floating_point_v<T> ? word_from_double(double(value), type) : word_from_int(int64_t(value), type);
  };
  switch (type.scalar) {
  case ScalarType::Bool: return of(std::type_identity<bool>{});
  case ScalarType::Char: return of(std::type_identity<signed char>{});
  case ScalarType::UChar: return of(std::type_identity<unsigned char>{});
  case ScalarType::Short: return of(std::type_identity<short>{});
  case ScalarType::UShort: return of(std::type_identity<unsigned short>{});
  case ScalarType::Int: return of(std::type_identity<int>{});
  case ScalarType::UInt: return of(std::type_identity<unsigned>{});
  case ScalarType::Long: case ScalarType::LongLong: return of(std::type_identity<long long>{});
  case ScalarType::ULong: case ScalarType::ULongLong:
    // The largest does not fit an int64_t: its word is all ones, as the type's canonical form.
    if (member == "max") return Word(~uint64_t(0));
    if (member == "min" || member == "lowest") return Word(0);
    return std::nullopt;
  case ScalarType::Float: return of(std::type_identity<float>{});
  case ScalarType::Double: return of(std::type_identity<double>{});
  default: return std::nullopt;
  }
}

} // namespace

ExprPtr Parser::parse_std_name(const Token& std) {
  if (peek(1).kind != TokenKind::Identifier) return nullptr;
  const Token& name = peek(1);
  const std::string text(name.text);
  if ((text == "min" || text == "max") && peek(2).kind == TokenKind::LeftParen) {
    advance(); // '::'
    advance(); // the name: a call of the min/max builtin
    advance(); // '('
    std::vector<ExprPtr> args = parse_call_arguments(text);
    expect(TokenKind::RightParen, "')' after the arguments");
    return std::make_unique<Call>(SourceRange::join(std.range, previous().range), text, name.range, std::move(args));
  }
  if ((text == "is_same" || text == "is_same_v") && peek(2).kind == TokenKind::Less) {
    advance();
    advance();
    advance(); // '<'
    const std::optional<Type> first = parse_type_name();
    expect(TokenKind::Comma, "',' between the two types");
    const std::optional<Type> second = parse_type_name();
    expect(TokenKind::Greater, "'>' after the types");
    if (text == "is_same" && !(accept(TokenKind::ColonColon) && at(TokenKind::Identifier) && advance().text == "value"))
      error(previous().range, "expected '::value' after std::is_same<...>");
    const SourceRange range = SourceRange::join(std.range, previous().range);
    // Types are the same with their qualifiers (C++ [meta.rel]: is_same<int, const int> is false).
    const bool same = first && second && first->same_unqualified(*second) && first->is_const == second->is_const &&
                      first->is_volatile == second->is_volatile;
    return std::make_unique<Literal>(ExprKind::BoolLiteral, range, same ? 1 : 0, Type::of(ScalarType::Bool));
  }
  if (text == "numeric_limits" && peek(2).kind == TokenKind::Less) {
    advance();
    advance();
    advance(); // '<'
    const std::optional<Type> type = parse_type_name();
    expect(TokenKind::Greater, "'>' after the type");
    expect(TokenKind::ColonColon, "'::' and a member");
    const Token& member = at(TokenKind::Identifier) ? advance() : peek();
    expect(TokenKind::LeftParen, "'(' (the limits are functions)");
    expect(TokenKind::RightParen, "')'");
    const SourceRange range = SourceRange::join(std.range, previous().range);
    const std::optional<Word> value = type ? numeric_limit(*type, member.text) : std::nullopt;
    if (!value) {
      error(range, fmt::format("not supported: std::numeric_limits<{}>::{} (max, min and lowest of scalar types are)",
                               type ? type->to_string() : "?", member.text));
      return placeholder(range);
    }
    Type constant = *type;
    constant.is_const = constant.is_volatile = false;
    return std::make_unique<Literal>(constant.is_floating() ? ExprKind::FloatLiteral : ExprKind::IntegerLiteral, range,
                                     *value, constant);
  }
  return nullptr;
}

} // namespace fencelab
