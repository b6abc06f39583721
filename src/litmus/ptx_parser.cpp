// The reader of herd7's PTX litmus tests. Each parse function has its production above it;
// the grammar is the one Dat3M's LitmusPTX.g4 accepts (read to learn the format, not copied).
#include "fencelab/litmus/ptx_litmus.h"

#include "ptx_instruction.h"
#include "ptx_lexer.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab::litmus {

namespace {

/** Thrown inside the parser only, to leave at the first syntax error of a test. */
struct ParseStop {};

class Parser {
public:
  Parser(std::vector<PtxToken> tokens, std::vector<PtxDiagnostic>& diagnostics)
      : m_tokens(std::move(tokens)), m_diagnostics(diagnostics) {}

  // test := '{' init (';' init)* '}' ';'? placement rows condition
  PtxTest parse_test(std::string name) {
    PtxTest test;
    test.name = std::move(name);
    parse_init_block(test);
    parse_placements(test);
    parse_rows(test);
    parse_final(test);
    return test;
  }

private:
  std::vector<PtxToken> m_tokens;
  size_t m_next = 0;
  std::vector<PtxDiagnostic>& m_diagnostics;
  /** Initial registers as written, checked against the threads once they are known. */
  std::vector<std::pair<SourcePosition, int>> m_register_threads;

  const PtxToken& peek(size_t ahead = 0) const {
    size_t index = std::min(m_next + ahead, m_tokens.size() - 1);
    return m_tokens[index];
  }
  bool at(std::string_view text) const { return peek().kind != PtxTokenKind::string && peek().text == text; }
  bool at_end() const { return peek().kind == PtxTokenKind::end; }
  const PtxToken& take() {
    const PtxToken& token = peek();
    if (m_next < m_tokens.size() - 1) ++m_next;
    return token;
  }
  [[noreturn]] void fail(const PtxToken& token, std::string message, bool unsupported = false) {
    m_diagnostics.push_back({token.position, std::move(message), unsupported});
    throw ParseStop{};
  }
  std::string describe(const PtxToken& token) const {
    return token.kind == PtxTokenKind::end ? "the end of the file" : fmt::format("'{}'", token.text);
  }
  void expect(std::string_view text) {
    if (!at(text)) fail(peek(), fmt::format("expected '{}', found {}", text, describe(peek())));
    take();
  }
  int64_t parse_number() {
    bool negative = false;
    if (at("-")) {
      take();
      negative = true;
    }
    const PtxToken& token = peek();
    if (token.kind != PtxTokenKind::number) fail(token, fmt::format("expected a number, found {}", describe(token)));
    if (token.text.size() > 18) fail(token, "number too large");
    take();
    int64_t value = std::stoll(token.text);
    return negative ? -value : value;
  }
  /** A thread name P<n>, or herd7's short form <n> (before ':'). */
  int parse_thread_name() {
    const PtxToken& token = peek();
    if (token.kind == PtxTokenKind::number && token.text.size() <= 3 && peek(1).text == ":") {
      take();
      return std::stoi(token.text);
    }
    if (token.kind != PtxTokenKind::word || token.text.size() < 2 || token.text[0] != 'P' ||
        token.text.find_first_not_of("0123456789", 1) != std::string::npos || token.text.size() > 4)
      fail(token, fmt::format("expected a thread name P0, P1, ..., found {}", describe(token)));
    take();
    return std::stoi(token.text.substr(1));
  }
  std::string parse_name(std::string_view what) {
    const PtxToken& token = peek();
    if (token.kind != PtxTokenKind::word || token.text.find('.') != std::string::npos)
      fail(token, fmt::format("expected {}, found {}", what, describe(token)));
    take();
    return token.text;
  }

