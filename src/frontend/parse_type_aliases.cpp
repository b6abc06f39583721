// The parser: type aliases (`typedef`, `using`) and unscoped enumerations, at file scope and in
// blocks.
//
// An alias names a type the language already has (a scalar or a pointer to one); from its
// declaration on, the name is a type specifier (Parser::parse_decl_specifiers). Names are not
// scoped: an alias declared in a block is known after it in the whole file, which differs from
// C++ only for programs that reuse an alias name for something else.
//
// An enumeration's enumerators are `const int` variables initialized as C++ gives them values
// (C++ [dcl.enum]/2: the first 0 unless given, each next one more than the previous), and its
// name is an alias of int. Scoped enumerations (`enum class`) are not supported.
#include "fencelab/frontend/parser.h"

namespace fencelab {

// alias-declaration: 'typedef' decl-specifiers pointers NAME { ',' pointers NAME } ';'
//                  | 'using' NAME '=' type-name ';'
void Parser::parse_type_alias(bool file_scope) {
  const Token& first = advance(); // typedef | using
  // At file scope, an alias of a type device code cannot have (`typedef std::vector<int> V;`)
  // belongs to the host code: skipped, and its name stays unknown to device code.
  const auto host_alias = [this, file_scope]() {
    if (!file_scope || is_type_start()) return false;
    while (!at_end() && !at(TokenKind::Semicolon)) advance();
    accept(TokenKind::Semicolon);
    return true;
  };
  if (first.kind == TokenKind::KwUsing) {
    if (!at(TokenKind::Identifier) || peek(1).kind != TokenKind::Equal)
      return skip_unsupported_block(first.range, "using declarations (only 'using NAME = TYPE;')");
    const std::string name(advance().text);
    advance(); // =
    if (host_alias()) return;
    if (const std::optional<Type> type = parse_type_name()) {
      if (!m_last_vector_type) m_type_aliases[name] = *type;
      else if (type->is_pointer()) error(previous().range, "not supported: an alias of a pointer to " + m_last_vector_type->name);
      else m_struct_types[name] = *m_last_vector_type; // `using vec4 = float4;`: the same type
    }
    expect(TokenKind::Semicolon, "';' after the alias");
    return;
  }
  if ((at(TokenKind::KwStruct) || at(TokenKind::KwClass) || at(TokenKind::KwUnion)) && !at_elaborated_struct())
    return parse_struct_definition(true); // `typedef struct [TAG] { ... } NAME;`
  if (at(TokenKind::KwEnum)) {
    // `typedef enum { ... } NAME;`: past the braces to the ';' after the names.
    error(first.range, "not supported: typedef of an enum");
    for (int depth = 0; !at_end(); advance()) {
      if (at(TokenKind::LeftBrace)) ++depth;
      else if (at(TokenKind::RightBrace)) --depth;
      else if (at(TokenKind::Semicolon) && depth <= 0) break;
    }
    accept(TokenKind::Semicolon);
    return;
  }
  if (host_alias()) return;
  DeclSpecifiers spec;
  parse_decl_specifiers(spec);
  if (!spec.has_type) return skip_unsupported_block(peek().range, "typedef of this type");
  do {
    const Type type = parse_pointers(spec.type);
    if (!at(TokenKind::Identifier)) {
      error(peek().range, "expected the name the typedef declares");
      return skip_unsupported_block(peek().range, "");
    }
    const Token& name = advance();
    if (at(TokenKind::LeftBracket) || at(TokenKind::LeftParen))
      return skip_unsupported_block(peek().range, "typedef of an array or function type");
    if (spec.vector) {
      // `typedef float4 vec4;`, `typedef Particle P;`: another name of the same type.
      if (type.is_pointer()) error(name.range, "not supported: a typedef of a pointer to " + spec.vector->name);
      else m_struct_types[std::string(name.text)] = *spec.vector;
      continue;
    }
    m_type_aliases[std::string(name.text)] = type;
  } while (accept(TokenKind::Comma));
  expect(TokenKind::Semicolon, "';' after the typedef");
}

// enum-specifier: 'enum' [NAME] [':' type-name] '{' [enumerator { ',' enumerator } [',']] '}' ';'
// enumerator: NAME [ '=' constant-expression ]
std::vector<VarDeclPtr> Parser::parse_enum(StorageKind storage) {
  std::vector<VarDeclPtr> enumerators;
  const Token& keyword = advance(); // enum
  if (at(TokenKind::KwClass) || at(TokenKind::KwStruct)) {
    skip_unsupported_block(keyword.range, "scoped enumerations (enum class); use a plain enum");
    return enumerators;
  }
  if (at(TokenKind::Identifier)) m_type_aliases[std::string(advance().text)] = Type::of(ScalarType::Int);
  if (accept(TokenKind::Colon)) parse_type_name(); // the underlying type: values are ints here
  if (!at(TokenKind::LeftBrace)) {
    // `enum E;` (an opaque declaration) or `enum E e;` (a variable of it): nothing, or unsupported.
    if (accept(TokenKind::Semicolon)) return enumerators;
    skip_unsupported_block(keyword.range, "variables declared with the 'enum' keyword (write the enumeration's name)");
    return enumerators;
  }
  advance(); // {
  Type constant = Type::of(ScalarType::Int);
  constant.is_const = true;
  std::string previous_name;
  while (at(TokenKind::Identifier)) {
    const Token& name = advance();
    auto variable = std::make_unique<VarDecl>();
    variable->name = std::string(name.text);
    variable->range = variable->name_range = name.range;
    variable->storage = storage;
    variable->type = constant;
    if (accept(TokenKind::Equal)) {
      variable->initializer = parse_conditional_expression();
      variable->range = SourceRange::join(name.range, previous().range);
    } else if (previous_name.empty()) {
      variable->initializer =
          std::make_unique<Literal>(ExprKind::IntegerLiteral, name.range, Word(0), Type::of(ScalarType::Int));
    } else {
      variable->initializer = std::make_unique<Binary>(
          name.range, BinaryOp::Add, std::make_unique<NameRef>(name.range, previous_name),
          std::make_unique<Literal>(ExprKind::IntegerLiteral, name.range, Word(1), Type::of(ScalarType::Int)));
    }
    previous_name = variable->name;
    enumerators.push_back(std::move(variable));
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightBrace, "'}' to end the enumeration");
  if (!at(TokenKind::Semicolon)) {
    skip_unsupported_block(peek().range, "variables declared with an enumeration's definition");
    return enumerators;
  }
  advance();
  return enumerators;
}

} // namespace fencelab
