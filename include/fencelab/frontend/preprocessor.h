// The preprocessor: `#` lines and object-like macro expansion (front-end private).
#pragma once

#include "fencelab/frontend/lexer.h"

#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/**
 * Handles `#define NAME tokens` (object-like only), `#undef`, `#ifdef`/`#ifndef`/`#if 0|1|
 * defined(NAME)`/`#else`/`#endif`, and ignores `#include`/`#pragma`. Expanded tokens keep
 * their definition's spelling and take the range of the macro's use.
 *
 * Expansion is iterative (an explicit stack of macro bodies being rescanned) and bounded: the
 * tokens taken from macro bodies, counted over the whole file (directive comments included),
 * may not exceed kMaxExpandedTokens. Past it, the use that crossed the limit gets one error,
 * and `exhausted()` tells the caller to stop rather than parse a truncated file.
 */
class Preprocessor {
public:
  /** Far above any real kernel (whose macros are constants and short expressions), far below
   *  what exhausts memory or time (about 0.1 s to reach): a chain of macros each using the
   *  previous one 16 times reaches it at the fifth level. */
  static constexpr size_t kMaxExpandedTokens = 1'000'000;

  explicit Preprocessor(DiagnosticSink& diagnostics) : m_diagnostics(diagnostics) {}

  /** Runs the `#` lines of a whole file and expands macros; the result ends with EndOfFile. */
  std::vector<Token> run(const std::vector<Token>& tokens);
  /** Expands macros in tokens without `#` lines (directive comments). */
  std::vector<Token> expand(const std::vector<Token>& tokens);

  bool is_defined(std::string_view name) const { return m_macros.find(name) != m_macros.end(); }
  /** The expansion limit was reached (and reported): the tokens returned are incomplete. */
  bool exhausted() const { return m_exhausted; }

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
  /** Appends `token`, fully macro-expanded, to `out`; false once the limit is reached. */
  bool expand_token(const Token& token, std::vector<Token>& out);
  /** Counts one token taken from a macro body; reports the limit (once) at `use`. */
  bool take_expanded_token(SourceRange use, std::string_view macro);

  /** Hashes std::string and std::string_view alike, so lookups by a token's text allocate nothing. */
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  using MacroTable = std::unordered_map<std::string, std::vector<Token>, NameHash, std::equal_to<>>;

  DiagnosticSink& m_diagnostics;
  MacroTable m_macros;
  std::vector<Conditional> m_conditionals;
  size_t m_expanded_tokens = 0; ///< tokens taken from macro bodies so far, the whole file
  bool m_exhausted = false;
};

} // namespace fencelab