  // init := location '=' number | P<n> ':' register '=' number
  void parse_init_block(PtxTest& test) {
    expect("{");
    while (!at("}")) {
      if (at_end()) fail(peek(), "expected '}' to close the init block");
      if (at(";")) {
        take();
        continue;
      }
      const PtxToken& first = peek();
      if ((first.kind == PtxTokenKind::word || first.kind == PtxTokenKind::number) && peek(1).text == ":") {
        int thread = parse_thread_name();
        m_register_threads.emplace_back(first.position, thread);
        expect(":");
        std::string reg = parse_name("a register");
        expect("=");
        if (peek().kind == PtxTokenKind::word) fail(peek(), "unsupported: a register holding an address", true);
        test.initial_registers[{thread, reg}] = parse_number();
      } else {
        const PtxToken& name_token = peek();
        std::string location = parse_name("a location or P<n>:register");
        // alias := location '@' ('generic' | 'surface' | 'texture' | 'constant') 'aliases' location
        if (at("@")) {
          take();
          PtxAlias alias;
          const PtxToken& proxy = peek();
          if (proxy.text == "generic") alias.proxy = PtxProxy::generic;
          else if (proxy.text == "surface") alias.proxy = PtxProxy::surface;
          else if (proxy.text == "texture") alias.proxy = PtxProxy::texture;
          else if (proxy.text == "constant") alias.proxy = PtxProxy::constant;
          else fail(proxy, fmt::format("expected generic, surface, texture or constant, found {}", describe(proxy)));
          take();
          if (!at("aliases")) fail(peek(), fmt::format("expected 'aliases', found {}", describe(peek())));
          take();
          alias.target = parse_name("the aliased location");
          if (alias.target == location) fail(name_token, fmt::format("'{}' aliases itself", location));
          if (test.aliases.count(location) || test.initial_memory.count(location))
            fail(name_token, fmt::format("'{}' is declared twice", location));
          test.aliases[location] = alias;
          if (!at("}")) expect(";");
          continue;
        }
        if (test.aliases.count(location)) fail(name_token, fmt::format("'{}' is an alias; its target holds the value", location));
        expect("=");
        if (peek().kind == PtxTokenKind::word) fail(peek(), "unsupported: a location holding an address", true);
        test.initial_memory[location] = parse_number();
      }
      if (!at("}")) expect(";");
    }
    take();
    if (at(";")) take();
  }

  // placement := P<n> '@' 'cta' number ',' 'gpu' number ('|' placement)* ';'
  void parse_placements(PtxTest& test) {
    while (true) {
      const PtxToken& name = peek();
      int thread = parse_thread_name();
      if (thread != static_cast<int>(test.threads.size()))
        fail(name, fmt::format("expected thread P{} here, found P{}", test.threads.size(), thread));
      PtxThread placed;
      if (at("@")) {
        take();
        if (!at("cta")) fail(peek(), fmt::format("expected 'cta', found {}", describe(peek())));
        take();
        placed.cta = static_cast<int>(parse_number());
        expect(",");
        if (!at("gpu")) fail(peek(), fmt::format("expected 'gpu', found {}", describe(peek())));
        take();
        placed.gpu = static_cast<int>(parse_number());
      } else {
        fail(peek(), fmt::format("expected '@cta N,gpu M' after P{}", thread));
      }
      test.threads.push_back(std::move(placed));
      if (at(";")) {
        take();
        break;
      }
      expect("|");
    }
    for (const auto& [position, thread] : m_register_threads)
      if (thread >= static_cast<int>(test.threads.size()))
        fail_at(position, fmt::format("the init block names P{}, which the test does not have", thread));
  }
  [[noreturn]] void fail_at(SourcePosition position, std::string message) {
    m_diagnostics.push_back({position, std::move(message), false});
    throw ParseStop{};
  }

  bool at_condition_start() const {
    return at("exists") || at("forall") || at("~") || at("locations") || at("filter") || at_end();
  }

