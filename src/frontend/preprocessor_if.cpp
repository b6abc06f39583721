// The preprocessor's `#if` and `#elif` conditions (C11 6.10.1): `defined NAME` and
// `defined(NAME)` become 1 or 0, the rest is macro-expanded, identifiers still left become 0,
// and the integer constant expression is evaluated in 64-bit signed arithmetic (intmax_t;
// unsigned operands are not distinguished, which only matters past 2^63).
#include "fencelab/frontend/parser.h"
#include "fencelab/frontend/preprocessor.h"

#include <optional>

namespace fencelab {

namespace {

/** Precedence climbing over the condition's tokens; the first error stops it. */
class ConditionEvaluator {
public:
  ConditionEvaluator(const std::vector<Token>& tokens, SourceRange line, DiagnosticSink& diagnostics)
      : m_tokens(tokens), m_line(line), m_diagnostics(diagnostics) {}

  std::optional<int64_t> evaluate() {
    const int64_t value = conditional(0);
    if (!m_failed && m_pos < m_tokens.size()) fail(m_tokens[m_pos].range, "unexpected '" + std::string(m_tokens[m_pos].text) + "' in #if");
    if (m_failed) return std::nullopt;
    return value;
  }

private:
  static constexpr int kMaxNesting = 256;

  void fail(SourceRange range, std::string message) {
    if (!m_failed) m_diagnostics.error(range, std::move(message));
    m_failed = true;
  }
  const Token* peek() const { return m_pos < m_tokens.size() ? &m_tokens[m_pos] : nullptr; }
  bool accept(TokenKind kind) {
    if (peek() && peek()->kind == kind) {
      ++m_pos;
      return true;
    }
    return false;
  }

  // conditional: binary(lowest) [ '?' conditional ':' conditional ]
  int64_t conditional(int depth) {
    if (depth > kMaxNesting) {
      fail(m_line, "#if expression nested too deeply");
      return 0;
    }
    const int64_t c = binary(0, depth);
    if (!accept(TokenKind::Question)) return c;
    const int64_t a = conditional(depth + 1);
    if (!accept(TokenKind::Colon)) fail(peek() ? peek()->range : m_line, "expected ':' in #if");
    const int64_t b = conditional(depth + 1);
    return c ? a : b;
  }

  static int precedence(TokenKind kind) {
    switch (kind) {
    case TokenKind::PipePipe: return 1;
    case TokenKind::AmpAmp: return 2;
    case TokenKind::Pipe: return 3;
    case TokenKind::Caret: return 4;
    case TokenKind::Amp: return 5;
    case TokenKind::EqualEqual: case TokenKind::BangEqual: return 6;
    case TokenKind::Less: case TokenKind::LessEqual: case TokenKind::Greater: case TokenKind::GreaterEqual: return 7;
    case TokenKind::LessLess: case TokenKind::GreaterGreater: return 8;
    case TokenKind::Plus: case TokenKind::Minus: return 9;
    case TokenKind::Star: case TokenKind::Slash: case TokenKind::Percent: return 10;
    default: return 0;
    }
  }

  int64_t binary(int min_precedence, int depth) {
    int64_t left = unary(depth);
    while (!m_failed && peek()) {
      const Token& op = *peek();
      const int p = precedence(op.kind);
      if (p == 0 || p <= min_precedence) break;
      ++m_pos;
      const int64_t right = binary(p, depth);
      left = apply(op, left, right);
    }
    return left;
  }

  int64_t apply(const Token& op, int64_t a, int64_t b) {
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    switch (op.kind) {
    case TokenKind::PipePipe: return a || b;
    case TokenKind::AmpAmp: return a && b;
    case TokenKind::Pipe: return a | b;
    case TokenKind::Caret: return a ^ b;
    case TokenKind::Amp: return a & b;
    case TokenKind::EqualEqual: return a == b;
    case TokenKind::BangEqual: return a != b;
    case TokenKind::Less: return a < b;
    case TokenKind::LessEqual: return a <= b;
    case TokenKind::Greater: return a > b;
    case TokenKind::GreaterEqual: return a >= b;
    case TokenKind::LessLess: return b < 0 || b > 63 ? 0 : static_cast<int64_t>(ua << b);
    case TokenKind::GreaterGreater: return b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b;
    case TokenKind::Plus: return static_cast<int64_t>(ua + ub);
    case TokenKind::Minus: return static_cast<int64_t>(ua - ub);
    case TokenKind::Star: return static_cast<int64_t>(ua * ub);
    case TokenKind::Slash:
    case TokenKind::Percent:
      if (b == 0) {
        fail(op.range, "division by zero in #if");
        return 0;
      }
      if (a == INT64_MIN && b == -1) return op.kind == TokenKind::Slash ? a : 0;
      return op.kind == TokenKind::Slash ? a / b : a % b;
    default: return 0;
    }
  }

