// The parser: host code in a .cu file, recognised and skipped.
//
// A CUDA file mixes host code (main, cudaMalloc, launches, helpers, std:: types) with device
// code (CUDA Programming Guide 7.1, "Function Execution Space Specifiers"; 7.2, "Variable Memory
// Space Specifiers"). Only device code runs here. A file-scope declaration whose head (what
// comes before its body or its end) names no execution or memory space (__global__,
// __device__, __shared__, __constant__) is host code: a function (a '(' at the top level of the
// head), or a variable that is not a constant (a `const`/`constexpr` variable is usable from
// device code, as nvcc allows for constant-initialised scalars, not pointers). It is skipped
// by matching brackets, without being parsed, so host-only C++ in it is no error; a namespace
// or `using namespace` line that contains no device code likewise. One note lists what was
// skipped; a use of it from device code gets a message naming it as host code.
#include "fencelab/frontend/parser.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

namespace {

bool names_space(TokenKind kind) {
  return kind == TokenKind::KwGlobal || kind == TokenKind::KwDevice || kind == TokenKind::KwShared ||
         kind == TokenKind::KwConstant;
}

} // namespace

bool Parser::skip_host_declaration(TranslationUnit& unit) {
  const size_t start = m_pos;
  auto token = [this](size_t k) -> const Token& { return m_tokens[std::min(k, m_tokens.size() - 1)]; };
  auto kind = [&token](size_t k) { return token(k).kind; };
  // The end of the balanced bracket that opens at `k` (one past its closer), or of the file.
  auto past_balanced = [&](size_t k) {
    int depth = 0;
    for (; kind(k) != TokenKind::EndOfFile; ++k) {
      const TokenKind t = kind(k);
      if (t == TokenKind::LeftBrace || t == TokenKind::LeftParen || t == TokenKind::LeftBracket) ++depth;
      else if ((t == TokenKind::RightBrace || t == TokenKind::RightParen || t == TokenKind::RightBracket) && --depth <= 0)
        return k + 1;
    }
    return k;
  };
  auto any_space_in = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k)
      if (names_space(kind(k))) return true;
    return false;
  };
  auto skip_to = [&](size_t end, std::string name, bool function) {
    unit.host_code.push_back({std::move(name), SourceRange::join(token(start).range, token(end - 1).range), function});
    m_pos = end;
    return true;
  };

  size_t k = start;
  // `using namespace std;` and `namespace detail { ... }` holding host code only.
  if (kind(k) == TokenKind::KwUsing && kind(k + 1) == TokenKind::KwNamespace) {
    size_t end = k;
    while (kind(end) != TokenKind::EndOfFile && kind(end) != TokenKind::Semicolon) ++end;
    return skip_to(std::min(end + 1, m_tokens.size() - 1), "", false);
  }
  if (kind(k) == TokenKind::KwNamespace) {
    size_t open = k + 1;
    while (kind(open) != TokenKind::EndOfFile && kind(open) != TokenKind::LeftBrace && kind(open) != TokenKind::Semicolon) ++open;
    if (kind(open) != TokenKind::LeftBrace) return false;
    const size_t end = past_balanced(open);
    if (any_space_in(open, end)) return false; // device code in a namespace: not supported (parse_top_level)
    return skip_to(end, "", false);
  }
  // A template's parameter list is part of the head.
  if (kind(k) == TokenKind::KwTemplate && kind(k + 1) == TokenKind::Less) {
    int depth = 0;
    for (++k; kind(k) != TokenKind::EndOfFile; ++k) {
      if (kind(k) == TokenKind::Less) ++depth;
      else if (kind(k) == TokenKind::Greater && --depth == 0) break;
      else if (kind(k) == TokenKind::Semicolon || kind(k) == TokenKind::LeftBrace) return false;
    }
    ++k;
  }
  switch (kind(k)) {
  case TokenKind::KwStruct: case TokenKind::KwClass: case TokenKind::KwUnion: case TokenKind::KwEnum:
  case TokenKind::KwTypedef: case TokenKind::KwUsing: case TokenKind::KwNamespace: case TokenKind::Semicolon:
  case TokenKind::EndOfFile:
    return false; // not host code as such: parse_top_level says what it supports
  default: break;
  }
  // The head: to the body's '{' (after a parameter list) or the ';' that ends the declaration.
  bool function = false, constant = false, initializer = false, pointer = false, array = false;
  std::string name;
  for (; kind(k) != TokenKind::EndOfFile; ++k) {
    const TokenKind t = kind(k);
    if (names_space(t)) return false;
    if (t == TokenKind::KwConst || t == TokenKind::KwConstexpr) constant = true;
    if (t == TokenKind::Star && !initializer) pointer = true; // in the declarator, not `2 * 3`
    if (t == TokenKind::Equal) initializer = true;
    if (t == TokenKind::LeftParen) {
      // A parameter list follows the function's name; a '(' after '=' is in an initializer.
      if (!function && !initializer && k > start && kind(k - 1) == TokenKind::Identifier) {
        name = std::string(token(k - 1).text);
        function = true;
      }
      k = past_balanced(k) - 1;
    } else if (t == TokenKind::LeftBracket) {
      if (!initializer && !function) array = true; // in the declarator, not `{a[0]}`
      k = past_balanced(k) - 1;
    } else if (t == TokenKind::Identifier && !function && name.empty() &&
               (kind(k + 1) == TokenKind::Equal || kind(k + 1) == TokenKind::Semicolon ||
                kind(k + 1) == TokenKind::LeftBracket || kind(k + 1) == TokenKind::Comma)) {
      name = std::string(token(k).text); // a variable's (first) name
    } else if (t == TokenKind::LeftBrace) {
      if (function) return skip_to(past_balanced(k), name, true); // the body
      k = past_balanced(k) - 1; // a brace initializer
    } else if (t == TokenKind::Semicolon) {
      break;
    }
  }
  if (kind(k) != TokenKind::Semicolon) return false; // unterminated: parse_top_level reports it
  // A constant scalar (`const int N = 4;`) device code may use; a pointer, even to const or
  // const itself (`const char *name = "demo";`, as most SDK samples name themselves), is a host
  // variable, and so is a const array (`static const char name[] = "demo";`) (Programming Guide,
  // C++ Language Support, "const-qualified variables": only those of built-in integral or
  // floating-point type with constant initializers are usable in device code without a memory
  // space).
  if (!function && constant && !pointer && !array) return false;
  if (!function && name.empty()) return false;
  return skip_to(k + 1, name, function);
}

void Parser::note_host_code(const TranslationUnit& unit) {
  if (unit.host_code.empty()) return;
  // Each name once, in the order first met: a function declared in a header and defined in
  // the file is one name (FDTD3d listed `fdtdGPU()` twice).
  std::vector<std::string> names;
  for (const HostDeclaration& d : unit.host_code) {
    if (d.name.empty()) continue;
    std::string name = d.function ? d.name + "()" : d.name;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  const size_t shown = std::min<size_t>(names.size(), 6);
  std::string list = fmt::format("{}", fmt::join(names.begin(), names.begin() + shown, ", "));
  if (names.size() > shown) list += fmt::format(" and {} more", names.size() - shown);
  const size_t count = unit.host_code.size();
  m_diagnostics.note(unit.host_code.front().range,
                     fmt::format("host code skipped ({} declaration{}{}): only device code runs here", count,
                                 count == 1 ? "" : "s", list.empty() ? "" : ": " + list));
}

} // namespace fencelab
