// The preprocessor: `#` lines and object-like macro expansion (front-end private).
#pragma once

#include "fencelab/frontend/lexer.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fencelab {

/**
 * Handles `#define NAME tokens` (object-like only), `#undef`, `#ifdef`/`#ifndef`/`#if 0|1|
 * defined(NAME)`/`#else`/`#endif`, and ignores `#include`/`#pragma`. Expanded tokens keep
 * their definition's spelling and take the range of the macro's use.
 */
class Preprocessor {
public:
  explicit Preprocessor(DiagnosticSink& diagnostics) : m_diagnostics(diagnostics) {}

  /** Runs the `#` lines of a whole file and expands macros; the result ends with EndOfFile. */
  std::vector<Token> run(const std::vector<Token>& tokens);
  /** Expands macros in tokens without `#` lines (directive comments). */
  std::vector<Token> expand(const std::vector<Token>& tokens) const;

  bool is_defined(std::string_view name) const { return m_macros.count(std::string(name)) > 0; }

private:
  struct Conditional {
    SourceRange range;  ///< the opening `#if...` line
    bool parent_active; ///< the enclosing region is being kept
    bool taking;        ///< this branch is being kept
    bool seen_else = false;
  };

  /** Processes one `#` line, tokens [begin, end). */
  void directive(const std::vector<Token>& tokens, size_t begin, size_t end);
  void define(const std::vector<Token>& tokens, size_t begin, size_t end);
  /** Evaluates the condition of `#if` (only constants and `defined` are supported). */
  bool if_condition(const std::vector<Token>& tokens, size_t begin, size_t end);
  bool active() const { return m_conditionals.empty() || m_conditionals.back().taking; }
  void expand_token(const Token& token, SourceRange use, std::vector<Token>& out,
                    std::unordered_set<std::string>& expanding) const;

  DiagnosticSink& m_diagnostics;
  std::unordered_map<std::string, std::vector<Token>> m_macros;
  std::vector<Conditional> m_conditionals;
};

} // namespace fencelab
