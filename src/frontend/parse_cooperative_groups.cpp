// The parser: cooperative groups (CUDA Programming Guide, "Cooperative Groups";
// <cooperative_groups.h> and <cooperative_groups/reduce.h>).
//
// The parser only recognises the syntax: the namespace and its aliases, group types in
// declarations and parameters, calls of the namespace's functions (`cg::NAME<N>(args)` becomes
// a Call to "cooperative_groups::NAME" whose template argument, if any, is its last argument),
// and member calls (`g.sync()`, a Call with an object). Sema decides what each one means and
// lowers it onto the barriers and warp operations the Machine runs (sema_cooperative_groups.cpp);
// every name of the namespace it does not support is reported there, by name, at its place.
#include "fencelab/frontend/parser.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace fencelab {

namespace {

/** Group types of the namespace: these start a declaration. */
constexpr std::array<std::string_view, 8> kGroupTypes = {
    "thread_block", "thread_block_tile", "grid_group",  "coalesced_group",
    "thread_group", "multi_grid_group",  "cluster_group", "thread_block_tile_base"};

/** Every name of the namespace that a bare name may mean after `using namespace
 *  cooperative_groups;`: the group types above, its functions and its function objects. A name
 *  outside this list stays an ordinary name there. */
constexpr std::array<std::string_view, 26> kNamespaceFunctions = {
    "this_thread_block", "this_grid",        "tiled_partition",   "coalesced_threads",
    "sync",              "reduce",           "plus",              "less",
    "greater",           "bit_and",          "bit_or",            "bit_xor",
    "labeled_partition", "binary_partition", "this_multi_grid",   "this_cluster",
    "memcpy_async",      "wait",             "wait_prior",        "inclusive_scan",
    "exclusive_scan",    "invoke_one",       "invoke_one_broadcast", "reduce_update_async",
    "reduce_store_async", "reduce_update_sync"};

/** Names whose call takes a type as template argument (`cg::plus<int>()`). */
bool takes_type_argument(std::string_view name) {
  return name == "plus" || name == "less" || name == "greater" || name == "bit_and" || name == "bit_or" ||
         name == "bit_xor";
}

bool is_group_type(std::string_view name) {
  return std::find(kGroupTypes.begin(), kGroupTypes.end(), name) != kGroupTypes.end();
}

} // namespace

// namespace-alias: 'namespace' identifier '=' [ '::' ] qualified-name ';'
// using-directive: 'using' 'namespace' [ '::' ] name ';'    using-declaration: 'using' name '::' name ';'
bool Parser::parse_cooperative_groups_namespace() {
  auto is_namespace = [this](size_t ahead) {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::Identifier &&
           std::find(m_cooperative_groups_namespaces.begin(), m_cooperative_groups_namespaces.end(),
                     token.text) != m_cooperative_groups_namespaces.end();
  };
  const size_t global = at(TokenKind::KwUsing) && peek(2).kind == TokenKind::ColonColon ? 1 : 0;
  if (at(TokenKind::KwNamespace) && peek(1).kind == TokenKind::Identifier && peek(2).kind == TokenKind::Equal) {
    const size_t skip = peek(3).kind == TokenKind::ColonColon ? 1 : 0;
    if (!is_namespace(3 + skip) || peek(4 + skip).kind != TokenKind::Semicolon) return false;
    m_cooperative_groups_namespaces.emplace_back(peek(1).text);
    for (size_t i = 0; i < 5 + skip; ++i) advance();
    return true;
  }
  if (at(TokenKind::KwUsing) && peek(1).kind == TokenKind::KwNamespace && is_namespace(2 + global) &&
      peek(3 + global).kind == TokenKind::Semicolon) {
    m_using_cooperative_groups = true;
    for (size_t i = 0; i < 4 + global; ++i) advance();
    return true;
  }
  // `using cooperative_groups::thread_block;` makes (at least) that name usable bare.
  if (at(TokenKind::KwUsing) && is_namespace(1) && peek(2).kind == TokenKind::ColonColon &&
      peek(3).kind == TokenKind::Identifier && peek(4).kind == TokenKind::Semicolon) {
    m_using_cooperative_groups = true;
    for (size_t i = 0; i < 5; ++i) advance();
    return true;
  }
  return false;
}

std::optional<size_t> Parser::cooperative_groups_name_at(size_t ahead) const {
  const Token& first = peek(ahead);
  if (first.kind != TokenKind::Identifier) return std::nullopt;
  const bool qualified = std::find(m_cooperative_groups_namespaces.begin(), m_cooperative_groups_namespaces.end(),
                                   first.text) != m_cooperative_groups_namespaces.end();
  if (qualified && peek(ahead + 1).kind == TokenKind::ColonColon && peek(ahead + 2).kind == TokenKind::Identifier)
    return ahead + 2;
  if (!m_using_cooperative_groups) return std::nullopt;
  const bool known = is_group_type(first.text) ||
                     std::find(kNamespaceFunctions.begin(), kNamespaceFunctions.end(), first.text) !=
                         kNamespaceFunctions.end();
  // A bare name is the namespace's only where it is used as the namespace's (a type before a
  // name, a function called): `int sync = 0;` keeps meaning the user's variable.
  if (!known) return std::nullopt;
  const TokenKind next = peek(ahead + 1).kind;
  if (is_group_type(first.text) ? next == TokenKind::Identifier || next == TokenKind::Less || next == TokenKind::Amp
                                : next == TokenKind::LeftParen || next == TokenKind::Less)
    return ahead;
  return std::nullopt;
}