  // row := cell ('|' cell)* ';'      cell := instruction?
  void parse_rows(PtxTest& test) {
    while (!at_condition_start()) {
      size_t column = 0;
      while (true) {
        const PtxToken& start = peek();
        std::vector<PtxToken> cell;
        while (!at("|") && !at(";")) {
          if (at_end()) fail(peek(), "expected ';' to end the row");
          cell.push_back(take());
        }
        if (column >= test.threads.size())
          fail(start, fmt::format("this row has more than the test's {} threads", test.threads.size()));
        if (!cell.empty()) {
          PtxInstruction instruction = parse_ptx_instruction(cell, m_diagnostics);
          if (!m_diagnostics.empty()) throw ParseStop{};
          test.threads[column].instructions.push_back(std::move(instruction));
        }
        ++column;
        if (at(";")) {
          take();
          break;
        }
        take();  // '|'
      }
    }
    // Every alias chain ends at a location that is no alias.
    for (const auto& [name, alias] : test.aliases) {
      std::string at_name = alias.target;
      for (size_t steps = 0; test.aliases.count(at_name); ++steps) {
        if (steps > test.aliases.size()) fail_at(SourcePosition{}, fmt::format("the aliases of '{}' form a cycle", name));
        at_name = test.aliases.at(at_name).target;
      }
    }
    // Every branch names a label of its own thread.
    for (const auto& thread : test.threads) {
      for (const auto& instruction : thread.instructions) {
        if (instruction.kind != PtxInstructionKind::branch && instruction.kind != PtxInstructionKind::jump) continue;
        bool found = false;
        for (const auto& other : thread.instructions)
          found = found || (other.kind == PtxInstructionKind::label && other.label == instruction.label);
        if (!found) fail_at(instruction.position, fmt::format("no label '{}' in this thread", instruction.label));
      }
    }
  }

  // final := ('locations' '[' ... ']')? ('exists' | '~' 'exists' | 'forall') condition
  void parse_final(PtxTest& test) {
    if (at("locations")) {
      take();
      expect("[");
      while (!at("]")) {
        if (at_end()) fail(peek(), "expected ']' to close 'locations'");
        take();
      }
      take();
    }
    if (at("filter")) fail(peek(), "unsupported: 'filter'", true);
    if (at("exists")) {
      take();
      test.quantifier = PtxQuantifier::exists;
    } else if (at("~")) {
      take();
      if (!at("exists")) fail(peek(), fmt::format("expected 'exists' after '~', found {}", describe(peek())));
      take();
      test.quantifier = PtxQuantifier::not_exists;
    } else if (at("forall")) {
      take();
      test.quantifier = PtxQuantifier::forall;
    } else {
      fail(peek(), fmt::format("expected 'exists', '~exists' or 'forall', found {}", describe(peek())));
    }
    test.condition = parse_disjunction(test);
    if (at(";")) take();
    if (!at_end()) fail(peek(), fmt::format("unexpected {} after the condition", describe(peek())));
  }

  // disjunction := conjunction ('\/' conjunction)*
  PtxCondition parse_disjunction(const PtxTest& test) {
    PtxCondition left = parse_conjunction(test);
    while (at("\\/")) {
      take();
      left = joined(PtxCondition::Kind::disjunction, std::move(left), parse_conjunction(test));
    }
    return left;
  }
  // conjunction := unary ('/\' unary)*
  PtxCondition parse_conjunction(const PtxTest& test) {
    PtxCondition left = parse_unary(test);
    while (at("/\\")) {
      take();
      left = joined(PtxCondition::Kind::conjunction, std::move(left), parse_unary(test));
    }
    return left;
  }
  /** `left OP right` as one node (OP: conjunction or disjunction, both left-associative). */
  static PtxCondition joined(PtxCondition::Kind kind, PtxCondition left, PtxCondition right) {
    PtxCondition both;
    both.kind = kind;
    both.children.push_back(std::move(left));
    both.children.push_back(std::move(right));
    return both;
  }
  // unary := '~' unary | '(' disjunction ')' | 'true' | 'false' | term ('=='|'='|'!=') term
  PtxCondition parse_unary(const PtxTest& test) {
    PtxCondition result;
    if (at("~")) {
      take();
      result.kind = PtxCondition::Kind::negation;
      result.children.push_back(parse_unary(test));
      return result;
    }
    if (at("(")) {
      take();
      result = parse_disjunction(test);
      expect(")");
      return result;
    }
    if (at("true") || at("false")) {
      result.kind = PtxCondition::Kind::truth;
      result.truth = take().text == "true";
      return result;
    }
    result.left = parse_term(test);
    if (at("==") || at("=")) {
      result.kind = PtxCondition::Kind::equal;
    } else if (at("!=")) {
      result.kind = PtxCondition::Kind::not_equal;
    } else {
      fail(peek(), fmt::format("expected '==', '=' or '!=', found {}", describe(peek())));
    }
    take();
    result.right = parse_term(test);
    return result;
  }
  // term := P<n> ':' register | location | '[' location ']' | number
  PtxTerm parse_term(const PtxTest& test) {
    PtxTerm term;
    if ((peek().kind == PtxTokenKind::number && peek(1).text != ":") || at("-")) {
      term.kind = PtxTerm::Kind::constant;
      term.constant = parse_number();
      return term;
    }
    if (at("[")) {
      take();
      term.kind = PtxTerm::Kind::location_value;
      term.name = parse_name("a location");
      expect("]");
      return term;
    }
    const PtxToken& first = peek();
    if ((first.kind == PtxTokenKind::word || first.kind == PtxTokenKind::number) && peek(1).text == ":") {
      term.kind = PtxTerm::Kind::register_value;
      term.thread = parse_thread_name();
      if (term.thread >= static_cast<int>(test.threads.size()))
        fail(first, fmt::format("the condition names P{}, which the test does not have", term.thread));
      take();
      term.name = parse_name("a register");
      return term;
    }
    term.kind = PtxTerm::Kind::location_value;
    term.name = parse_name("a register, location or number");
    return term;
  }
};

} // namespace