  int64_t unary(int depth) {
    if (depth > kMaxNesting) {
      fail(m_line, "#if expression nested too deeply");
      return 0;
    }
    const Token* t = peek();
    if (!t) {
      fail(m_line, "#if expression ends early");
      return 0;
    }
    ++m_pos;
    switch (t->kind) {
    case TokenKind::Plus: return unary(depth + 1);
    case TokenKind::Minus: return static_cast<int64_t>(0 - static_cast<uint64_t>(unary(depth + 1)));
    case TokenKind::Bang: return !unary(depth + 1);
    case TokenKind::Tilde: return ~unary(depth + 1);
    case TokenKind::LeftParen: {
      const int64_t value = conditional(depth + 1);
      if (!accept(TokenKind::RightParen)) fail(peek() ? peek()->range : m_line, "expected ')' in #if");
      return value;
    }
    case TokenKind::IntegerLiteral: {
      const LiteralValue literal = decode_integer_literal(t->text);
      if (!literal.error.empty()) fail(t->range, literal.error);
      return static_cast<int64_t>(literal.bits);
    }
    case TokenKind::CharLiteral: {
      const LiteralValue literal = decode_char_literal(t->text);
      if (!literal.error.empty()) fail(t->range, literal.error);
      return static_cast<int64_t>(literal.bits);
    }
    case TokenKind::KwTrue: return 1;
    case TokenKind::KwFalse: return 0;
    default:
      // An identifier (or keyword) that is no macro is 0 (C11 6.10.1p4).
      if (t->kind == TokenKind::Identifier || is_keyword(t->kind)) return 0;
      fail(t->range, "unexpected '" + std::string(t->text) + "' in #if");
      return 0;
    }
  }

  static bool is_keyword(TokenKind kind) {
    switch (kind) {
#define TOKEN(name, spelling)
#define PUNCT(name, spelling)
#define KEYWORD(name, spelling) case TokenKind::name:
#include "fencelab/frontend/token.def"
      return true;
    default: return false;
    }
  }

  const std::vector<Token>& m_tokens;
  SourceRange m_line;
  DiagnosticSink& m_diagnostics;
  size_t m_pos = 0;
  bool m_failed = false;
};

} // namespace

bool Preprocessor::if_condition(const std::vector<Token>& tokens, size_t begin, size_t end) {
  const SourceRange line = begin < end ? SourceRange::join(tokens[begin].range, tokens[end - 1].range)
                                       : tokens[begin - 1].range;
  if (begin >= end) {
    m_diagnostics.error(line, "#if needs an expression");
    return false;
  }
  // `defined` first, on the tokens as written; then macros.
  std::vector<Pending> input;
  for (size_t i = begin; i < end; ++i) {
    if (tokens[i].kind == TokenKind::Identifier && tokens[i].text == "defined") {
      size_t k = i + 1;
      const bool paren = k < end && tokens[k].kind == TokenKind::LeftParen;
      if (paren) ++k;
      if (k >= end || tokens[k].kind != TokenKind::Identifier || (paren && (k + 1 >= end || tokens[k + 1].kind != TokenKind::RightParen))) {
        m_diagnostics.error(tokens[i].range, "'defined' needs a macro name, as defined(NAME) or defined NAME");
        return false;
      }
      Token value = tokens[i];
      value.kind = TokenKind::IntegerLiteral;
      value.text = is_defined(tokens[k].text) ? "1" : "0";
      input.push_back({value});
      i = paren ? k + 1 : k;
      continue;
    }
    input.push_back({tokens[i]});
  }
  std::vector<Token> expanded;
  if (!expand_into(input, expanded, 0)) return false;
  const std::optional<int64_t> value = ConditionEvaluator(expanded, line, m_diagnostics).evaluate();
  return value && *value != 0;
}

} // namespace fencelab