bool Parser::at_group_declaration() const {
  size_t k = at(TokenKind::KwConst) ? 1 : 0;
  if (peek(k).kind == TokenKind::KwAuto) {
    ++k;
    if (peek(k).kind == TokenKind::Amp) ++k;
    // `auto` is taken here only for a group made by the namespace (`auto t =
    // cg::tiled_partition<32>(b);`); any other `auto` stays "not supported" (parse_decl_specifiers).
    return peek(k).kind == TokenKind::Identifier && peek(k + 1).kind == TokenKind::Equal &&
           cooperative_groups_name_at(k + 2).has_value();
  }
  const std::optional<size_t> name = cooperative_groups_name_at(k);
  return name && is_group_type(peek(*name).text);
}

// group-type: [ 'const' ] ( 'auto' | cg-name [ '<' shift-expression '>' ] ) [ 'const' ] [ '&' ]
std::unique_ptr<GroupTypeName> Parser::parse_group_type() {
  auto group = std::make_unique<GroupTypeName>();
  const SourceRange start = peek().range;
  accept(TokenKind::KwConst);
  if (at(TokenKind::KwAuto)) {
    group->name = "auto";
    advance();
  } else {
    const size_t name = cooperative_groups_name_at(0).value_or(0);
    for (size_t i = 0; i < name; ++i) advance();
    group->name = std::string(advance().text);
    if (accept(TokenKind::Less)) {
      group->tile_size = parse_binary(8);
      expect(TokenKind::Greater, "'>' after the tile size");
    }
  }
  accept(TokenKind::KwConst);
  accept(TokenKind::Amp); // a reference to a group names the same group
  group->range = SourceRange::join(start, previous().range);
  return group;
}

// group-declaration: group-type identifier '=' assignment-expression ';'
StmtPtr Parser::parse_group_declaration() {
  const SourceRange start = peek().range;
  auto var = std::make_unique<VarDecl>();
  var->group_type = parse_group_type();
  if (!at(TokenKind::Identifier)) {
    error(peek().range, "expected a name in the declaration");
    return std::make_unique<SimpleStmt>(StmtKind::Null, start);
  }
  const Token& name = advance();
  var->name = std::string(name.text);
  var->name_range = name.range;
  var->storage = StorageKind::Local;
  if (accept(TokenKind::Equal)) var->initializer = parse_assignment_expression();
  else if (at(TokenKind::LeftParen) || at(TokenKind::LeftBrace))
    error(peek().range, "not supported: initializing a cooperative group other than with '='");
  var->range = SourceRange::join(start, previous().range);
  expect(TokenKind::Semicolon, "';' after the declaration");
  std::vector<VarDeclPtr> variables;
  variables.push_back(std::move(var));
  return std::make_unique<Declaration>(SourceRange::join(start, previous().range), std::move(variables));
}

// group-parameter: group-type identifier
VarDeclPtr Parser::parse_group_parameter() {
  auto param = std::make_unique<VarDecl>();
  param->storage = StorageKind::Param;
  const SourceRange start = peek().range;
  param->group_type = parse_group_type();
  param->name_range = {previous().range.end, previous().range.end};
  if (at(TokenKind::Identifier)) {
    const Token& name = advance();
    param->name = std::string(name.text);
    param->name_range = name.range;
  }
  param->range = SourceRange::join(start, previous().range);
  return param;
}

// cg-expression: cg-name [ '<' ( shift-expression | type-name ) '>' ] '(' [ arguments ] ')'
ExprPtr Parser::parse_cooperative_groups_expression() {
  const SourceRange start = peek().range;
  const size_t name_at = cooperative_groups_name_at(0).value_or(0);
  for (size_t i = 0; i < name_at; ++i) advance();
  const Token& name = advance();
  const std::string text(name.text);
  ExprPtr template_argument;
  if (accept(TokenKind::Less)) {
    // cg::plus<int>: the operand type is the reduced value's (sema); cg::tiled_partition<N>: N.
    if (takes_type_argument(text)) parse_type_name();
    else template_argument = parse_binary(8);
    expect(TokenKind::Greater, "'>' after the template argument");
  }
  if (!at(TokenKind::LeftParen)) {
    error(name.range, "not supported: cooperative_groups::" + text + " other than called");
    return placeholder(SourceRange::join(start, previous().range));
  }
  advance();
  std::vector<ExprPtr> args;
  while (!at_end() && !at(TokenKind::RightParen)) {
    args.push_back(parse_assignment_expression());
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightParen, "')' after the arguments");
  if (template_argument) args.push_back(std::move(template_argument));
  return std::make_unique<Call>(SourceRange::join(start, previous().range), "cooperative_groups::" + text,
                                name.range, std::move(args));
}

// member-call: postfix-expression '.' identifier '(' [ arguments ] ')' [ '.' ( x | y | z ) ]
// (the last for the dim3 results of group_index(), thread_index(), group_dim(), dim_threads())
ExprPtr Parser::parse_member_call(ExprPtr object) {
  advance(); // '.'
  const Token& name = advance();
  advance(); // '('
  std::vector<ExprPtr> args;
  while (!at_end() && !at(TokenKind::RightParen)) {
    args.push_back(parse_assignment_expression());
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightParen, "')' after the arguments");
  std::string callee(name.text);
  SourceRange callee_range = name.range;
  if (at(TokenKind::Dot) && peek(1).kind == TokenKind::Identifier && peek(2).kind != TokenKind::LeftParen &&
      (peek(1).text == "x" || peek(1).text == "y" || peek(1).text == "z")) {
    advance();
    callee += "." + std::string(advance().text);
    callee_range = SourceRange::join(name.range, previous().range);
  }
  const SourceRange range = SourceRange::join(object->range, previous().range);
  auto call = std::make_unique<Call>(range, std::move(callee), callee_range, std::move(args));
  call->object = std::move(object);
  return call;
}

} // namespace fencelab
