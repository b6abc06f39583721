// CUDA's built-in vector types (Programming Guide, "Built-in Vector Types"): `int2`, `float4`,
// `uint3`, `dim3` and the rest, lowered by the parser onto scalars.
//
// fencelab's values are scalars, so a vector is never a value of its own:
// - a vector variable (a local, parameter, or `__device__`/`__shared__` scalar) is one scalar
//   variable per field, named `v.x`, `v.y`, `v.z`, `v.w`;
// - a pointer to vectors is a pointer to their fields, and an array of N vectors an array of
//   N * width fields: element i's field k is at i * width + k, the layout CUDA gives them
//   (the fields are contiguous, in order);
// - a whole vector (`make_float4(...)`, `v`, `p[i]`, `threadIdx`, `dim3(...)`) is read field by
//   field where one is expected: an initializer, an assignment `v = ...`/`p[i] = ...`, a call's
//   argument for a vector parameter. Its tokens are parsed once per field, so an index in it
//   must be free of side effects, calls and memory reads (each field would repeat them).
// A vector load or store is therefore `width` accesses of the field's size, one per field: the
// hardware's single 8- or 16-byte access is not modelled as one event.
#include "fencelab/frontend/parser.h"
#include "vector_lowering.h"

#include <fmt/format.h>

namespace fencelab {

using vector_lowering::integer;
using vector_lowering::is_assignment_token;

namespace {

constexpr char kFieldNames[] = "xyzw";

/** A binary operator (or `?`) that could follow a whole vector as an operand. */
bool is_operator_after_value(TokenKind kind) {
  switch (kind) {
  case TokenKind::Plus: case TokenKind::Minus: case TokenKind::Star: case TokenKind::Slash: case TokenKind::Percent:
  case TokenKind::Amp: case TokenKind::Pipe: case TokenKind::Caret: case TokenKind::LessLess:
  case TokenKind::GreaterGreater: case TokenKind::Less: case TokenKind::Greater: case TokenKind::LessEqual:
  case TokenKind::GreaterEqual: case TokenKind::EqualEqual: case TokenKind::BangEqual: case TokenKind::AmpAmp:
  case TokenKind::PipePipe: case TokenKind::Question:
    return true;
  default:
    return false;
  }
}

const char* article(const std::string& noun) {
  return !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos ? "an" : "a";
}

VectorType builtin_vector(ScalarType scalar, uint8_t width, bool is_dim3, std::string name) {
  VectorType type;
  type.scalar = scalar;
  type.width = width;
  type.is_dim3 = is_dim3;
  type.name = std::move(name);
  return type;
}

bool same_vector_type(const VectorType& a, const VectorType& b) {
  // A struct converts to itself only (C++ [class.name]: each definition is a distinct type).
  if (a.is_struct() || b.is_struct()) return a.name == b.name;
  // dim3 is a uint3 with a constructor (vector_types.h): the two convert to each other.
  return a.scalar == b.scalar && a.width == b.width;
}

std::optional<BuiltinVariableKind> builtin_vector_named(std::string_view name) {
  if (name == "threadIdx") return BuiltinVariableKind::ThreadIdx;
  if (name == "blockIdx") return BuiltinVariableKind::BlockIdx;
  if (name == "blockDim") return BuiltinVariableKind::BlockDim;
  if (name == "gridDim") return BuiltinVariableKind::GridDim;
  return std::nullopt;
}


/** The type of the variable that holds field `k` of a vector or struct variable of type
 *  `variable`: the variable's qualifiers, the field's own type (a pointer field stays one). */
Type field_variable_type(const Type& variable, const VectorType& type, uint8_t k) {
  Type field = variable;
  field.scalar = type.field_scalar(k);
  if (k < type.struct_field_declared.size()) {
    const Type& declared = type.struct_field_declared[k];
    field.scalar = declared.scalar;
    field.pointer_depth = declared.pointer_depth;
    field.pointee_const = declared.pointee_const;
    field.pointee_volatile = declared.pointee_volatile;
  }
  return field;
}

} // namespace

namespace vector_lowering {

bool is_assignment_token(TokenKind kind) {
  switch (kind) {
  case TokenKind::Equal: case TokenKind::PlusEqual: case TokenKind::MinusEqual: case TokenKind::StarEqual:
  case TokenKind::SlashEqual: case TokenKind::PercentEqual: case TokenKind::AmpEqual: case TokenKind::PipeEqual:
  case TokenKind::CaretEqual: case TokenKind::LessLessEqual: case TokenKind::GreaterGreaterEqual:
  case TokenKind::PlusPlus: case TokenKind::MinusMinus:
    return true;
  default:
    return false;
  }
}

ExprPtr integer(SourceRange range, uint64_t value, ScalarType scalar) {
  return std::make_unique<Literal>(ExprKind::IntegerLiteral, range, value, Type::of(scalar));
}

} // namespace vector_lowering

std::string_view VectorType::field_name(uint8_t k) const {
  return is_struct() ? std::string_view(struct_fields[k]) : std::string_view(kFieldNames).substr(k, 1);
}

std::string VectorType::field_list() const {
  if (!is_struct()) return std::string(std::string_view(kFieldNames).substr(0, width));
  std::string list;
  for (const std::string& field : struct_fields) {
    if (!list.empty()) list += ", ";
    list += field;
  }
  return list;
}

std::optional<VectorType> Parser::named_vector_type(std::string_view name) const {
  if (const auto found = m_struct_types.find(std::string(name)); found != m_struct_types.end()) return found->second;
  return vector_type_named(name);
}

std::optional<VectorType> vector_type_named(std::string_view name) {
  if (name == "dim3") return builtin_vector(ScalarType::UInt, 3, true, "dim3");
  static constexpr std::pair<std::string_view, ScalarType> bases[] = {
      {"char", ScalarType::Char},         {"uchar", ScalarType::UChar},   {"short", ScalarType::Short},
      {"ushort", ScalarType::UShort},     {"int", ScalarType::Int},       {"uint", ScalarType::UInt},
      {"long", ScalarType::Long},         {"ulong", ScalarType::ULong},   {"longlong", ScalarType::LongLong},
      {"ulonglong", ScalarType::ULongLong}, {"float", ScalarType::Float}, {"double", ScalarType::Double}};
  if (name.size() < 2 || name.back() < '1' || name.back() > '4') return std::nullopt;
  const std::string_view stem = name.substr(0, name.size() - 1);
  for (const auto& [base, scalar] : bases)
    if (stem == base) return builtin_vector(scalar, uint8_t(name.back() - '0'), false, std::string(name));
  return std::nullopt;
}

size_t Parser::matching_close(size_t open, TokenKind opening, TokenKind closing) const {
  int depth = 0;
  for (size_t i = open; i < m_tokens.size(); ++i) {
    if (m_tokens[i].kind == opening) ++depth;
    else if (m_tokens[i].kind == closing && --depth == 0) return i;
    else if (m_tokens[i].kind == TokenKind::EndOfFile) return i;
  }
  return m_tokens.size() - 1;
}

const Parser::VectorVariable* Parser::vector_variable(const std::string& name) const {
  if (const auto local = m_vector_locals.find(name); local != m_vector_locals.end())
    return local->second ? &*local->second : nullptr;
  const auto global = m_vector_globals.find(name);
  return global != m_vector_globals.end() ? &global->second : nullptr;
}

void Parser::declare_vector_name(const std::string& name, std::optional<VectorVariable> variable) {
  if (m_in_function) {
    m_vector_locals[name] = std::move(variable);
  } else if (variable) {
    m_vector_globals[name] = *variable;
  } else {
    m_vector_globals.erase(name);
  }
}

void Parser::parse_vector_declarator(std::vector<VarDeclPtr>& out, const DeclSpecifiers& spec, VarDeclPtr var) {
  const VectorType& type = *spec.vector;
  if (var->type.is_pointer() || at(TokenKind::LeftBracket)) {
    // A pointer to, or an array of, vectors: their fields in a row.
    if (!type.layout_problem.empty())
      error(var->name_range, fmt::format("not supported: {} {} (it has {}; structs lie in memory here only when "
                                         "their fields are scalars of one size)",
                                         var->type.is_pointer() ? "a pointer to" : "an array of", type.name,
                                         type.layout_problem));
    var = parse_declarator_rest(std::move(var));
    if (var->type.pointer_depth > 1) error(var->name_range, "not supported: a pointer to a pointer to " + type.name);
    if (!var->array_extents.empty()) {
      if (var->type.is_pointer()) error(var->name_range, "not supported: an array of pointers to " + type.name);
      if (var->array_extents.size() > 1)
        error(var->range, "not supported: a multi-dimensional array of " + type.name);
      if (var->initializer) error(var->initializer->range, "not supported: an initializer of an array of " + type.name);
      // `extern __shared__ float4 s[]` stays unsized: its fields take the launch's bytes.
      if (ExprPtr& extent = var->array_extents.front()) {
        const SourceRange range = extent->range;
        extent = std::make_unique<Binary>(range, BinaryOp::Multiply, std::move(extent),
                                          integer(range, type.width, ScalarType::Int));
      }
    }
    declare_vector_name(var->name, VectorVariable{type, true});
    var->field_types = type.struct_field_types;
    out.push_back(std::move(var));
    return;
  }
  // A vector value: one scalar variable per field.
  std::vector<ExprPtr> fields;
  const bool constructed = type.is_struct() && type.method(type.name) && !at(TokenKind::Equal);
  const bool equal = accept(TokenKind::Equal);
  ExprPtr returning_call; // `S s = f(a);`: f writes s's fields (parse_struct_returns.cpp)
  if (equal && struct_returning_call_at(type)) {
    std::vector<ExprPtr> destination;
    for (uint8_t k = 0; k < type.width; ++k)
      destination.push_back(std::make_unique<NameRef>(var->name_range, var->name + "." + std::string(type.field_name(k))));
    returning_call = parse_struct_returning_call(field_addresses(std::move(destination)));
    if (var->storage != StorageKind::Local)
      error(returning_call->range, "not supported: initializing a __device__ or __shared__ " + type.name +
                                       " with a call (CUDA runs no code to initialize them)");
  }
  if (constructed || returning_call) {
    // Its fields are declared first, then constructed or returned into.
  } else if (at(TokenKind::LeftBrace)) {
    // `= {a, b}`: aggregate initialization; fields not given are zero (C++ [dcl.init.aggr]).
    const SourceRange open = advance().range;
    while (!at_end() && !at(TokenKind::RightBrace)) {
      if (fields.size() == type.width) {
        error(peek().range, fmt::format("too many values for a {} ({} fields)", type.name, type.width));
        break;
      }
      fields.push_back(parse_assignment_expression());
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightBrace, "'}' to end the initializer list");
    while (fields.size() < type.width) fields.push_back(integer(open, 0, ScalarType::Int));
  } else if (equal) {
    fields = parse_vector_value(type);
  } else if (at(TokenKind::LeftParen)) { // `dim3 grid(4, 2);`
    const SourceRange open = advance().range;
    while (!at_end() && !at(TokenKind::RightParen)) {
      fields.push_back(parse_assignment_expression());
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightParen, "')' after the arguments");
    const SourceRange range = SourceRange::join(open, previous().range);
    if (!type.is_dim3) error(range, "not supported: a constructor call for " + type.name + " (use make_" + type.name + ")");
    else if (fields.size() > 3) error(range, "dim3 takes up to 3 arguments");
    while (fields.size() < type.width) fields.push_back(integer(range, 1, ScalarType::UInt));
  } else if (type.is_dim3) {
    // dim3's constructor gives each field it is not given the value 1 (vector_types.h).
    for (uint8_t k = 0; k < 3; ++k) fields.push_back(integer(var->name_range, 1, ScalarType::UInt));
  }
  for (uint8_t k = 0; k < type.width; ++k) {
    auto field = std::make_unique<VarDecl>();
    field->name = var->name + "." + std::string(type.field_name(k));
    field->range = SourceRange::join(var->name_range, previous().range);
    field->name_range = var->name_range;
    field->storage = var->storage;
    field->is_static = var->is_static;
    field->type = field_variable_type(var->type, type, k);
    if (k < fields.size()) field->initializer = std::move(fields[k]);
    out.push_back(std::move(field));
  }
  declare_vector_name(var->name, VectorVariable{type, false});
  if (constructed) construct_struct_variable(out, type, *var);
  if (returning_call) out.push_back(hidden_call_variable(*var, std::move(returning_call), "returned"));
}

std::vector<VarDeclPtr> Parser::expand_vector_parameter(VarDeclPtr param, const VectorType& type) {
  std::vector<VarDeclPtr> fields;
  if (param->initializer) error(param->initializer->range, "not supported: a default argument for a " + type.name);
  for (uint8_t k = 0; k < type.width; ++k) {
    auto field = std::make_unique<VarDecl>();
    field->name = param->name + "." + std::string(type.field_name(k));
    field->range = param->range;
    field->name_range = param->name_range;
    field->storage = param->storage;
    field->type = field_variable_type(param->type, type, k);
    fields.push_back(std::move(field));
  }
  declare_vector_name(param->name, VectorVariable{type, false});
  return fields;
}

std::vector<ExprPtr> Parser::parse_vector_value(const VectorType& type) {
  std::vector<ExprPtr> fields;
  const size_t start = m_pos;
  const size_t errors_before = m_diagnostics.error_count();
  size_t end = start;
  for (uint8_t k = 0; k < type.width; ++k) {
    m_pos = start;
    fields.push_back(parse_vector_field(type, k));
    if (m_diagnostics.error_count() > errors_before) {
      while (fields.size() < type.width) fields.push_back(placeholder(fields.back()->range));
      return fields;
    }
    if (k == 0) end = m_pos;
  }
  m_pos = end;
  // `a + b` of whole vectors: CUDA's vector types define no operators, and a struct here has
  // none (member functions are not supported).
  if (is_operator_after_value(peek().kind))
    error(peek().range, fmt::format("not supported: operator '{}' on a whole {} (there are no operators on {} "
                                    "values here: write each field)",
                                    peek().text, type.name, type.is_struct() ? "struct" : "vector"));
  return fields;
}

ExprPtr Parser::parse_vector_field(const VectorType& type, uint8_t field) {
  const Token& token = peek();
  const std::string text(token.text);
  const auto wrong_type = [&](const std::string& found) {
    error(token.range, fmt::format("{} {} where {} {} is expected ({})", article(found), found, article(type.name),
                                   type.name,
                                   type.is_struct() ? "a struct converts to no other type" : "CUDA does not convert vector types"));
    return placeholder(token.range);
  };
  if (token.kind == TokenKind::Identifier) {
    if (const auto builtin = builtin_vector_named(text); builtin && peek(1).kind != TokenKind::Dot) {
      advance();
      if (!same_vector_type(type, builtin_vector(ScalarType::UInt, 3, false, "uint3"))) return wrong_type("uint3 (" + text + ")");
      return std::make_unique<BuiltinVariable>(token.range, *builtin, field);
    }
    const std::optional<VectorType> made =
        text.rfind("make_", 0) == 0 ? vector_type_named(std::string_view(text).substr(5))
        : text == "dim3"            ? vector_type_named(text)
                                    : std::nullopt;
    if (made && peek(1).kind == TokenKind::LeftParen) {
      advance();
      advance();
      if (!same_vector_type(type, *made)) return wrong_type(made->name);
      std::vector<ExprPtr> args;
      while (!at_end() && !at(TokenKind::RightParen)) {
        args.push_back(parse_assignment_expression());
        if (!accept(TokenKind::Comma)) break;
      }
      expect(TokenKind::RightParen, "')' after the arguments");
      const SourceRange range = SourceRange::join(token.range, previous().range);
      const size_t wanted = made->width;
      if (made->is_dim3 ? args.size() > 3 : args.size() != wanted) {
        error(range, fmt::format("{} takes {} argument{}, but {} were given", text,
                                 made->is_dim3 ? "up to 3" : std::to_string(wanted), wanted == 1 ? "" : "s", args.size()));
        return placeholder(range);
      }
      if (field < args.size()) return std::move(args[field]);
      return integer(range, 1, ScalarType::UInt); // dim3: a field not given is 1
    }
    if (const VectorVariable* variable = vector_variable(text)) {
      const std::optional<VectorType> part =
          !variable->sequence && peek(1).kind == TokenKind::Dot ? variable->type.vector_field(peek(2).text) : std::nullopt;
      if (part && peek(3).kind != TokenKind::Dot) { // `s.pos`, a struct variable's vector field
        const std::string member(peek(2).text);
        m_pos += 3;
        if (!same_vector_type(type, *part)) return wrong_type(part->name + " '" + text + "." + member + "'");
        return std::make_unique<NameRef>(SourceRange::join(token.range, previous().range),
                                         text + "." + member + "." + std::string(type.field_name(field)));
      }
      if (!variable->sequence && peek(1).kind != TokenKind::Dot && peek(1).kind != TokenKind::LeftBracket) {
        advance();
        if (!same_vector_type(type, variable->type)) return wrong_type(variable->type.name + " '" + text + "'");
        return std::make_unique<NameRef>(token.range, text + "." + std::string(type.field_name(field)));
      }
      if (variable->sequence && peek(1).kind == TokenKind::LeftBracket) {
        advance();
        // `p[i].pos`: a vector field of an element, that field's fields of the struct.
        const size_t close = matching_close(m_pos, TokenKind::LeftBracket, TokenKind::RightBracket);
        const std::optional<VectorType> part = peek(close - m_pos + 1).kind == TokenKind::Dot
                                                   ? variable->type.vector_field(peek(close - m_pos + 2).text)
                                                   : std::nullopt;
        if (part && peek(close - m_pos + 3).kind != TokenKind::Dot) {
          const std::string member(peek(close - m_pos + 2).text);
          if (!same_vector_type(type, *part)) return wrong_type(part->name + " '" + text + "[...]." + member + "'");
          const std::string flattened = member + "." + std::string(type.field_name(field));
          uint8_t k = 0;
          while (k < variable->type.width && variable->type.field_name(k) != flattened) ++k;
          ExprPtr element = parse_sequence_element_field(std::make_unique<NameRef>(token.range, text), variable->type, k);
          m_pos += 2; // `.pos`
          return element;
        }
        if (!same_vector_type(type, variable->type)) return wrong_type(variable->type.name + " '" + text + "'");
        return parse_sequence_element_field(std::make_unique<NameRef>(token.range, text), variable->type, field);
      }
    }
  }
  if (token.kind == TokenKind::KwReinterpretCast || token.kind == TokenKind::KwStaticCast) {
    ExprPtr cast = parse_cast_keyword();
    if (is_vector_pointer_cast(*cast) && at(TokenKind::LeftBracket)) {
      const VectorType element = m_vector_pointer_casts.at(cast.get()).type;
      m_vector_pointer_casts.erase(cast.get());
      if (!same_vector_type(type, element)) return wrong_type(element.name);
      return parse_sequence_element_field(std::move(cast), element, field);
    }
  }
  if (token.kind == TokenKind::Identifier && peek(1).kind == TokenKind::LeftParen && m_struct_returning.count(text)) {
    error(token.range, fmt::format("not supported: a call of '{}', which returns {}, here (its value can initialize "
                                   "or be assigned to a {}, or be returned)",
                                   text, m_struct_returning.at(text).name, m_struct_returning.at(text).name));
    return placeholder(token.range);
  }
  if (type.is_struct())
    error(token.range, fmt::format("not supported: this {} value (write a {} variable, or an element p[i] of a {} "
                                   "array or pointer)",
                                   type.name, type.name, type.name));
  else
    error(token.range, fmt::format("not supported: this {} value (write make_{}(...), a {} variable, an element "
                                   "p[i] of a {} array or pointer, or an element of reinterpret_cast<{}*>(...))",
                                   type.name, type.name, type.name, type.name, type.name));
  return placeholder(token.range);
}


ExprPtr Parser::parse_vector_member(const Token& name) {
  const std::string text(name.text);
  if (text.rfind("make_", 0) == 0 && vector_type_named(std::string_view(text).substr(5)) && at(TokenKind::LeftParen)) {
    error(name.range, fmt::format("not supported: a whole {} here (assign it to a {} variable and use its fields)",
                                  text.substr(5), text.substr(5)));
    return placeholder(name.range);
  }
  const VectorVariable* variable = vector_variable(text);
  if (!variable) return nullptr;
  const VectorType& type = variable->type;
  auto name_ref = std::make_unique<NameRef>(name.range, text);
  if (variable->sequence) {
    switch (peek().kind) {
    case TokenKind::PlusPlus: case TokenKind::MinusMinus:
      // `p + n` and `p += n` are scaled by the width (scale_sequence_arithmetic); `p++` is not.
      error(peek().range, "not supported: '" + std::string(peek().text) + "' on a pointer to " + type.name +
                              " (write p += 1, or index it)");
      return name_ref;
    case TokenKind::LeftBracket:
      return parse_sequence_element_field(std::move(name_ref), type, std::nullopt);
    case TokenKind::Arrow: {
      // `p->y` is `p[0].y`.
      advance(); // '->'
      if (type.method(peek().text) && peek(1).kind == TokenKind::LeftParen) { // `p->m(a)`
        const Token& method = advance();
        return address_of_fields_call(type, method, [&](uint8_t k) {
          return field_of_element(std::make_unique<NameRef>(name.range, text), type, k,
                                  integer(name.range, k, ScalarType::Int), name.range);
        });
      }
      const std::optional<uint8_t> named = parse_field_name(type);
      if (!named) return name_ref;
      const SourceRange range = SourceRange::join(name.range, previous().range);
      return field_of_element(std::move(name_ref), type, *named, integer(range, *named, ScalarType::Int), range);
    }
    default:
      return name_ref; // the pointer itself: passed on, compared, or given to another pointer
    }
  }
  if (accept(TokenKind::Dot)) {
    if (type.method(peek().text) && peek(1).kind == TokenKind::LeftParen) { // `s.m(a)`
      const Token& method = advance();
      return address_of_fields_call(type, method, [&](uint8_t k) -> ExprPtr {
        return std::make_unique<NameRef>(name.range, text + "." + std::string(type.field_name(k)));
      });
    }
    const std::optional<uint8_t> named = parse_field_name(type);
    if (!named) return placeholder(name.range);
    return std::make_unique<NameRef>(SourceRange::join(name.range, previous().range),
                                     text + "." + std::string(type.field_name(*named)));
  }
  error(name.range, fmt::format("not supported: a whole {} here (use its fields {}{}, or assign it whole)", type.name,
                                type.is_struct() ? "" : ".", type.field_list()));
  return placeholder(name.range);
}

std::optional<uint8_t> Parser::parse_field_name(const VectorType& type) {
  const Token& name = peek();
  if (name.kind == TokenKind::Identifier && type.vector_field(name.text)) {
    // `pos.x` of a vector field: one of the struct's flattened fields.
    if (peek(1).kind != TokenKind::Dot || peek(2).kind != TokenKind::Identifier) {
      error(name.range, fmt::format("not supported: the whole vector field '{}' of {} here (use its fields, as "
                                    "{}.x, or a {} variable's)",
                                    name.text, type.name, name.text, type.name));
      return std::nullopt;
    }
    const std::string flattened = std::string(name.text) + "." + std::string(peek(2).text);
    for (uint8_t k = 0; k < type.width; ++k)
      if (type.field_name(k) == flattened) {
        m_pos += 3;
        return k;
      }
    error(peek(2).range, fmt::format("{} has no field '{}'", type.vector_field(name.text)->name, peek(2).text));
    return std::nullopt;
  }
  if (name.kind == TokenKind::Identifier)
    for (uint8_t k = 0; k < type.width; ++k)
      if (type.field_name(k) == name.text) {
        advance();
        return k;
      }
  error(name.range, fmt::format("{} has no field '{}' (it has {})", type.name, name.text, type.field_list()));
  return std::nullopt;
}

size_t Parser::vector_lvalue_length(VectorType& type) const {
  // The token offset just past the bracket or parenthesis group opening at `open`, or 0.
  const auto past_group = [this](size_t open, TokenKind left, TokenKind right) -> size_t {
    const size_t close = matching_close(m_pos + open, left, right);
    return m_tokens[close].kind == TokenKind::EndOfFile ? 0 : close - m_pos + 1;
  };
  const auto not_a_field = [this](size_t at) {
    return peek(at).kind != TokenKind::Dot && peek(at).kind != TokenKind::Arrow;
  };
  const Token& first = peek();
  if (first.kind == TokenKind::Identifier) {
    const VectorVariable* variable = vector_variable(std::string(first.text));
    if (!variable) return 0;
    if (!variable->sequence && peek(1).kind == TokenKind::Dot && variable->type.vector_field(peek(2).text) &&
        not_a_field(3) && peek(3).kind != TokenKind::LeftBracket) {
      type = *variable->type.vector_field(peek(2).text); // `s.pos`, a struct variable's vector field
      return 3;
    }
    type = variable->type;
    if (!variable->sequence) return not_a_field(1) && peek(1).kind != TokenKind::LeftBracket ? 1 : 0;
    if (peek(1).kind != TokenKind::LeftBracket) return 0;
    const size_t end = past_group(1, TokenKind::LeftBracket, TokenKind::RightBracket);
    if (end && peek(end).kind == TokenKind::Dot && variable->type.vector_field(peek(end + 1).text) &&
        not_a_field(end + 2) && peek(end + 2).kind != TokenKind::LeftBracket) {
      type = *variable->type.vector_field(peek(end + 1).text); // `p[i].pos`, an element's vector field
      return end + 2;
    }
    return end && not_a_field(end) ? end : 0;
  }
  if ((first.kind == TokenKind::KwReinterpretCast || first.kind == TokenKind::KwStaticCast) &&
      peek(1).kind == TokenKind::Less && peek(2).kind == TokenKind::Identifier && peek(3).kind == TokenKind::Star &&
      peek(4).kind == TokenKind::Greater && peek(5).kind == TokenKind::LeftParen) {
    const std::optional<VectorType> named = named_vector_type(peek(2).text);
    if (!named) return 0;
    const size_t close = past_group(5, TokenKind::LeftParen, TokenKind::RightParen);
    if (!close || peek(close).kind != TokenKind::LeftBracket) return 0;
    const size_t end = past_group(close, TokenKind::LeftBracket, TokenKind::RightBracket);
    if (!end || !not_a_field(end)) return 0;
    type = *named;
    return end;
  }
  return 0;
}


ExprPtr Parser::parse_vector_assignment(const VectorType& type) {
  std::vector<ExprPtr> targets = parse_vector_value(type);
  const Token& op = advance();
  if (op.kind != TokenKind::Equal)
    error(op.range, fmt::format("not supported: compound assignment '{}' of a whole {} (CUDA defines no "
                                "operators on vector types)", op.text, type.name));
  if (struct_returning_call_at(type)) // `s = f(a);`: f writes the target's fields
    return parse_struct_returning_call(field_addresses(std::move(targets)));
  std::vector<ExprPtr> values = parse_vector_value(type);
  ExprPtr chain;
  for (uint8_t k = 0; k < type.width; ++k) {
    const SourceRange range = SourceRange::join(targets[k]->range, values[k]->range);
    ExprPtr assign = std::make_unique<Assign>(range, std::nullopt, std::move(targets[k]), std::move(values[k]));
    if (!chain) {
      chain = std::move(assign);
      continue;
    }
    const SourceRange joined = SourceRange::join(chain->range, assign->range);
    chain = std::make_unique<Binary>(joined, BinaryOp::Comma, std::move(chain), std::move(assign));
  }
  return chain;
}

} // namespace fencelab
