// The preprocessor (see frontend/preprocessor.h).
#include "fencelab/frontend/preprocessor.h"

#include "fencelab/frontend/include_files.h"

#include <algorithm>
#include <optional>
#include <string>

namespace fencelab {

std::vector<Token> Preprocessor::run(const std::vector<Token>& tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  m_out = &out;
  process(tokens, out);
  m_out = nullptr;
  if (!m_exhausted) {
    for (const Conditional& open : m_conditionals)
      m_diagnostics.error(open.range, "unterminated conditional directive (missing #endif)");
  }
  m_conditionals.clear();
  out.push_back(tokens.empty() ? Token{} : tokens.back());
  return out;
}

void Preprocessor::process(const std::vector<Token>& tokens, std::vector<Token>& out) {
  size_t i = 0;
  while (i < tokens.size() && tokens[i].kind != TokenKind::EndOfFile) {
    if (tokens[i].kind == TokenKind::Hash && tokens[i].at_line_start) {
      size_t end = i + 1;
      while (end < tokens.size() && !tokens[end].at_line_start) ++end;
      directive(tokens, i, end);
      i = end;
      continue;
    }
    if (!active()) {
      ++i;
      continue;
    }
    const auto macro = tokens[i].kind == TokenKind::Identifier ? m_macros.find(tokens[i].text) : m_macros.end();
    if (macro == m_macros.end()) {
      out.push_back(tokens[i++]);
      continue;
    }
    // A call of a function-like macro takes its arguments from the lines that follow (not
    // across a `#` line); a name without them stays a name (C11 6.10.3p10).
    size_t end = i + 1;
    if (macro->second.function_like && end < tokens.size() && tokens[end].kind == TokenKind::LeftParen) {
      int depth = 0;
      for (; end < tokens.size() && tokens[end].kind != TokenKind::EndOfFile; ++end) {
        if (tokens[end].kind == TokenKind::Hash && tokens[end].at_line_start) break;
        if (tokens[end].kind == TokenKind::LeftParen) ++depth;
        else if (tokens[end].kind == TokenKind::RightParen && --depth == 0) break;
      }
      end = end < tokens.size() && tokens[end].kind == TokenKind::RightParen ? end + 1 : end;
    }
    std::vector<Pending> input;
    for (size_t k = i; k < end; ++k) input.push_back({tokens[k]});
    if (!expand_into(input, out, 0)) break;
    i = end;
  }
}

std::optional<Preprocessor::HeaderName> Preprocessor::header_name(const std::vector<Token>& tokens, size_t begin,
                                                                    size_t end) const {
  if (begin >= end) return std::nullopt;
  const Token& first = tokens[begin];
  if (first.kind == TokenKind::StringLiteral)
    return HeaderName{first.text.substr(1, first.text.size() >= 2 ? first.text.size() - 2 : 0), first.range, true};
  if (first.kind != TokenKind::Less) return std::nullopt;
  // `<name>` is the text as written up to the first `>` (C11 6.10.2p2: a header name, not
  // tokens), as read_included_files takes it from the line.
  for (size_t k = begin + 1; k < end; ++k) {
    if (tokens[k].text.empty() || tokens[k].text.front() != '>') continue;
    if (tokens[k].range.begin <= first.range.end) return std::nullopt; // `<>`
    return HeaderName{m_source->slice({first.range.end, tokens[k].range.begin}), {first.range.begin, tokens[k].range.end},
                      false};
  }
  return std::nullopt;
}

void Preprocessor::include(const std::vector<Token>& tokens, size_t begin, size_t end) {
  // Nothing is read without the file the line came from, nor a computed `#include MACRO`.
  if (m_source == nullptr || m_out == nullptr || m_exhausted) return;
  const std::optional<HeaderName> header = header_name(tokens, begin + 2, end);
  if (!header) return;
  const std::string_view name = header->name;
  const uint32_t from = m_source->part_of(header->range.begin);
  const std::optional<uint32_t> part = included_part(*m_source, from, name, header->quoted, m_include_directories);
  if (!part) {
    report_unread(*header, from);
    return;
  }
  if (std::find(m_once.begin(), m_once.end(), *part) != m_once.end()) return;
  if (m_include_depth >= kMaxIncludeDepth) {
    m_diagnostics.error(header->range, "#include nested more than " + std::to_string(kMaxIncludeDepth) +
                                          " levels deep (a header that includes itself?)");
    m_exhausted = true; // the tokens are incomplete: parsing them would only add errors
    return;
  }
  const LexResult lexed = lex(*m_source, m_source->parts()[*part].range, m_diagnostics);
  // A header's conditionals are its own: each #if it opens ends in it (C11 6.10.1).
  const size_t open_before = m_conditionals.size();
  ++m_include_depth;
  process(lexed.tokens, *m_out);
  --m_include_depth;
  while (m_conditionals.size() > open_before) {
    if (!m_exhausted) m_diagnostics.error(m_conditionals.back().range, "unterminated conditional directive (missing #endif)");
    m_conditionals.pop_back();
  }
}

void Preprocessor::report_unread(const HeaderName& header, uint32_t from) {
  const std::string name(header.name);
  if (!header.quoted) {
    // `<name>` found in an -I directory was left out by read_included_files' limits. In none, it
    // is a CUDA or C header fencelab builds in (no warning), or one it does not have: that is
    // said as for a quoted name (issue 71: a missing `<x.h>` was silently ignored).
    const std::optional<std::string> path =
        resolve_include(m_source->path_of(from), name, false, m_include_directories);
    if (path) {
      m_diagnostics.warning(header.range, "cannot read the included file '" + name + "' (found in the -I directories as " +
                                              *path + "): what it declares is missing");
      return;
    }
    if (is_cuda_or_system_header(name)) return;
    // A name without a suffix is a C++ standard library header (ISO C++ [headers]: <vector>,
    // <algorithm>), which a file's host code uses and the kernel does not: not warned about.
    if (name.find('.') == std::string::npos && name.find('/') == std::string::npos) return;
    m_diagnostics.warning(header.range,
                          "cannot find the included file '" + name + "' (not a CUDA or C header fencelab has built in, " +
                              (m_include_directories.empty() ? std::string("and no -I DIR was given to look in")
                                                             : std::string("and in none of the -I directories")) +
                              "): what it declares is missing");
    return;
  }
  if (is_cuda_or_system_header(name)) return;
  m_diagnostics.warning(header.range, "cannot read the included file '" + name + "' (looked for it next to " +
                                          m_source->path_of(from) +
                                          (m_include_directories.empty() ? std::string(" only; give its directory with -I DIR")
                                                                         : std::string(" and in the -I directories")) +
                                          "): what it declares is missing");
}

void Preprocessor::define_from_command_line(const std::string& definition) {
  const size_t equal = definition.find('=');
  std::string text = "#define " + (equal == std::string::npos ? definition + " 1" : definition.substr(0, equal) + " " +
                                                                                         definition.substr(equal + 1));
  const SourceFile& file = m_command_line.emplace_back("<command line>", text + "\n");
  const std::vector<Token> tokens = lex(file, {0, uint32_t(file.text().size())}, m_diagnostics).tokens;
  size_t end = 0;
  while (end < tokens.size() && tokens[end].kind != TokenKind::EndOfFile) ++end;
  if (end >= 2) directive(tokens, 0, end);
}

std::vector<Token> Preprocessor::expand(const std::vector<Token>& tokens) {
  std::vector<Pending> input;
  for (const Token& token : tokens) input.push_back({token});
  std::vector<Token> out;
  expand_into(input, out, 0);
  return out;
}

void Preprocessor::begin_expansion(MacroEntry& entry) {
  entry.second.expanding = true;
  m_expanding.push_back(&entry);
}

void Preprocessor::end_expansion(MacroEntry& entry) {
  entry.second.expanding = false;
  const auto it = std::find(m_expanding.rbegin(), m_expanding.rend(), &entry);
  if (it != m_expanding.rend()) m_expanding.erase(std::next(it).base());
}

void Preprocessor::paint_if_expanding(Pending& item) const {
  if (item.painted || item.closes || item.token.kind != TokenKind::Identifier) return;
  const auto it = m_macros.find(item.token.text);
  item.painted = it != m_macros.end() && it->second.expanding;
}

bool Preprocessor::call_follows(const std::vector<Pending>& work) {
  size_t next = work.size();
  while (next > 0 && work[next - 1].closes) --next;
  return next > 0 && work[next - 1].token.kind == TokenKind::LeftParen;
}

bool Preprocessor::expand_into(const std::vector<Pending>& input, std::vector<Token>& out, int nesting) {
  std::vector<Pending> expanded;
  const bool ok = rescan(input, expanded, nesting);
  for (const Pending& item : expanded) out.push_back(item.token);
  return ok;
}

// A macro name is replaced unless it was met while that macro's replacement was being
// rescanned (it is then painted, and never replaced again: C11 6.10.3.4p2): an object-like
// macro by its body; a function-like one, when its arguments follow, by its body with each
// parameter replaced by its argument, fully expanded (6.10.3.1), or spelled as a string after
// `#` (6.10.3.2). The replacement is rescanned in front of the tokens still to come, with an
// end marker after it; the macro can be replaced again once the marker is passed, also when a
// call takes its arguments from past it (the case 6.10.3.4p4 leaves unspecified; as GCC and
// Clang do). Body tokens take the range of the use; arguments keep their own. The painted
// mark and the markers keep each step O(1), so a chain of n macros expands in O(n).
bool Preprocessor::rescan(const std::vector<Pending>& input, std::vector<Pending>& out, int nesting) {
  std::vector<Pending> work(input.rbegin(), input.rend());
  // A limit can stop the rescan with replacements still open: they end with it.
  struct EndOpenExpansions {
    Preprocessor& preprocessor;
    std::vector<Pending>& work;
    ~EndOpenExpansions() {
      for (Pending& item : work)
        if (item.closes) preprocessor.end_expansion(*item.closes);
    }
  } end_open{*this, work};
  std::vector<std::vector<Pending>> arguments;
  while (!work.empty()) {
    Pending item = std::move(work.back());
    work.pop_back();
    if (item.closes) {
      end_expansion(*item.closes);
      continue;
    }
    paint_if_expanding(item);
    const Token use = item.token;
    const auto it = use.kind == TokenKind::Identifier && !item.painted ? m_macros.find(use.text) : m_macros.end();
    if (it == m_macros.end() || (it->second.function_like && !call_follows(work))) {
      item.token.at_line_start = false;
      out.push_back(std::move(item));
      continue;
    }
    Macro& macro = it->second;
    const std::string_view outermost = m_expanding.empty() ? std::string_view(it->first) : m_expanding.front()->first;
    std::vector<Pending> replacement;
    auto add = [&](Pending pending, SourceRange range) {
      if (!take_expanded_token(use.range, outermost)) return false;
      pending.token.range = range;
      pending.token.at_line_start = false;
      replacement.push_back(std::move(pending));
      return true;
    };
    if (macro.function_like) {
      while (work.back().closes) { // the call's `(` lies past the end of a replacement
        end_expansion(*work.back().closes);
        work.pop_back();
      }
      if (!take_arguments(use, macro, work, arguments)) return false;
    }
    for (size_t k = 0; k < macro.body.size(); ++k) {
      const Token& token = macro.body[k];
      if (token.kind == TokenKind::HashHash) {
        m_diagnostics.error(use.range, "not supported: '##' in macro '" + it->first + "'");
        m_exhausted = true;
        return false;
      }
      const auto param = !macro.function_like ? macro.params.end()
                         : std::find(macro.params.begin(), macro.params.end(),
                                     k + 1 < macro.body.size() && token.kind == TokenKind::Hash ? macro.body[k + 1].text
                                                                                                 : token.text);
      if (param == macro.params.end()) {
        if (!add({token}, use.range)) return false;
        continue;
      }
      const std::vector<Pending>& argument = arguments[size_t(param - macro.params.begin())];
      if (token.kind == TokenKind::Hash) {
        if (!add({stringized(argument, use.range)}, use.range)) return false;
        ++k;
        continue;
      }
      if (nesting + 1 > kMaxArgumentNesting) {
        m_diagnostics.error(use.range, "macro calls nested more than " + std::to_string(kMaxArgumentNesting) +
                                           " deep in arguments (limit of the preprocessor)");
        m_exhausted = true;
        return false;
      }
      std::vector<Pending> expanded;
      if (!rescan(argument, expanded, nesting + 1)) return false;
      for (Pending& t : expanded) {
        const SourceRange range = t.token.range;
        if (!add(std::move(t), range)) return false;
      }
    }
    begin_expansion(*it);
    work.push_back({Token{}, false, &*it});
    work.insert(work.end(), std::make_move_iterator(replacement.rbegin()), std::make_move_iterator(replacement.rend()));
  }
  return true;
}

bool Preprocessor::take_arguments(const Token& use, const Macro& macro, std::vector<Pending>& work,
                                  std::vector<std::vector<Pending>>& arguments) {
  arguments.assign(1, {});
  work.pop_back(); // (
  int depth = 0;
  while (true) {
    if (work.empty()) {
      m_diagnostics.error(use.range, "unterminated argument list of macro '" + std::string(use.text) + "'");
      m_exhausted = true;
      return false;
    }
    Pending item = std::move(work.back());
    work.pop_back();
    if (item.closes) { // the arguments run past the end of a replacement
      end_expansion(*item.closes);
      continue;
    }
    paint_if_expanding(item);
    const TokenKind kind = item.token.kind;
    if (kind == TokenKind::RightParen && depth == 0) break;
    if (kind == TokenKind::LeftParen) ++depth;
    else if (kind == TokenKind::RightParen) --depth;
    // `...` takes the commas of the arguments past the named parameters
    if (kind == TokenKind::Comma && depth == 0 && !(macro.variadic && arguments.size() == macro.params.size())) {
      arguments.emplace_back();
      continue;
    }
    arguments.back().push_back(std::move(item));
  }
  if (macro.params.empty() && arguments.size() == 1 && arguments[0].empty()) arguments.clear();
  if (macro.variadic && arguments.size() + 1 == macro.params.size()) arguments.emplace_back(); // F(a) of F(a, ...)
  if (arguments.size() != macro.params.size()) {
    m_diagnostics.error(use.range, "macro '" + std::string(use.text) + "' takes " + std::to_string(macro.params.size()) +
                                       " argument" + (macro.params.size() == 1 ? "" : "s") + ", given " +
                                       std::to_string(arguments.size()));
    m_exhausted = true;
    return false;
  }
  return true;
}

Token Preprocessor::stringized(const std::vector<Pending>& argument, SourceRange range) {
  std::string text = "\"";
  for (size_t k = 0; k < argument.size(); ++k) {
    if (k > 0 && argument[k].token.space_before) text += ' ';
    for (const char c : argument[k].token.text) {
      if (c == '"' || c == '\\') text += '\\';
      text += c;
    }
  }
  text += '"';
  Token token;
  token.kind = TokenKind::StringLiteral;
  token.range = range;
  token.text = m_spellings.emplace_back(std::move(text));
  return token;
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
    m_conditionals.push_back({line_range, parent, parent && condition, false, parent && condition});
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
    } else if (open.seen_else) {
      m_diagnostics.error(name_range, "#" + std::string(word) + " after #else");
    } else if (word == "elif") {
      // Taken when no earlier branch was and its condition holds (evaluated only then).
      open.taking = open.parent_active && !open.taken && if_condition(tokens, begin + 2, end);
      open.taken = open.taken || open.taking;
    } else {
      open.seen_else = true;
      open.taking = open.parent_active && !open.taken;
      open.taken = true;
    }
    return;
  }
  if (!active()) return;
  if (is_name && word == "define") {
    define(tokens, begin + 2, end);
  } else if (is_name && word == "undef") {
    if (begin + 2 < end) m_macros.erase(std::string(tokens[begin + 2].text));
  } else if (is_name && word == "include") {
    include(tokens, begin, end);
  } else if (is_name && word == "pragma" && begin + 2 < end && tokens[begin + 2].text == "once") {
    if (m_source != nullptr) m_once.push_back(m_source->part_of(tokens[begin].range.begin));
  } else if (is_name && (word == "pragma" || word == "line")) {
    // Ignored: they change nothing the language here needs.
  } else if (is_name && word == "error") {
    // Its message is the rest of the line, as spelled (C11 6.10.5).
    std::string message;
    for (size_t k = begin + 2; k < end; ++k) {
      if (k > begin + 2 && tokens[k].space_before) message += ' ';
      message += tokens[k].text;
    }
    m_diagnostics.error(line_range, message.empty() ? "#error" : "#error " + message);
  } else {
    m_diagnostics.error(name_range,
                        "not supported: preprocessor directive '#" + std::string(word) + "'");
  }
}

