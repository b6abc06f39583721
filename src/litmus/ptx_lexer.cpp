// Tokens of herd7's PTX litmus format: words, numbers, strings and punctuation, each with its
// line and column (herdtools7's litmus lexer is the model: (* *) comments, "..." strings).
#include "ptx_lexer.h"

#include <cctype>
#include <fmt/format.h>

namespace fencelab::litmus {

namespace {

bool is_word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_word_part(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

} // namespace

std::vector<PtxToken> lex_ptx_litmus(std::string_view text, std::vector<PtxDiagnostic>& diagnostics) {
  std::vector<PtxToken> tokens;
  size_t i = 0;
  SourcePosition position;
  SourcePosition after_last;  ///< just past the last token: where "the end of the file" is reported
  auto advance = [&](size_t count) {
    for (size_t k = 0; k < count && i < text.size(); ++k, ++i) {
      if (text[i] == '\n') {
        ++position.line;
        position.column = 1;
      } else {
        ++position.column;
      }
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
      continue;
    }
    PtxToken token;
    token.position = position;
    if (c == '(' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t close = text.find("*)", i + 2);
      if (close == std::string_view::npos) {
        diagnostics.push_back({position, "unterminated comment '(*'"});
        advance(text.size() - i);
        break;
      }
      advance(close + 2 - i);
      continue;
    }
    if (c == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) {
        diagnostics.push_back({position, "unterminated string"});
        advance(text.size() - i);
        break;
      }
      token.kind = PtxTokenKind::string;
      token.text = std::string(text.substr(i + 1, close - i - 1));
      advance(close + 1 - i);
      after_last = position;
      tokens.push_back(std::move(token));
      continue;
    }
    size_t length = 0;
    if (is_word_start(c)) {
      token.kind = PtxTokenKind::word;
      while (i + length < text.size() && is_word_part(text[i + length])) ++length;
    } else if (is_digit(c)) {
      token.kind = PtxTokenKind::number;
      while (i + length < text.size() && is_digit(text[i + length])) ++length;
    } else {
      std::string_view two = text.substr(i, 2);
      token.kind = PtxTokenKind::punctuation;
      if (two == "==" || two == "!=" || two == "/\\" || two == "\\/") {
        length = 2;
      } else if (std::string_view("{};|,:@=()~[]&-").find(c) != std::string_view::npos) {
        length = 1;
      } else {
        diagnostics.push_back({position, fmt::format("unexpected character '{}'", c)});
        advance(1);
        continue;
      }
    }
    token.text = std::string(text.substr(i, length));
    advance(length);
    after_last = position;
    tokens.push_back(std::move(token));
  }
  PtxToken end;
  end.kind = PtxTokenKind::end;
  end.position = after_last;
  tokens.push_back(end);
  return tokens;
}

} // namespace fencelab::litmus
