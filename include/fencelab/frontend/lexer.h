// The lexer: source text to tokens with ranges (front-end private).
#pragma once

#include "fencelab/support/source.h"

#include <string_view>
#include <vector>

namespace fencelab {

enum class TokenKind : uint8_t {
#define TOKEN(name, description) name,
#define PUNCT(name, spelling) name,
#define KEYWORD(name, spelling) name,
#include "fencelab/frontend/token.def"
};

/** How a token kind is described in messages: `';'`, `identifier`. */
std::string token_kind_description(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  SourceRange range;
  /** The spelling; for tokens substituted from a macro, the definition's spelling while
   *  `range` points at the use. */
  std::string_view text;
  bool at_line_start = false; ///< first token on its line (preprocessor lines start with `#`)
  bool space_before = false;  ///< whitespace precedes it (tells `#define F(` from `F (`)
};

struct LexResult {
  std::vector<Token> tokens;             ///< ends with EndOfFile
  std::vector<SourceRange> directive_lines; ///< the text after each `//@`, to the end of line
};

/**
 * Lexes `range` of `file`. Comments are skipped; `//@` comments are collected separately. A
 * backslash before a newline joins lines. Errors (unterminated comments and literals, stray
 * characters) go to `diagnostics`; lexing always reaches the end.
 */
LexResult lex(const SourceFile& file, SourceRange range, DiagnosticSink& diagnostics);

} // namespace fencelab
