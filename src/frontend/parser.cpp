// The parser's token access, error recovery and type specifiers (see frontend/parser.h).
#include "fencelab/frontend/parser.h"

#include <fmt/format.h>
#include <string>
#include <unordered_map>

namespace fencelab {

namespace {

constexpr int kMaxNesting = 200;

/** The diagnostic for one of CUDA's built-in types that fencelab does not model (cuda_fp16.h's
 *  half2, cuda_bf16.h); empty for any other name. */
std::string unsupported_type_message(std::string_view name) {
  if (name == "half2" || name == "__half2" || name == "__nv_bfloat16" || name == "__nv_bfloat162")
    return fmt::format("not supported: half-precision type '{}'", name);
  return {};
}

/** Type names from <cstdint>/<cstddef>, and glibc's <sys/types.h> (uint, ushort, ulong: the
 *  CUDA runtime headers bring them in on Linux, and the SDK samples use them), accepted as if
 *  they were keywords. */
const std::unordered_map<std::string_view, ScalarType>& typedef_names() {
  static const std::unordered_map<std::string_view, ScalarType> table = {
      {"size_t", ScalarType::ULong},      {"ptrdiff_t", ScalarType::Long},
      {"clock_t", ScalarType::Long},
      {"uint", ScalarType::UInt},         {"ushort", ScalarType::UShort},
      {"ulong", ScalarType::ULong},
      {"int8_t", ScalarType::Char},       {"uint8_t", ScalarType::UChar},
      {"int16_t", ScalarType::Short},     {"uint16_t", ScalarType::UShort},
      {"int32_t", ScalarType::Int},       {"uint32_t", ScalarType::UInt},
      {"int64_t", ScalarType::LongLong},  {"uint64_t", ScalarType::ULongLong},
  };
  return table;
}

} // namespace

NestingGuard::NestingGuard(Parser& parser) : m_parser(parser), m_ok(++parser.m_depth <= kMaxNesting) {
  if (m_parser.m_depth == kMaxNesting + 1)
    m_parser.error(m_parser.peek().range, "nesting too deep (more than 200 levels)");
}

Parser::Parser(std::vector<Token> tokens, DiagnosticSink& diagnostics)
    : m_tokens(std::move(tokens)), m_diagnostics(diagnostics) {
  if (m_tokens.empty() || m_tokens.back().kind != TokenKind::EndOfFile) {
    Token end;
    end.range = m_tokens.empty() ? SourceRange{} : SourceRange{m_tokens.back().range.end, m_tokens.back().range.end};
    m_tokens.push_back(end);
  }
}

const Token& Parser::peek(size_t ahead) const {
  const size_t index = m_pos + ahead;
  return index < m_tokens.size() ? m_tokens[index] : m_tokens.back();
}

const Token& Parser::advance() {
  const Token& token = m_tokens[m_pos];
  if (m_pos + 1 < m_tokens.size()) ++m_pos;
  return token;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  advance();
  return true;
}

bool Parser::expect(TokenKind kind, const char* what) {
  if (accept(kind)) return true;
  const Token& token = peek();
  std::string found = token.kind == TokenKind::EndOfFile ? "end of file" : "'" + std::string(token.text) + "'";
  error(token.range, std::string("expected ") + what + ", found " + found);
  return false;
}

void Parser::error(SourceRange range, std::string message) {
  if (m_panic) return;
  m_panic = true;
  m_diagnostics.error(range, std::move(message));
}

// A CUDA type fencelab does not model, used as one: followed by a declarator (`float4 v`,
// `half* p`). Without its header, `half` is an ordinary name, which kernels use.
bool Parser::names_unsupported_type(size_t ahead) const {
  if (peek(ahead).kind != TokenKind::Identifier) return false;
  if (unsupported_type_message(peek(ahead).text).empty() && !m_unsupported_structs.count(std::string(peek(ahead).text)))
    return false;
  const TokenKind next = peek(ahead + 1).kind;
  return next == TokenKind::Identifier || (next == TokenKind::Star && peek(ahead + 2).kind == TokenKind::Identifier);
}

// cuda_fp16.h's `__half` and its typedef `half`. `__half` is a reserved name, always the type.
// Kernels also use `half` as an ordinary name (`const int half = n / 2;`), which C++ allows
// even with the header (a local hides the typedef), so `half` is the type only where it reads
// as one: before a declarator (`half h`, `half* p`, `half& r`), in a functional cast
// (`half(x)`), between parentheses after one (`(half)x`, `sizeof(half)`: `ahead` > 0, so not
// an argument `f(half)`), between angle brackets (`static_cast<half>`, `f<half>`), and where a
// directive expects a type (`T=half` at the end of its tokens; `half[8]` is parsed as a type).
bool Parser::names_half_type(size_t ahead) const {
  const Token& token = peek(ahead);
  if (token.kind != TokenKind::Identifier) return false;
  if (token.text == "__half") return true;
  if (token.text != "half") return false;
  const TokenKind next = peek(ahead + 1).kind, after = peek(ahead + 2).kind;
  // Where a variable named `half` is declared, the name is that variable, except before a
  // declarator's name (`half h`: no expression has a name after a name).
  if (m_half_names_global || m_half_names_local) return next == TokenKind::Identifier;
  const TokenKind before = ahead > 0 ? peek(ahead - 1).kind : TokenKind::EndOfFile;
  switch (next) {
  case TokenKind::Identifier: case TokenKind::LeftParen: case TokenKind::EndOfFile: return true;
  case TokenKind::Star: case TokenKind::Amp: {
    const bool pointer_type_follows = after == TokenKind::RightParen || after == TokenKind::Star ||
                                      after == TokenKind::KwConst || after == TokenKind::KwVolatile;
    // After '(' a name there would be an expression: `(half*)p` is a cast, `(half * n)` is not.
    if (ahead > 0 && before == TokenKind::LeftParen) return pointer_type_follows;
    return pointer_type_follows || after == TokenKind::Identifier || after == TokenKind::Greater ||
           after == TokenKind::KwRestrict;
  }
  case TokenKind::RightParen: return before == TokenKind::LeftParen;
  case TokenKind::Greater: return ahead > 0 && before == TokenKind::Less;
  default: return false;
  }
}

bool Parser::is_type_start(size_t ahead) const {
  const Token& token = peek(ahead);
  switch (token.kind) {
  case TokenKind::KwBool: case TokenKind::KwChar: case TokenKind::KwShort: case TokenKind::KwInt:
  case TokenKind::KwLong: case TokenKind::KwUnsigned: case TokenKind::KwSigned:
  case TokenKind::KwFloat: case TokenKind::KwDouble: case TokenKind::KwVoid:
  case TokenKind::KwConst: case TokenKind::KwVolatile: case TokenKind::KwStatic:
  case TokenKind::KwExtern: case TokenKind::KwInline: case TokenKind::KwConstexpr:
  case TokenKind::KwRegister: case TokenKind::KwAuto: case TokenKind::KwGlobal:
  case TokenKind::KwDevice: case TokenKind::KwHost: case TokenKind::KwShared:
  case TokenKind::KwConstant: case TokenKind::KwRestrict: case TokenKind::KwForceinline:
  case TokenKind::KwNoinline: case TokenKind::KwGnuInline: case TokenKind::KwStruct:
  case TokenKind::KwClass: case TokenKind::KwUnion: case TokenKind::KwEnum:
    return true;
  case TokenKind::Identifier:
    return typedef_names().count(token.text) > 0 || m_type_aliases.count(std::string(token.text)) > 0 ||
           named_vector_type(token.text).has_value() || names_unsupported_type(ahead) || names_half_type(ahead);
  default:
    return false;
  }
}

// decl-specifiers: { storage-class | memory-space | cv-qualifier | function-specifier
//                    | type-specifier }
// type-specifier: void | bool | char | short | int | long | unsigned | signed | float
//               | double | size_t | int32_t | ...
bool Parser::parse_decl_specifiers(DeclSpecifiers& spec) {
  enum class Base { None, Void, Bool, Char, Int, Float, Double, Typedef, Alias, Vector };
  Base base = Base::None;
  ScalarType typedef_scalar = ScalarType::Int;
  Type alias_type; // Base::Alias: the type a typedef, using or enumeration name stands for
  int longs = 0, shorts = 0, unsigneds = 0, signeds = 0;
  bool any = false;
  const SourceRange start = peek().range;
  auto set_base = [&](Base b) {
    if (base != Base::None) error(peek().range, "invalid combination of type specifiers");
    base = b;
  };
  while (true) {
    const Token& token = peek();
    switch (token.kind) {
    case TokenKind::KwConst: spec.type.is_const = true; break;
    case TokenKind::KwVolatile: spec.type.is_volatile = true; break;
    case TokenKind::KwStatic: spec.is_static = true; break;
    case TokenKind::KwExtern:
      // A linkage specification (`extern "C" __global__ void k(...)`) changes only the
      // symbol's name on the host side: nothing to model.
      // A variable declared so is declared extern ([dcl.link]p7): not a definition without an
      // initializer.
      if (peek(1).kind == TokenKind::StringLiteral && (peek(1).text == "\"C\"" || peek(1).text == "\"C++\"")) {
        advance();
        spec.is_extern = true;
        break;
      }
      spec.is_extern = true;
      break;
    case TokenKind::KwConstexpr: spec.is_constexpr = true; spec.type.is_const = true; break;
    case TokenKind::KwInline: case TokenKind::KwForceinline: case TokenKind::KwNoinline: case TokenKind::KwGnuInline:
    case TokenKind::KwRegister: case TokenKind::KwRestrict: break;
    case TokenKind::KwGlobal: spec.is_global = true; break;
    case TokenKind::KwDevice: spec.is_device = true; break;
    case TokenKind::KwHost: spec.is_host = true; break;
    case TokenKind::KwShared: spec.is_shared = true; break;
    case TokenKind::KwConstant: spec.is_constant = true; break;
    case TokenKind::KwVoid: set_base(Base::Void); break;
    case TokenKind::KwBool: set_base(Base::Bool); break;
    case TokenKind::KwChar: set_base(Base::Char); break;
    case TokenKind::KwInt: set_base(Base::Int); break;
    case TokenKind::KwFloat: set_base(Base::Float); break;
    case TokenKind::KwDouble: set_base(Base::Double); break;
    case TokenKind::KwLong: ++longs; break;
    case TokenKind::KwShort: ++shorts; break;
    case TokenKind::KwUnsigned: ++unsigneds; break;
    case TokenKind::KwSigned: ++signeds; break;
    case TokenKind::KwAuto:
      if (m_auto_allowed) { // a local variable: sema deduces its type from the initializer
        spec.is_auto = true;
        set_base(Base::Int);
        break;
      }
      error(token.range, "not supported: 'auto' here (it is supported for local variables; write the type)");
      break;
    case TokenKind::KwStruct: case TokenKind::KwClass: case TokenKind::KwUnion:
      // `struct NAME` of a defined struct (C++ [dcl.type.elab]): NAME is the type.
      if (!at_elaborated_struct()) goto done;
      advance();
      continue;
    case TokenKind::Identifier: {
      if (base == Base::None && names_unsupported_type(0)) {
        // Named, at its place, and parsed on as an int so that one error is all it gives.
        const auto unsupported_struct = m_unsupported_structs.find(std::string(token.text));
        error(token.range, unsupported_struct != m_unsupported_structs.end() ? unsupported_struct->second
                                                                             : unsupported_type_message(token.text));
        set_base(Base::Int);
        break;
      }
      if (base != Base::None || longs || shorts || unsigneds || signeds) goto done;
      // Here a type is expected, so `half` is the type whatever follows (names_half_type).
      if (token.text == "half" || token.text == "__half") {
        base = Base::Typedef;
        typedef_scalar = ScalarType::Half;
        break;
      }
      if (std::optional<VectorType> vector = named_vector_type(token.text)) {
        base = Base::Vector;
        spec.vector = std::move(vector);
        break;
      }
      if (const auto alias = m_type_aliases.find(std::string(token.text)); alias != m_type_aliases.end()) {
        base = Base::Alias;
        alias_type = alias->second;
        if (m_template_types.count(alias->first)) spec.template_type = alias->first;
        break;
      }
      auto it = typedef_names().find(token.text);
      if (it == typedef_names().end()) goto done;
      base = Base::Typedef;
      typedef_scalar = it->second;
      break;
    }
    default:
      goto done;
    }
    any = true;
    spec.range = SourceRange::join(start, token.range);
    advance();
  }
done:
  m_last_vector_type = spec.vector;
  const bool has_modifier = longs || shorts || unsigneds || signeds;
  spec.has_type = base != Base::None || has_modifier;
  if (!spec.has_type) return any;
  if (base == Base::Alias) {
    // The alias's type, with the qualifiers written beside its name (`const T`).
    if (has_modifier) error(spec.range, "invalid combination of type specifiers");
    alias_type.is_const = alias_type.is_const || spec.type.is_const;
    alias_type.is_volatile = alias_type.is_volatile || spec.type.is_volatile;
    spec.type = alias_type;
    return true;
  }
  ScalarType scalar = ScalarType::Int;
  bool valid = !(unsigneds && signeds) && !(longs && shorts) && longs <= 2 && shorts <= 1 &&
               unsigneds <= 1 && signeds <= 1;
  switch (base) {
  case Base::Void: scalar = ScalarType::Void; valid = valid && !has_modifier; break;
  case Base::Bool: scalar = ScalarType::Bool; valid = valid && !has_modifier; break;
  case Base::Float: scalar = ScalarType::Float; valid = valid && !has_modifier; break;
  case Base::Double:
    scalar = ScalarType::Double;
    if (longs) {
      error(spec.range, "not supported: long double");
      return true;
    }
    valid = valid && !has_modifier;
    break;
  case Base::Typedef: scalar = typedef_scalar; break;
  case Base::Vector: scalar = spec.vector->scalar; valid = valid && !has_modifier; break;
  case Base::Alias: break; // returned above
  case Base::Char:
    scalar = unsigneds ? ScalarType::UChar : ScalarType::Char;
    valid = valid && !longs && !shorts;
    break;
  case Base::None:
  case Base::Int:
    if (shorts) scalar = unsigneds ? ScalarType::UShort : ScalarType::Short;
    else if (longs == 1) scalar = unsigneds ? ScalarType::ULong : ScalarType::Long;
    else if (longs == 2) scalar = unsigneds ? ScalarType::ULongLong : ScalarType::LongLong;
    else scalar = unsigneds ? ScalarType::UInt : ScalarType::Int;
    break;
  }
  if (!valid) error(spec.range, "invalid combination of type specifiers");
  spec.type.scalar = scalar;
  return true;
}

// pointers: { '*' { const | volatile | __restrict__ } } [ '&' ]
Type Parser::parse_pointers(Type type, bool* reference) {
  while (at(TokenKind::Star)) {
    const SourceRange star = advance().range;
    if (type.pointer_depth >= 2) error(star, "not supported: pointers to pointers to pointers");
    else type = Type::pointer_to(type);
    while (true) {
      if (accept(TokenKind::KwConst)) type.is_const = true;
      else if (accept(TokenKind::KwVolatile)) type.is_volatile = true;
      else if (!accept(TokenKind::KwRestrict)) break;
    }
  }
  const bool is_reference = parse_reference_marker(reference != nullptr);
  if (reference) *reference = is_reference;
  return type;
}

// type-name: decl-specifiers pointers
std::optional<Type> Parser::parse_type_name() {
  DeclSpecifiers spec;
  const SourceRange start = peek().range;
  parse_decl_specifiers(spec);
  if (!spec.has_type) {
    error(start, "expected a type");
    return std::nullopt;
  }
  return parse_pointers(spec.type);
}

} // namespace fencelab
