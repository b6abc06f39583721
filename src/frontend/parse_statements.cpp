// The parser: statements.
#include "fencelab/frontend/parser.h"

namespace fencelab {

void Parser::synchronize_statement() {
  // Skip to the end of the broken statement: a `;` at this nesting level (consumed), or a
  // `}` closing the enclosing block (left for it).
  int depth = 0;
  while (!at_end()) {
    const TokenKind kind = peek().kind;
    if (kind == TokenKind::LeftBrace || kind == TokenKind::LeftParen) ++depth;
    else if (kind == TokenKind::RightParen && depth > 0) --depth;
    else if (kind == TokenKind::RightBrace) {
      if (depth == 0) break;
      --depth;
      if (depth == 0) {
        advance();
        break;
      }
    } else if (kind == TokenKind::Semicolon && depth == 0) {
      advance();
      break;
    }
    advance();
  }
  clear_panic();
}

void Parser::recover_after_statement(size_t before) {
  if (!m_panic) return;
  const TokenKind last = previous().kind;
  if (m_pos != before && (last == TokenKind::Semicolon || last == TokenKind::RightBrace))
    clear_panic();
  else
    synchronize_statement();
}

// compound: '{' { statement } '}'
std::unique_ptr<Compound> Parser::parse_compound() {
  const SourceRange open = peek().range;
  expect(TokenKind::LeftBrace, "'{'");
  std::vector<StmtPtr> body;
  while (!at_end() && !at(TokenKind::RightBrace)) {
    const size_t before = m_pos;
    body.push_back(parse_statement());
    recover_after_statement(before);
    if (m_pos == before && !at(TokenKind::RightBrace)) advance();
  }
  expect(TokenKind::RightBrace, "'}'");
  return std::make_unique<Compound>(SourceRange::join(open, previous().range), std::move(body));
}

// statement: compound | if | for | while | do | switch | case | default | jump
//          | declaration | ';' | expression ';'
StmtPtr Parser::parse_statement() {
  NestingGuard guard(*this);
  const Token& token = peek();
  if (!guard.ok()) return std::make_unique<SimpleStmt>(StmtKind::Null, token.range);
  if (parse_cooperative_groups_namespace())
    return std::make_unique<SimpleStmt>(StmtKind::Null, SourceRange::join(token.range, previous().range));
  if (at_group_declaration()) return parse_group_declaration();
  if (token.kind == TokenKind::Identifier && peek(1).kind == TokenKind::Less &&
      m_shared_memory_templates.count(std::string(token.text)))
    return parse_shared_memory_object();
  switch (token.kind) {
  case TokenKind::LeftBrace: return parse_compound();
  case TokenKind::KwIf: return parse_if();
  case TokenKind::KwFor: return parse_for();
  case TokenKind::KwWhile: return parse_while();
  case TokenKind::KwDo: return parse_do_while();
  case TokenKind::KwSwitch: return parse_switch();
  case TokenKind::KwBreak: case TokenKind::KwContinue: case TokenKind::KwReturn:
  case TokenKind::KwGoto:
    return parse_jump();
  case TokenKind::Semicolon:
    return std::make_unique<SimpleStmt>(StmtKind::Null, advance().range);
  case TokenKind::KwCase: {
    // case-label: 'case' constant-expression ':'
    const SourceRange start = advance().range;
    ExprPtr value = parse_conditional_expression();
    expect(TokenKind::Colon, "':' after the case value");
    return std::make_unique<Case>(SourceRange::join(start, previous().range), std::move(value));
  }
  case TokenKind::KwDefault: {
    // default-label: 'default' ':'
    const SourceRange start = advance().range;
    expect(TokenKind::Colon, "':' after 'default'");
    return std::make_unique<Case>(SourceRange::join(start, previous().range), nullptr);
  }
  case TokenKind::KwTry: case TokenKind::KwThrow:
    error(token.range, "not supported: exceptions");
    return std::make_unique<SimpleStmt>(StmtKind::Null, token.range);
  case TokenKind::KwAsm:
    error(token.range, "not supported: inline assembly");
    return std::make_unique<SimpleStmt>(StmtKind::Null, token.range);
  case TokenKind::KwStruct: case TokenKind::KwClass: case TokenKind::KwUnion:
    if (at_elaborated_struct()) break; // `struct S s;`: a declaration
    parse_struct_definition(false);    // a struct defined in a function: its name is known after
    return std::make_unique<SimpleStmt>(StmtKind::Null, SourceRange::join(token.range, previous().range));
  case TokenKind::KwTypedef: case TokenKind::KwUsing:
    parse_type_alias(false);
    return std::make_unique<SimpleStmt>(StmtKind::Null, SourceRange::join(token.range, previous().range));
  case TokenKind::KwEnum: {
    const SourceRange start = token.range;
    std::vector<VarDeclPtr> enumerators = parse_enum(StorageKind::Local);
    return std::make_unique<Declaration>(SourceRange::join(start, previous().range), std::move(enumerators));
  }
  default: break;
  }
  if (is_type_start()) return parse_declaration_statement();
  ExprPtr expr = parse_expression();
  expect(TokenKind::Semicolon, "';' after the expression");
  const SourceRange range = SourceRange::join(expr->range, previous().range);
  return std::make_unique<ExprStmt>(range, std::move(expr));
}

// declaration: decl-specifiers declarator { ',' declarator } ';'
StmtPtr Parser::parse_declaration_statement() {
  const SourceRange start = peek().range;
  DeclSpecifiers spec;
  m_auto_allowed = true;
  parse_decl_specifiers(spec);
  m_auto_allowed = false;
  if (at(TokenKind::KwStruct) || at(TokenKind::KwClass) || at(TokenKind::KwUnion)) {
    error(peek().range, "not supported: a struct or class defined after qualifiers");
    return std::make_unique<SimpleStmt>(StmtKind::Null, start);
  }
  if (!spec.has_type) {
    // A type of cooperative groups outside the supported subset (`cg::block_tile_memory<N>`).
    if (const std::optional<size_t> name = cooperative_groups_name_at(0))
      error(peek(*name).range, "not supported: cooperative_groups::" + std::string(peek(*name).text));
    else
      error(peek().range, "expected a type in the declaration");
  }
  StorageKind storage = StorageKind::Local;
  if (spec.is_extern && !spec.is_shared) error(spec.range, "not supported: extern variables");
  else if (spec.is_shared) storage = StorageKind::Shared;
  else if (spec.is_device || spec.is_constant)
    error(spec.range, "__device__ and __constant__ variables must be declared at file scope");
  else if (spec.is_static)
    error(spec.range, "not supported: static local variables");
  if (spec.is_global || spec.is_host) error(spec.range, "unexpected function qualifier in a declaration");
  std::vector<VarDeclPtr> variables;
  parse_variables(variables, spec, storage);
  return std::make_unique<Declaration>(SourceRange::join(start, previous().range), std::move(variables));
}

// if: 'if' '(' expression ')' statement [ 'else' statement ]
StmtPtr Parser::parse_if() {
  const SourceRange start = advance().range;
  // `if constexpr`: fencelab instantiates a template once, with its parameters bound, so the
  // condition is a constant; sema checks only the branch it selects (Sema::check_constexpr_if).
  const bool is_constexpr = accept(TokenKind::KwConstexpr);
  expect(TokenKind::LeftParen, "'(' after 'if'");
  ExprPtr condition = parse_expression();
  expect(TokenKind::RightParen, "')' after the condition");
  std::vector<Diagnostic> then_diagnostics, else_diagnostics;
  StmtPtr then_branch = is_constexpr ? parse_constexpr_branch(then_diagnostics) : parse_statement();
  StmtPtr else_branch;
  if (accept(TokenKind::KwElse))
    else_branch = is_constexpr ? parse_constexpr_branch(else_diagnostics) : parse_statement();
  auto statement = std::make_unique<If>(SourceRange::join(start, previous().range), std::move(condition),
                                       std::move(then_branch), std::move(else_branch));
  statement->is_constexpr = is_constexpr;
  statement->then_diagnostics = std::move(then_diagnostics);
  statement->else_diagnostics = std::move(else_diagnostics);
  return statement;
}

StmtPtr Parser::parse_constexpr_branch(std::vector<Diagnostic>& held) {
  const size_t mark = m_diagnostics.diagnostics().size();
  const size_t before = m_pos;
  StmtPtr branch = parse_statement();
  recover_after_statement(before); // at the branch's end, so that an `else` after it is seen
  held = m_diagnostics.take_from(mark);
  return branch;
}

// for: 'for' '(' ( declaration | [expression] ';' ) [expression] ';' [expression] ')' statement
StmtPtr Parser::parse_for() {
  const SourceRange start = advance().range;
  expect(TokenKind::LeftParen, "'(' after 'for'");
  StmtPtr init;
  if (is_type_start()) {
    init = parse_declaration_statement();
  } else if (!accept(TokenKind::Semicolon)) {
    ExprPtr expr = parse_expression();
    const SourceRange range = expr->range;
    init = std::make_unique<ExprStmt>(range, std::move(expr));
    expect(TokenKind::Semicolon, "';' in the for header");
  }
  ExprPtr condition;
  if (!at(TokenKind::Semicolon)) condition = parse_expression();
  expect(TokenKind::Semicolon, "';' in the for header");
  ExprPtr step;
  if (!at(TokenKind::RightParen)) step = parse_expression();
  expect(TokenKind::RightParen, "')' to end the for header");
  StmtPtr body = parse_statement();
  return std::make_unique<For>(SourceRange::join(start, previous().range), std::move(init),
                               std::move(condition), std::move(step), std::move(body));
}

// while: 'while' '(' expression ')' statement
StmtPtr Parser::parse_while() {
  const SourceRange start = advance().range;
  expect(TokenKind::LeftParen, "'(' after 'while'");
  ExprPtr condition = parse_expression();
  expect(TokenKind::RightParen, "')' after the condition");
  StmtPtr body = parse_statement();
  return std::make_unique<While>(SourceRange::join(start, previous().range), std::move(condition),
                                 std::move(body));
}

// do-while: 'do' statement 'while' '(' expression ')' ';'
StmtPtr Parser::parse_do_while() {
  const SourceRange start = advance().range;
  StmtPtr body = parse_statement();
  expect(TokenKind::KwWhile, "'while' after the do body");
  expect(TokenKind::LeftParen, "'(' after 'while'");
  ExprPtr condition = parse_expression();
  expect(TokenKind::RightParen, "')' after the condition");
  expect(TokenKind::Semicolon, "';' after do-while");
  return std::make_unique<DoWhile>(SourceRange::join(start, previous().range), std::move(body),
                                   std::move(condition));
}

// switch: 'switch' '(' expression ')' compound
StmtPtr Parser::parse_switch() {
  const SourceRange start = advance().range;
  expect(TokenKind::LeftParen, "'(' after 'switch'");
  ExprPtr value = parse_expression();
  expect(TokenKind::RightParen, "')' after the switch value");
  if (!at(TokenKind::LeftBrace)) {
    error(peek().range, "not supported: a switch body that is not a block");
    StmtPtr body = parse_statement();
    return std::make_unique<SimpleStmt>(StmtKind::Null, start);
  }
  std::unique_ptr<Compound> body = parse_compound();
  return std::make_unique<Switch>(SourceRange::join(start, previous().range), std::move(value),
                                  std::move(body));
}

// jump: 'break' ';' | 'continue' ';' | 'return' [expression] ';'
StmtPtr Parser::parse_jump() {
  const Token& keyword = advance();
  const SourceRange start = keyword.range;
  if (keyword.kind == TokenKind::KwGoto) {
    error(start, "not supported: goto");
    return std::make_unique<SimpleStmt>(StmtKind::Null, start);
  }
  if (keyword.kind == TokenKind::KwReturn) {
    if (m_function_returns) return parse_struct_return(start);
    ExprPtr value;
    if (!at(TokenKind::Semicolon)) value = parse_expression();
    expect(TokenKind::Semicolon, "';' after return");
    return std::make_unique<Return>(SourceRange::join(start, previous().range), std::move(value));
  }
  const StmtKind kind = keyword.kind == TokenKind::KwBreak ? StmtKind::Break : StmtKind::Continue;
  expect(TokenKind::Semicolon, kind == StmtKind::Break ? "';' after break" : "';' after continue");
  return std::make_unique<SimpleStmt>(kind, SourceRange::join(start, previous().range));
}

} // namespace fencelab
