// The lexer (see frontend/lexer.h). Numbers are lexed as C preprocessing numbers and
// classified here; their values are computed by the parser (frontend/literals.cpp).
#include "fencelab/frontend/lexer.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace fencelab {

namespace {

struct Spelling {
  std::string_view text;
  TokenKind kind;
};

/** Punctuators, longest first, so that the first match is the longest one. */
const std::vector<Spelling>& punctuators() {
  static const std::vector<Spelling> table = [] {
    std::vector<Spelling> list = {
#define PUNCT(name, spelling) {spelling, TokenKind::name},
#include "fencelab/frontend/token.def"
    };
    std::stable_sort(list.begin(), list.end(),
                     [](const Spelling& a, const Spelling& b) { return a.text.size() > b.text.size(); });
    return list;
  }();
  return table;
}

const std::unordered_map<std::string_view, TokenKind>& keywords() {
  static const std::unordered_map<std::string_view, TokenKind> table = {
#define KEYWORD(name, spelling) {spelling, TokenKind::name},
#include "fencelab/frontend/token.def"
  };
  return table;
}

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

class Lexer {
public:
  Lexer(const SourceFile& file, SourceRange range, DiagnosticSink& diagnostics)
      : m_text(file.text()), m_pos(range.begin), m_end(std::min<uint32_t>(range.end, uint32_t(file.text().size()))),
        m_diagnostics(diagnostics) {}

  LexResult run() {
    LexResult result;
    bool at_line_start = true;
    while (true) {
      bool space = skip_whitespace_and_comments(at_line_start, result.directive_lines);
      if (m_pos >= m_end) break;
      Token token = next_token();
      token.at_line_start = at_line_start;
      token.space_before = space;
      at_line_start = false;
      result.tokens.push_back(token);
    }
    Token end;
    end.kind = TokenKind::EndOfFile;
    end.range = {m_end, m_end};
    end.at_line_start = true;
    result.tokens.push_back(end);
    return result;
  }

private:
  char peek(uint32_t ahead = 0) const { return m_pos + ahead < m_end ? m_text[m_pos + ahead] : '\0'; }

  /** Skips blanks, newlines, line continuations and comments; returns whether any. */
  bool skip_whitespace_and_comments(bool& at_line_start, std::vector<SourceRange>& directives) {
    const uint32_t start = m_pos;
    while (m_pos < m_end) {
      const char c = peek();
      if (c == '\n') {
        at_line_start = true;
        ++m_pos;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++m_pos;
      } else if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
        m_pos += peek(1) == '\n' ? 2 : 3;
      } else if (c == '/' && peek(1) == '/') {
        const uint32_t begin = m_pos;
        while (m_pos < m_end && m_text[m_pos] != '\n') ++m_pos;
        if (m_pos - begin >= 3 && m_text[begin + 2] == '@') {
          uint32_t end = m_pos;
          if (end > begin + 3 && m_text[end - 1] == '\r') --end;
          directives.push_back({begin + 3, end});
        }
      } else if (c == '/' && peek(1) == '*') {
        const uint32_t begin = m_pos;
        m_pos += 2;
        while (m_pos < m_end && !(peek() == '*' && peek(1) == '/')) ++m_pos;
        if (m_pos >= m_end) {
          m_diagnostics.error({begin, begin + 2}, "unterminated comment");
          m_pos = m_end;
        } else {
          m_pos += 2;
        }
      } else {
        break;
      }
    }
    return m_pos != start;
  }

  Token make(TokenKind kind, uint32_t begin) const {
    Token token;
    token.kind = kind;
    token.range = {begin, m_pos};
    token.text = std::string_view(m_text).substr(begin, m_pos - begin);
    return token;
  }

  Token next_token() {
    const uint32_t begin = m_pos;
    const char c = peek();
    if (is_identifier_start(c)) {
      while (is_identifier_char(peek())) ++m_pos;
      Token token = make(TokenKind::Identifier, begin);
      auto it = keywords().find(token.text);
      if (it != keywords().end()) token.kind = it->second;
      return token;
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(begin);
    if (c == '\'' || c == '"') return quoted(begin, c);
    for (const Spelling& punct : punctuators()) {
      if (std::string_view(m_text).substr(m_pos, std::min<size_t>(punct.text.size(), m_end - m_pos)) ==
          punct.text) {
        m_pos += uint32_t(punct.text.size());
        return make(punct.kind, begin);
      }
    }
    ++m_pos;
    // Skip the rest of a UTF-8 sequence so that one character gives one error.
    while (m_pos < m_end && (static_cast<unsigned char>(m_text[m_pos]) & 0xC0) == 0x80) ++m_pos;
    Token token = make(TokenKind::Invalid, begin);
    m_diagnostics.error(token.range, "unexpected character '" + std::string(token.text) + "'");
    return token;
  }

  /** pp-number: digit or .digit, then digits, letters, `_`, `.`, and e+ e- p+ p-. */
  Token number(uint32_t begin) {
    bool is_float = false;
    const bool hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
    while (m_pos < m_end) {
      const char c = peek();
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(1) == '+' || peek(1) == '-')) {
        if (!hex || c == 'p' || c == 'P') is_float = true;
        m_pos += 2;
      } else if (c == '.') {
        is_float = true;
        ++m_pos;
      } else if (is_identifier_char(c)) {
        if (!hex && (c == 'e' || c == 'E')) is_float = true;
        ++m_pos;
      } else {
        break;
      }
    }
    return make(is_float ? TokenKind::FloatLiteral : TokenKind::IntegerLiteral, begin);
  }

  Token quoted(uint32_t begin, char quote) {
    ++m_pos;
    while (m_pos < m_end && peek() != quote && peek() != '\n') {
      if (peek() == '\\' && m_pos + 1 < m_end) ++m_pos;
      ++m_pos;
    }
    const TokenKind kind = quote == '"' ? TokenKind::StringLiteral : TokenKind::CharLiteral;
    if (peek() != quote) {
      Token token = make(kind, begin);
      m_diagnostics.error({begin, begin + 1}, quote == '"' ? "unterminated string literal"
                                                           : "unterminated character literal");
      return token;
    }
    ++m_pos;
    return make(kind, begin);
  }

  const std::string& m_text;
  uint32_t m_pos;
  uint32_t m_end;
  DiagnosticSink& m_diagnostics;
};

} // namespace

std::string token_kind_description(TokenKind kind) {
  switch (kind) {
#define TOKEN(name, description)                                                                   \
  case TokenKind::name: return description;
#define PUNCT(name, spelling)                                                                      \
  case TokenKind::name: return std::string("'") + spelling + "'";
#define KEYWORD(name, spelling)                                                                    \
  case TokenKind::name: return std::string("'") + spelling + "'";
#include "fencelab/frontend/token.def"
  }
  return "token";
}

LexResult lex(const SourceFile& file, SourceRange range, DiagnosticSink& diagnostics) {
  return Lexer(file, range, diagnostics).run();
}

} // namespace fencelab
