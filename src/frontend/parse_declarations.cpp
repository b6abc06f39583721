// The parser: file-scope declarations, functions and variables.
#include "fencelab/frontend/parser.h"

#include <algorithm>

namespace fencelab {

// translation-unit: { top-level-declaration }
TranslationUnit Parser::parse_translation_unit() {
  TranslationUnit unit;
  bind_template_types();
  int linkage_blocks = 0; // open `extern "C" {`
  while (!at_end()) {
    const size_t before = m_pos;
    // A linkage block (`extern "C" { ... }`, C++ [dcl.link]) changes only the names the host
    // links by: its declarations are read as if it were not there.
    if (at(TokenKind::KwExtern) && peek(1).kind == TokenKind::StringLiteral && peek(2).kind == TokenKind::LeftBrace) {
      for (int k = 0; k < 3; ++k) advance();
      ++linkage_blocks;
    } else if (linkage_blocks > 0 && at(TokenKind::RightBrace)) {
      advance();
      --linkage_blocks;
    } else if (!parse_cooperative_groups_namespace() && !skip_host_declaration(unit)) {
      parse_top_level(unit);
    }
    for (FunctionDeclPtr& method : m_struct_functions) unit.functions.push_back(std::move(method));
    m_struct_functions.clear();
    for (VarDeclPtr& global : m_pending_globals) unit.globals.push_back(std::move(global));
    m_pending_globals.clear();
    if (m_pos == before) advance(); // always make progress
    clear_panic();
  }
  note_host_code(unit);
  // A variable only declared extern is defined in another file, which fencelab does not see.
  // (A pair, not a structured binding: clang 14, the fuzz build's, cannot capture one.)
  for (const std::pair<std::string, SourceRange>& declared : m_extern_declarations) {
    const std::string& name = declared.first;
    const auto defined = [&name](const VarDeclPtr& global) { return global->name == name; };
    if (std::none_of(unit.globals.begin(), unit.globals.end(), defined))
      error(declared.second, "not supported: extern variable '" + name + "' defined in another file (define it in this one)");
  }
  return unit;
}

bool Parser::initializer_follows() const {
  int depth = 0;
  for (size_t k = m_pos; k < m_tokens.size(); ++k) {
    switch (m_tokens[k].kind) {
    case TokenKind::LeftParen: case TokenKind::LeftBracket: ++depth; break;
    case TokenKind::RightParen: case TokenKind::RightBracket: --depth; break;
    case TokenKind::Equal: case TokenKind::LeftBrace: if (depth == 0) return true; break;
    case TokenKind::Semicolon: case TokenKind::EndOfFile: return false;
    default: break;
    }
  }
  return false;
}

void Parser::skip_extern_declaration() {
  for (size_t k = m_pos; k < m_tokens.size() && m_tokens[k].kind != TokenKind::Semicolon; ++k)
    if (m_tokens[k].kind == TokenKind::Identifier) {
      m_extern_declarations.emplace_back(std::string(m_tokens[k].text), m_tokens[k].range);
      break;
    }
  skip_past_semicolon();
}

void Parser::skip_past_semicolon() {
  while (!at_end() && advance().kind != TokenKind::Semicolon) {}
}

void Parser::skip_unsupported_block(SourceRange range, const std::string& feature) {
  error(range, "not supported: " + feature);
  // Skip to the `;` ending the construct, or past its balanced `{...}` (and a `;` after it).
  int depth = 0;
  while (!at_end()) {
    const TokenKind kind = advance().kind;
    if (kind == TokenKind::LeftBrace) ++depth;
    else if (kind == TokenKind::RightBrace && depth > 0 && --depth == 0) {
      accept(TokenKind::Semicolon);
      break;
    } else if (kind == TokenKind::Semicolon && depth == 0) break;
  }
}

// top-level-declaration: [template-header] decl-specifiers pointers identifier
//                        ( function-rest | variable-rest )
void Parser::parse_top_level(TranslationUnit& unit) {
  if (accept(TokenKind::Semicolon)) return;
  std::vector<TemplateParam> template_params;
  const bool templated = at(TokenKind::KwTemplate);
  if (templated && peek(1).kind != TokenKind::Less) {
    // An explicit instantiation (`template void reduce<int>(...);`, C++ [temp.explicit]) adds
    // no code: a template's parameters are bound once per file here.
    return skip_past_semicolon();
  }
  // A specialized struct is read below (the SharedMemory idiom, else named there).
  if (templated && peek(1).kind == TokenKind::Less && peek(2).kind == TokenKind::Greater &&
      peek(3).kind != TokenKind::KwStruct && peek(3).kind != TokenKind::KwClass)
    return skip_unsupported_block(peek().range, "explicit specializations of function templates (`template <>`)");
  if (templated) template_params = parse_template_header();
  const Token& first = peek();
  switch (first.kind) {
  case TokenKind::KwStruct: case TokenKind::KwClass: case TokenKind::KwUnion:
    if (at_elaborated_struct()) break; // `struct S s;`: a variable
    if (templated && parse_shared_memory_template()) return;
    if (templated) {
      if (!m_first_unsupported_template) m_first_unsupported_template = first.range;
      return skip_unsupported_block(first.range, "struct and class templates");
    }
    return parse_struct_definition(false);
  case TokenKind::KwEnum:
    if (!template_params.empty()) error(first.range, "not supported: enumeration templates");
    for (VarDeclPtr& enumerator : parse_enum(StorageKind::Constant)) unit.globals.push_back(std::move(enumerator));
    return;
  case TokenKind::KwTypedef: case TokenKind::KwUsing:
    if (!template_params.empty()) return skip_unsupported_block(first.range, "alias templates");
    return parse_type_alias(true);
  case TokenKind::KwNamespace: return skip_unsupported_block(first.range, "namespaces");
  default: break;
  }
  DeclSpecifiers spec;
  parse_decl_specifiers(spec);
  if (!spec.has_type) {
    if (at(TokenKind::KwStruct) || at(TokenKind::KwClass) || at(TokenKind::KwUnion))
      return skip_unsupported_block(peek().range, "a struct or class defined after qualifiers");
    error(peek().range, "expected a declaration, found '" + std::string(peek().text) + "'");
    return skip_unsupported_block(peek().range, "");
  }
  const size_t declarator_start = m_pos;
  const Type type = parse_pointers(spec.type);
  if (!at(TokenKind::Identifier)) {
    if (at(TokenKind::KwOperator)) return skip_unsupported_block(peek().range, "operator overloading");
    error(peek().range, "expected a name in the declaration");
    return skip_unsupported_block(peek().range, "");
  }
  if (peek(1).kind == TokenKind::LeftParen) {
    const Token name = advance();
    if (spec.vector && type.is_pointer())
      error(spec.range, "not supported: a function returning a pointer to " + spec.vector->name);
    if (!spec.vector || type.is_pointer()) return parse_function(unit, spec, type, name, std::move(template_params));
    m_function_returns = *spec.vector; // through its destination (parse_struct_returns.cpp)
    parse_function(unit, spec, Type::of(ScalarType::Void), name, std::move(template_params));
    m_function_returns.reset();
    return;
  }
  if (!template_params.empty()) error(first.range, "not supported: variable templates");
  m_pos = declarator_start;
  StorageKind storage = StorageKind::Global;
  // An extern variable without an initializer is a declaration, not a definition (C++
  // [basic.def]p2), as in a header that declares what a source file defines: the definition
  // later in this file is the variable. With an initializer it is that definition.
  if (spec.is_extern && !spec.is_shared) {
    if (!initializer_follows()) return skip_extern_declaration();
    spec.is_extern = false;
  }
  if (spec.is_shared) storage = StorageKind::Shared;
  else if (spec.is_constant) storage = StorageKind::Constant;
  else if (spec.is_device) storage = StorageKind::Global;
  else if (spec.type.is_const) storage = StorageKind::Constant; // `const int N = 4;`
  else {
    return skip_unsupported_block(
        peek().range, "host variable '" + std::string(peek().text) +
                          "' (declare it __device__, __shared__ or __constant__)");
  }
  parse_variables(unit.globals, spec, storage);
}

// function-rest: '(' [ 'void' | parameter { ',' parameter } ] ')' ( compound | ';' )
void Parser::parse_function(TranslationUnit& unit, const DeclSpecifiers& spec, Type return_type,
                            const Token& name, std::vector<TemplateParam> template_params) {
  auto function = std::make_unique<FunctionDecl>();
  // A member function is recorded (vector and reference parameters) under its lowered name.
  function->name = m_method ? m_method->lowered : std::string(name.text);
  function->name_range = name.range;
  function->return_type = return_type;
  function->template_params = std::move(template_params);
  const SourceRange start = spec.range.end > 0 ? spec.range : name.range;
  expect(TokenKind::LeftParen, "'('");
  if (at(TokenKind::KwVoid) && peek(1).kind == TokenKind::RightParen) advance();
  m_in_function = true; // names declared from here on are this function's
  m_vector_locals.clear();
  m_reference_locals.clear();
  m_shared_memory_objects.clear();
  m_half_names_local = false;
  add_object_parameters(*function); // a member function's object (parse_struct_methods.cpp)
  add_result_parameters(*function); // a returned struct's destination (parse_struct_returns.cpp)
  std::vector<std::optional<VectorType>> vector_parameters;
  std::vector<bool> reference_parameters;
  while (!at_end() && !at(TokenKind::RightParen)) {
    if (at(TokenKind::Ellipsis)) {
      error(peek().range, "not supported: variadic functions");
      advance();
    } else {
      VarDeclPtr param = parse_parameter();
      reference_parameters.push_back(m_parameter_reference);
      declare_reference_name(param->name, m_parameter_reference);
      if (m_parameter_reference && spec.is_global)
        error(param->range, "not supported: a reference parameter of a __global__ function (kernel arguments "
                            "are passed by value; pass a pointer)");
      const std::optional<VectorType> vector = m_parameter_vector;
      vector_parameters.push_back(vector && !param->type.is_pointer() ? vector : std::nullopt);
      if (vector_parameters.back()) { // a kernel's takes one argument per field: `//@ arg s.f = 1`
        for (VarDeclPtr& field : expand_vector_parameter(std::move(param), *vector))
          function->params.push_back(std::move(field));
      } else {
        if (vector && !vector->layout_problem.empty())
          error(param->range, "not supported: a pointer to " + vector->name + " (it has " + vector->layout_problem +
                                  "; structs lie in memory here only when their fields are scalars of one size)");
        declare_vector_name(param->name, vector ? std::optional<VectorVariable>(VectorVariable{*vector, true})
                                                : std::nullopt);
        function->params.push_back(std::move(param));
      }
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightParen, "')' after the parameters");
  if (m_method) accept(TokenKind::KwConst); // a const member function: its object is not written
  std::vector<StmtPtr> member_initializers = parse_member_initializers();
  // A definition of a CUDA math function's name is set aside (Sema::declare_functions): its
  // calls are the builtin's, whose arguments are values.
  const BuiltinInfo* builtin = find_builtin(function->name);
  const bool shadows_math = builtin != nullptr && builtin->category == BuiltinCategory::Math;
  if (!shadows_math &&
      std::any_of(vector_parameters.begin(), vector_parameters.end(), [](const auto& v) { return v.has_value(); }))
    m_vector_parameters[function->name] = std::move(vector_parameters);
  if (!shadows_math &&
      std::find(reference_parameters.begin(), reference_parameters.end(), true) != reference_parameters.end())
    m_reference_parameters[function->name] = std::move(reference_parameters);

  if (spec.is_global) function->space = FunctionSpace::Global;
  else if (spec.is_device && spec.is_host) function->space = FunctionSpace::HostDevice;
  else if (spec.is_device) function->space = FunctionSpace::Device;
  else function->space = FunctionSpace::Host;
  if (spec.is_global && (spec.is_device || spec.is_host))
    error(name.range, "a __global__ function cannot also be __device__ or __host__");

  if (function->space == FunctionSpace::Host) {
    error(name.range, "not supported: host code (function '" + function->name +
                          "' is neither __global__ nor __device__)");
    if (at(TokenKind::LeftBrace)) {
      int depth = 0;
      do {
        const TokenKind kind = advance().kind;
        if (kind == TokenKind::LeftBrace) ++depth;
        else if (kind == TokenKind::RightBrace) --depth;
      } while (depth > 0 && !at_end());
    } else {
      accept(TokenKind::Semicolon);
    }
    m_in_function = false;
    return;
  }
  if (!function->template_params.empty()) m_template_functions[function->name] = function->template_params;
  if (at(TokenKind::LeftBrace)) {
    function->body = parse_compound();
    function->body->body.insert(function->body->body.begin(), std::make_move_iterator(member_initializers.begin()),
                                std::make_move_iterator(member_initializers.end()));
  } else {
    expect(TokenKind::Semicolon, "'{' or ';' after the function declarator");
  }
  m_in_function = false;
  function->range = SourceRange::join(start, previous().range);
  unit.functions.push_back(std::move(function));
}

// parameter: decl-specifiers pointers [identifier] [ '[' [N] ']' ] [ '=' assignment-expression ]
VarDeclPtr Parser::parse_parameter() {
  if (at_group_declaration()) return parse_group_parameter();
  auto param = std::make_unique<VarDecl>();
  param->storage = StorageKind::Param;
  DeclSpecifiers spec;
  const SourceRange start = peek().range;
  parse_decl_specifiers(spec);
  m_parameter_vector = spec.vector;
  if (!spec.has_type) error(start, "expected a parameter type, found '" + std::string(peek().text) + "'");
  param->type = parse_pointers(spec.type, &m_parameter_reference);
  if (m_parameter_reference) {
    param->type = reference_type(param->type, spec.vector, previous().range);
    if (spec.vector) m_parameter_reference = false;
  }
  param->template_type = spec.template_type;
  param->name_range = {start.begin, start.begin};
  if (at(TokenKind::Identifier)) {
    const Token& name = advance();
    param->name = std::string(name.text);
    param->name_range = name.range;
    note_declared_name(param->name);
  }
  if (accept(TokenKind::LeftBracket)) { // `int a[]` and `int a[N]` are `int* a`
    while (!at_end() && !at(TokenKind::RightBracket) && !at(TokenKind::RightParen)) advance();
    expect(TokenKind::RightBracket, "']'");
    param->type = Type::pointer_to(param->type);
  }
  if (accept(TokenKind::Equal)) param->initializer = parse_assignment_expression();
  param->range = SourceRange::join(start, previous().range);
  return param;
}

// variable-rest: declarator { ',' declarator } ';'
// declarator: pointers identifier [ '[' [constant-expression] ']' ] [ initializer ]
void Parser::parse_variables(std::vector<VarDeclPtr>& out, const DeclSpecifiers& spec,
                             StorageKind storage) {
  do {
    auto var = std::make_unique<VarDecl>();
    var->storage = storage;
    var->is_static = spec.is_static;
    var->dynamic_shared = spec.is_extern && spec.is_shared;
    bool reference = false;
    var->type = parse_pointers(spec.type, m_in_function ? &reference : nullptr);
    var->deduced_type = spec.is_auto;
    if (reference && spec.is_auto) {
      error(previous().range, "not supported: 'auto&' (write the type)");
      reference = false;
    } else if (reference) {
      var->type = reference_type(var->type, spec.vector, previous().range);
    }
    if (!at(TokenKind::Identifier)) {
      error(peek().range, "expected a variable name, found '" + std::string(peek().text) + "'");
      return;
    }
    const Token& name = advance();
    var->name = std::string(name.text);
    var->name_range = name.range;
    note_declared_name(var->name);
    if (spec.vector) {
      parse_vector_declarator(out, spec, std::move(var));
      continue;
    }
    declare_vector_name(var->name, std::nullopt);
    var = parse_declarator_rest(std::move(var));
    if (spec.is_auto) check_auto_declarator(*var, storage);
    if (reference) {
      if (!var->initializer || !var->array_extents.empty())
        error(var->name_range, "the reference '" + var->name + "' needs an object to refer to ('T& " + var->name +
                                   " = variable;')");
      else var->initializer = bind_reference(std::move(var->initializer), "the reference '" + var->name + "'");
    }
    // Declared after its initializer, which may use an outer variable of the same name.
    declare_reference_name(var->name, reference);
    out.push_back(std::move(var));
  } while (accept(TokenKind::Comma));
  expect(TokenKind::Semicolon, "';' after the declaration");
}

void Parser::check_auto_declarator(VarDecl& var, StorageKind storage) {
  if (storage != StorageKind::Local)
    return error(var.name_range, "not supported: 'auto' for a __shared__ variable (write the type)");
  if (!var.array_extents.empty()) return error(var.name_range, "'auto' cannot declare an array");
  if (!var.initializer)
    return error(var.name_range, "'auto' variable '" + var.name + "' needs an initializer to take its type from");
  if (var.initializer->kind == ExprKind::InitList)
    return error(var.initializer->range, "not supported: 'auto' with a braced initializer (write the type)");
  if (const VectorType* element = sequence_type(*var.initializer)) {
    declare_vector_name(var.name, VectorVariable{*element, true});
    var.field_types = element->struct_field_types;
  }
}

VarDeclPtr Parser::parse_declarator_rest(VarDeclPtr var) {
  if (at(TokenKind::LeftBracket)) {
    const SourceRange open = advance().range;
    var->array_extents.push_back(at(TokenKind::RightBracket) ? nullptr : parse_expression());
    expect(TokenKind::RightBracket, "']'");
    // Further dimensions (`float tile[32][33]`), each with its size (C++ [dcl.array]/3).
    while (at(TokenKind::LeftBracket)) {
      const SourceRange bracket = advance().range;
      if (at(TokenKind::RightBracket)) error(SourceRange::join(open, bracket), "only the first dimension of an array may be left out");
      else var->array_extents.push_back(parse_expression());
      expect(TokenKind::RightBracket, "']'");
      if (var->array_extents.size() > 4) {
        error(SourceRange::join(open, previous().range), "not supported: arrays of more than 4 dimensions");
        break;
      }
    }
  }
  if (accept(TokenKind::Equal) || at(TokenKind::LeftBrace)) {
    var->initializer = parse_initializer();
  } else if (at(TokenKind::LeftParen)) { // `int x(5);`
    advance();
    var->initializer = parse_assignment_expression();
    expect(TokenKind::RightParen, "')'");
  }
  var->range = SourceRange::join(var->name_range, previous().range);
  return var;
}

// initializer: assignment-expression | '{' [ assignment-expression { ',' assignment-expression } [','] ] '}'
ExprPtr Parser::parse_initializer() {
  if (!at(TokenKind::LeftBrace)) return parse_assignment_expression();
  const SourceRange open = advance().range;
  std::vector<ExprPtr> elements;
  while (!at_end() && !at(TokenKind::RightBrace)) {
    if (at(TokenKind::LeftBrace)) {
      error(peek().range, "not supported: nested initializer lists");
      return placeholder(open);
    }
    elements.push_back(parse_assignment_expression());
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RightBrace, "'}' to end the initializer list");
  return std::make_unique<InitList>(SourceRange::join(open, previous().range), std::move(elements));
}

} // namespace fencelab
