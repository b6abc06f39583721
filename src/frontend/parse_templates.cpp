// The parser: template headers, the types of type template parameters, explicit arguments.
//
// fencelab instantiates each template once. Non-type parameters take their values from
// `//@ template N=256` (sema folds them); a type parameter `T` stands, in the whole file, for
// the type `//@ template T=float` gives or, failing that, for the one deduced from the
// kernel's buffer arguments: `T* data` with `//@ arg data: float[64]` makes `T` float, as
// C++ deduction from a `float*` argument would ([temp.deduct.call]). Helpers that name the
// same `T` share it; a call that would need a second instantiation is refused by sema.
#include "fencelab/frontend/parser.h"

namespace fencelab {

namespace {

Type unqualified_value_type(Type type) {
  type.is_const = type.is_volatile = false;
  return type;
}

bool same_type(const Type& a, const Type& b) { return a.scalar == b.scalar && a.pointer_depth == b.pointer_depth; }

} // namespace

void Parser::bind_template_types() {
  for (const auto& [name, type] : m_template_hints.given)
    m_template_types[name] = TemplateParam{name, {}, unqualified_value_type(type), true, false};
  std::unordered_map<std::string, Type> deduced;
  std::unordered_map<std::string, bool> conflicting;
  for (size_t i = 0; i + 1 < m_tokens.size(); ++i) {
    if (m_tokens[i].kind != TokenKind::KwTemplate || m_tokens[i + 1].kind != TokenKind::Less) continue;
    const size_t close = matching_close(i + 1, TokenKind::Less, TokenKind::Greater);
    std::vector<std::string> type_names;
    for (size_t k = i + 2; k + 1 < close; ++k)
      if ((m_tokens[k].kind == TokenKind::KwTypename || m_tokens[k].kind == TokenKind::KwClass) &&
          m_tokens[k + 1].kind == TokenKind::Identifier)
        type_names.emplace_back(m_tokens[k + 1].text);
    if (type_names.empty()) continue;
    // The declaration after the header: a kernel when `__global__` comes before its '('.
    bool is_kernel = false;
    size_t k = close + 1;
    for (; k < m_tokens.size(); ++k) {
      const TokenKind kind = m_tokens[k].kind;
      if (kind == TokenKind::KwGlobal) is_kernel = true;
      if (kind == TokenKind::LeftParen || kind == TokenKind::Semicolon || kind == TokenKind::LeftBrace ||
          kind == TokenKind::Equal || kind == TokenKind::EndOfFile)
        break;
    }
    if (!is_kernel || m_tokens[k].kind != TokenKind::LeftParen || m_tokens[k - 1].kind != TokenKind::Identifier) continue;
    if (!m_template_hints.kernel.empty() && m_tokens[k - 1].text != m_template_hints.kernel) continue;
    deduce_from_kernel_parameters(k, type_names, deduced, conflicting);
  }
  for (const auto& [name, type] : deduced)
    if (!conflicting[name] && !m_template_types.count(name))
      m_template_types[name] = TemplateParam{name, {}, type, true, false};
}

// Each parameter `[const] T * NAME` whose NAME is a buffer argument with element type E
// deduces T = E; parameters are split at the commas outside brackets.
void Parser::deduce_from_kernel_parameters(size_t open_paren, const std::vector<std::string>& type_names,
                                           std::unordered_map<std::string, Type>& deduced,
                                           std::unordered_map<std::string, bool>& conflicting) const {
  const size_t close = matching_close(open_paren, TokenKind::LeftParen, TokenKind::RightParen);
  size_t begin = open_paren + 1;
  int depth = 0;
  for (size_t k = begin; k <= close; ++k) {
    const TokenKind kind = m_tokens[k].kind;
    if (kind == TokenKind::LeftParen || kind == TokenKind::LeftBracket || kind == TokenKind::Less) ++depth;
    else if ((kind == TokenKind::RightParen || kind == TokenKind::RightBracket || kind == TokenKind::Greater) && k != close)
      --depth;
    if (!(k == close || (kind == TokenKind::Comma && depth == 0))) continue;
    // One parameter: tokens [begin, k), without a default argument.
    size_t end = begin;
    while (end < k && m_tokens[end].kind != TokenKind::Equal) ++end;
    std::string type_name, param_name;
    int stars = 0;
    for (size_t t = begin; t < end; ++t) {
      const Token& token = m_tokens[t];
      if (token.kind == TokenKind::Star && !type_name.empty()) ++stars;
      if (token.kind != TokenKind::Identifier) continue;
      param_name = std::string(token.text);
      for (const std::string& candidate : type_names)
        if (type_name.empty() && token.text == candidate) type_name = candidate;
    }
    begin = k + 1;
    if (type_name.empty() || param_name == type_name || stars != 1) continue;
    const auto buffer = m_template_hints.buffer_element_types.find(param_name);
    if (buffer == m_template_hints.buffer_element_types.end()) continue;
    const Type element = unqualified_value_type(buffer->second);
    const auto [it, fresh] = deduced.emplace(type_name, element);
    if (!fresh && !same_type(it->second, element)) conflicting[type_name] = true;
  }
}

// template-header: 'template' '<' template-param { ',' template-param } '>'
// template-param: type-specifiers identifier [ '=' constant ]
//               | ( 'typename' | 'class' ) identifier [ '=' type-name ]
std::vector<TemplateParam> Parser::parse_template_header() {
  std::vector<TemplateParam> params;
  advance(); // template
  if (!expect(TokenKind::Less, "'<' after 'template'")) return params;
  while (!at_end() && !at(TokenKind::Greater)) {
    if (at(TokenKind::KwTypename) || at(TokenKind::KwClass)) {
      advance();
      if (!at(TokenKind::Identifier)) {
        error(peek().range, "expected a template parameter name");
        break;
      }
      const Token& name = advance();
      std::optional<Type> default_type;
      if (accept(TokenKind::Equal)) default_type = parse_type_name();
      auto [bound, fresh] = m_template_types.emplace(std::string(name.text), TemplateParam{});
      if (fresh) {
        // Neither given nor deduced: the default, else `int` standing in (and unusable).
        bound->second = TemplateParam{std::string(name.text), name.range,
                                      default_type ? unqualified_value_type(*default_type) : Type::of(ScalarType::Int),
                                      true, !default_type};
      }
      TemplateParam param = bound->second;
      param.range = name.range;
      m_type_aliases[param.name] = param.type;
      params.push_back(std::move(param));
    } else {
      DeclSpecifiers spec;
      parse_decl_specifiers(spec);
      if (!spec.has_type || !spec.type.is_integer()) {
        error(peek().range, "expected an integer template parameter");
      }
      if (at(TokenKind::Identifier)) {
        const Token& name = advance();
        params.push_back({std::string(name.text), name.range, spec.type});
      } else {
        error(peek().range, "expected a template parameter name");
      }
      if (accept(TokenKind::Equal)) parse_conditional_expression(); // default: ignored
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::Greater, "'>' to end the template parameters");
  return params;
}

// template-args: '<' template-arg { ',' template-arg } '>'
// template-arg: shift-expression (a value parameter: its own name, since values come from
//               `//@ template`) | type-name (a type parameter: the type it stands for)
void Parser::parse_explicit_template_arguments(const std::vector<TemplateParam>& params) {
  advance(); // <
  size_t index = 0;
  while (!at_end() && !at(TokenKind::Greater)) {
    const TemplateParam* param = index < params.size() ? &params[index] : nullptr;
    if (param && param->is_type) {
      const SourceRange start = peek().range;
      const std::optional<Type> type = parse_type_name();
      if (type && param->is_unbound) {
        error(start, "template type parameter '" + param->name + "' has no type here: fencelab instantiates a "
                     "template once, with the type //@ template " + param->name + "=TYPE gives");
      } else if (type && !same_type(*type, param->type)) {
        error(SourceRange::join(start, previous().range),
              "not supported: a second instantiation of a template ('" + param->name + "' is '" +
                  param->type.to_string() + "' in this file, from //@ template or the kernel's arguments)");
      }
    } else {
      ExprPtr arg = parse_binary(8);
      const bool same = arg->kind == ExprKind::NameRef && param && as<NameRef>(*arg).name == param->name;
      if (!same)
        error(arg->range, "not supported: explicit template arguments other than the parameter's "
                          "own name (template values come from //@ template)");
    }
    ++index;
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::Greater, "'>' after the template arguments");
}

} // namespace fencelab