bool looks_like_ptx_litmus(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  std::string_view word = text.substr(start, 4);
  return word == "PTX " || word == "ptx " || word == "PTX\t" || word == "ptx\t";
}

// file := ('PTX' | 'ptx') NAME '\n' anything-up-to-'{' test
PtxParseResult parse_ptx_litmus(std::string_view text) {
  PtxParseResult result;
  if (!looks_like_ptx_litmus(text)) {
    size_t start = text.find_first_not_of(" \t\r\n");
    SourcePosition position;
    if (start != std::string_view::npos) {
      for (size_t i = 0; i < start; ++i) {
        if (text[i] == '\n') {
          ++position.line;
          position.column = 1;
        } else {
          ++position.column;
        }
      }
    }
    result.diagnostics.push_back({position, "expected 'PTX NAME' on the first line (a herd7 PTX litmus test)"});
    return result;
  }
  size_t start = text.find_first_not_of(" \t\r\n");
  size_t line_end = text.find('\n', start);
  std::string_view header = text.substr(start + 4, line_end == std::string_view::npos ? std::string_view::npos : line_end - start - 4);
  std::string name(header);
  name.erase(0, name.find_first_not_of(" \t"));
  name.erase(name.find_last_not_of(" \t\r") + 1);
  // Everything before the init block's '{' (the header, quoted comments) is not tokenized; it is
  // blanked out so that positions stay those of the file.
  std::string body(text);
  size_t brace = body.find('{');
  size_t blank_to = brace == std::string::npos ? body.size() : brace;
  for (size_t i = 0; i < blank_to; ++i)
    if (body[i] != '\n') body[i] = ' ';
  std::vector<PtxToken> tokens = lex_ptx_litmus(body, result.diagnostics);
  if (!result.diagnostics.empty()) return result;
  Parser parser(std::move(tokens), result.diagnostics);
  try {
    PtxTest test = parser.parse_test(std::move(name));
    if (result.diagnostics.empty()) result.test = std::move(test);
  } catch (const ParseStop&) {
  }
  return result;
}

std::string format_ptx_diagnostic(std::string_view file, std::string_view text, const PtxDiagnostic& diagnostic) {
  std::string out = fmt::format("{}:{}:{}: error: {}\n", file, diagnostic.position.line, diagnostic.position.column,
                                diagnostic.message);
  size_t line_start = 0;
  for (int line = 1; line < diagnostic.position.line && line_start != std::string_view::npos; ++line) {
    line_start = text.find('\n', line_start);
    if (line_start != std::string_view::npos) ++line_start;
  }
  if (line_start == std::string_view::npos || line_start > text.size()) return out;
  size_t line_end = text.find('\n', line_start);
  std::string_view line = text.substr(line_start, line_end == std::string_view::npos ? std::string_view::npos : line_end - line_start);
  out += fmt::format("  {}\n  {}^\n", line, std::string(static_cast<size_t>(std::max(diagnostic.position.column - 1, 0)), ' '));
  return out;
}

} // namespace fencelab::litmus