// define-line: '#' 'define' identifier [ '(' [ identifier { ',' identifier } [ ',' '...' ] | '...' ] ')' ]
//              replacement-tokens
//   (the '(' of a function-like macro follows the name without a space, C11 6.10.3p3)
void Preprocessor::define(const std::vector<Token>& tokens, size_t begin, size_t end) {
  if (begin >= end || tokens[begin].kind != TokenKind::Identifier) {
    m_diagnostics.error(begin < end ? tokens[begin].range : tokens[begin - 1].range,
                        "#define needs a macro name");
    return;
  }
  const Token& name = tokens[begin];
  Macro macro;
  size_t body = begin + 1;
  if (body < end && tokens[body].kind == TokenKind::LeftParen && !tokens[body].space_before) {
    macro.function_like = true;
    ++body;
    bool ok = true;
    while (body < end && tokens[body].kind != TokenKind::RightParen) {
      if (tokens[body].kind == TokenKind::Ellipsis) {
        macro.variadic = true;
        macro.params.push_back("__VA_ARGS__");
      } else if (tokens[body].kind == TokenKind::Identifier && !macro.variadic) {
        macro.params.emplace_back(tokens[body].text);
      } else {
        ok = false;
        break;
      }
      if (++body < end && tokens[body].kind == TokenKind::Comma) ++body;
      else if (body < end && tokens[body].kind != TokenKind::RightParen) ok = false;
      if (!ok) break;
    }
    if (!ok || body >= end) {
      m_diagnostics.error(SourceRange::join(name.range, tokens[std::min(body, end - 1)].range),
                          "malformed parameter list of macro '" + std::string(name.text) + "'");
      return;
    }
    ++body; // )
  }
  macro.body.assign(tokens.begin() + std::ptrdiff_t(body), tokens.begin() + std::ptrdiff_t(end));
  m_macros[std::string(name.text)] = std::move(macro);
}

} // namespace fencelab
