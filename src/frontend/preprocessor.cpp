// The preprocessor (see frontend/preprocessor.h).
#include "fencelab/frontend/preprocessor.h"

#include <string>
#include <unordered_set>

namespace fencelab {

std::vector<Token> Preprocessor::run(const std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  size_t i = 0;
  while (i < tokens.size() && tokens[i].kind != TokenKind::EndOfFile) {
    if (tokens[i].kind == TokenKind::Hash && tokens[i].at_line_start) {
      size_t end = i + 1;
      while (end < tokens.size() && !tokens[end].at_line_start) ++end;
      directive(tokens, i, end);
      i = end;
      continue;
    }
    if (active() && !expand_token(tokens[i], out)) break;
    ++i;
  }
  if (!m_exhausted) {
    for (const Conditional& open : m_conditionals)
      m_diagnostics.error(open.range, "unterminated conditional directive (missing #endif)");
  }
  m_conditionals.clear();
  out.push_back(tokens.empty() ? Token{} : tokens.back());
  return out;
}

std::vector<Token> Preprocessor::expand(const std::vector<Token>& tokens) {
  std::vector<Token> out;
  for (const Token& token : tokens)
    if (!expand_token(token, out)) break;
  return out;
}

// An identifier naming a macro not already being expanded is replaced by the macro's body,
// which is rescanned for more macro names (C11 6.10.3.4: a macro's own name is not replaced
// again while its body is rescanned). Object-like macros only, so rescanning never reaches
// past the body into the tokens that follow the use. Each expanded token takes the range of
// the outermost use. The bodies being rescanned form an explicit stack, not a recursion: its
// depth is at most the number of macros, each name being on it at most once.
bool Preprocessor::expand_token(const Token& token, std::vector<Token>& out) {
  struct Frame {
    std::string_view name;     ///< the macro (a key of m_macros, stable while expanding)
    const std::vector<Token>* body;
    size_t next = 0;           ///< the next body token to rescan
  };
  const SourceRange use = token.range;
  std::vector<Frame> stack;
  std::unordered_set<std::string_view> expanding;
  const Token* current = &token;
  while (true) {
    if (current) {
      auto it = current->kind == TokenKind::Identifier ? m_macros.find(current->text) : m_macros.end();
      if (it != m_macros.end() && !expanding.count(it->first)) {
        expanding.insert(it->first);
        stack.push_back({it->first, &it->second});
      } else {
        Token copy = *current;
        copy.range = use;
        copy.at_line_start = false;
        out.push_back(copy);
      }
    }
    while (!stack.empty() && stack.back().next == stack.back().body->size()) {
      expanding.erase(stack.back().name);
      stack.pop_back();
    }
    if (stack.empty()) return true;
    if (!take_expanded_token(use, stack.front().name)) return false;
    Frame& top = stack.back();
    current = &(*top.body)[top.next++];
  }
}

bool Preprocessor::take_expanded_token(SourceRange use, std::string_view macro) {
  if (m_exhausted) return false;
  if (++m_expanded_tokens <= kMaxExpandedTokens) return true;
  m_exhausted = true;
  m_diagnostics.error(use, "macro expansion produces more than " + std::to_string(kMaxExpandedTokens) +
                               " tokens (limit of the preprocessor); stopped expanding '" +
                               std::string(macro) + "' here");
  return false;
}

// preprocessing-line: '#' name tokens... newline
void Preprocessor::directive(const std::vector<Token>& tokens, size_t begin, size_t end) {
  const SourceRange line_range = SourceRange::join(tokens[begin].range, tokens[end - 1].range);
  if (begin + 1 >= end) return; // the null directive
  const Token& name = tokens[begin + 1];
  const std::string_view word = name.text;
  const bool is_name = name.kind == TokenKind::Identifier || name.kind == TokenKind::KwIf ||
                       name.kind == TokenKind::KwElse;
  const SourceRange name_range = SourceRange::join(tokens[begin].range, name.range);

  if (is_name && (word == "ifdef" || word == "ifndef" || word == "if")) {
    bool condition = false;
    if (word == "if") {
      condition = active() && if_condition(tokens, begin + 2, end);
    } else if (begin + 2 >= end || tokens[begin + 2].kind != TokenKind::Identifier) {
      if (active()) m_diagnostics.error(name_range, "#" + std::string(word) + " needs a macro name");
    } else {
      condition = is_defined(tokens[begin + 2].text) == (word == "ifdef");
    }
    const bool parent = active();
    m_conditionals.push_back({line_range, parent, parent && condition});
    return;
  }
  if (is_name && (word == "else" || word == "endif" || word == "elif")) {
    if (m_conditionals.empty()) {
      m_diagnostics.error(name_range, "#" + std::string(word) + " without #if");
      return;
    }
    Conditional& open = m_conditionals.back();
    if (word == "endif") {
      m_conditionals.pop_back();
    } else if (word == "elif") {
      if (open.parent_active)
        m_diagnostics.error(name_range, "not supported: #elif (use nested #if/#else)");
      open.taking = false;
    } else if (open.seen_else) {
      m_diagnostics.error(name_range, "#else after #else");
    } else {
      open.seen_else = true;
      open.taking = open.parent_active && !open.taking;
    }
    return;
  }
  if (!active()) return;
  if (is_name && word == "define") {
    define(tokens, begin + 2, end);
  } else if (is_name && word == "undef") {
    if (begin + 2 < end) m_macros.erase(std::string(tokens[begin + 2].text));
  } else if (is_name && (word == "include" || word == "pragma" || word == "line")) {
    // Ignored: the kernel is one file; headers like <cstdio> add nothing the language needs.
  } else if (is_name && word == "error") {
    m_diagnostics.error(line_range, "#error directive");
  } else {
    m_diagnostics.error(name_range,
                        "not supported: preprocessor directive '#" + std::string(word) + "'");
  }
}

// define-line: '#' 'define' identifier replacement-tokens
//   (a '(' right after the name, without a space, makes a function-like macro: not supported)
void Preprocessor::define(const std::vector<Token>& tokens, size_t begin, size_t end) {
  if (begin >= end || tokens[begin].kind != TokenKind::Identifier) {
    m_diagnostics.error(begin < end ? tokens[begin].range : tokens[begin - 1].range,
                        "#define needs a macro name");
    return;
  }
  const Token& name = tokens[begin];
  if (begin + 1 < end && tokens[begin + 1].kind == TokenKind::LeftParen &&
      !tokens[begin + 1].space_before) {
    m_diagnostics.error(SourceRange::join(name.range, tokens[begin + 1].range),
                        "not supported: function-like macro '" + std::string(name.text) + "'");
    return;
  }
  m_macros[std::string(name.text)] =
      std::vector<Token>(tokens.begin() + std::ptrdiff_t(begin + 1), tokens.begin() + std::ptrdiff_t(end));
}

// if-condition: integer-literal | ['!'] 'defined' ( '(' identifier ')' | identifier )
bool Preprocessor::if_condition(const std::vector<Token>& tokens, size_t begin, size_t end) {
  size_t i = begin;
  bool negate = false;
  if (i < end && tokens[i].kind == TokenKind::Bang) {
    negate = true;
    ++i;
  }
  bool value = false;
  bool ok = false;
  if (i < end && tokens[i].kind == TokenKind::IntegerLiteral && i + 1 == end) {
    value = tokens[i].text.find_first_not_of("0") != std::string_view::npos;
    ok = true;
  } else if (i < end && tokens[i].text == "defined") {
    ++i;
    const bool paren = i < end && tokens[i].kind == TokenKind::LeftParen;
    if (paren) ++i;
    if (i < end && tokens[i].kind == TokenKind::Identifier) {
      value = is_defined(tokens[i].text);
      ++i;
      ok = (!paren || (i < end && tokens[i++].kind == TokenKind::RightParen)) && i == end;
    }
  }
  if (!ok) {
    const SourceRange range = begin < end ? SourceRange::join(tokens[begin].range, tokens[end - 1].range)
                                          : tokens[begin - 1].range;
    m_diagnostics.error(range, "not supported: #if expression (only 0, 1 and defined(NAME))");
    return false;
  }
  return value != negate;
}

} // namespace fencelab
