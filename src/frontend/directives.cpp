// The harness directives: reading the `//@` lines, kernel, template, launch, arg and init.
#include "fencelab/frontend/directives.h"

#include <algorithm>

namespace fencelab {

namespace {

constexpr int64_t kMaxBufferLength = 1 << 24;

std::string token_text(const Token& token) {
  return token.kind == TokenKind::EndOfFile ? "end of line" : "'" + std::string(token.text) + "'";
}

} // namespace

uint64_t splitmix64_next(uint64_t& state) {
  state += 0x9e3779b97f4a7c15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void DirectiveReader::read(const std::vector<SourceRange>& lines) {
  const SourceFile& file = *m_program.source;
  // Join continuation lines, lex each piece at its own offsets, expand macros.
  for (size_t i = 0; i < lines.size(); ++i) {
    DirectiveLine line;
    std::vector<Token> tokens;
    SourceRange piece = lines[i];
    line.range = piece;
    while (true) {
      std::string_view text = file.slice(piece);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
      const bool continues = !text.empty() && text.back() == '\\' && i + 1 < lines.size();
      if (continues) text.remove_suffix(1);
      std::string_view kept = text;
      while (!kept.empty() && (kept.back() == ' ' || kept.back() == '\t')) kept.remove_suffix(1);
      const SourceRange lexed{piece.begin, piece.begin + uint32_t(text.size())};
      std::vector<Token> part = lex(file, lexed, m_diagnostics).tokens;
      part.pop_back(); // EndOfFile
      tokens.insert(tokens.end(), part.begin(), part.end());
      std::string_view trimmed = kept;
      while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
      if (!trimmed.empty()) {
        if (!line.text.empty()) line.text += ' ';
        line.text += trimmed;
      }
      line.range = SourceRange::join(line.range, lexed);
      if (!continues) break;
      piece = lines[++i];
    }
    if (tokens.empty()) continue; // an empty `//@` line
    line.range.begin = tokens.front().range.begin;
    line.tokens = m_preprocessor.expand(tokens);
    if (m_preprocessor.exhausted()) return; // reported; compile_program stops here
    Token end;
    end.kind = TokenKind::EndOfFile;
    end.range = {line.range.end, line.range.end};
    line.tokens.push_back(end);
    m_lines.push_back(std::move(line));
  }
  m_pending.reserve(m_lines.size());
  for (const DirectiveLine& line : m_lines) {
    const Token& keyword = line.tokens.front();
    const std::string word(keyword.text);
    if (word == "template") {
      Parser parser(line.tokens, m_diagnostics);
      parser.advance();
      const size_t errors = m_diagnostics.error_count();
      read_template(parser);
      if (m_diagnostics.error_count() == errors) finish(parser);
    } else if (word == "arg") {
      note_buffer_element_type(line);
      m_pending.push_back({&line, word});
    } else if (word == "kernel") {
      if (m_kernel_line) m_diagnostics.error(keyword.range, "the kernel is already chosen by an earlier //@ kernel");
      else m_kernel_line = &line;
    } else if (word == "launch" || word == "init" || word == "observe" || word == "expect") {
      m_pending.push_back({&line, word});
    } else {
      m_diagnostics.error(keyword.range, "unknown directive " + token_text(keyword) +
                                             " (expected kernel, template, launch, arg, init, observe or expect)");
    }
  }
}

void DirectiveReader::finish(Parser& parser) {
  if (!parser.at_end()) parser.error(parser.peek().range, "unexpected " + token_text(parser.peek()) + " in the directive");
}

std::optional<int64_t> DirectiveReader::integer_constant(Parser& parser, const std::string& what) {
  ExprPtr expr = parser.parse_conditional_expression();
  std::optional<Word> value = m_sema.check_constant(expr, what);
  if (!value) return std::nullopt;
  if (!expr->type.is_integer()) {
    m_diagnostics.error(expr->range, what + " must be an integer");
    return std::nullopt;
  }
  return word_to_int(*value, expr->type);
}

std::optional<Word> DirectiveReader::value_constant(Parser& parser, const Type& type, const std::string& what,
                                                    bool unary_only) {
  ExprPtr expr = unary_only ? parser.parse_unary_expression() : parser.parse_conditional_expression();
  std::optional<Word> value = m_sema.check_constant(expr, what);
  if (!value) return std::nullopt;
  const bool ok = expr->type.is_arithmetic() ? type.is_arithmetic()
                                             : type.is_pointer() && expr->type.is_pointer() && *value == 0;
  if (!ok) {
    m_diagnostics.error(expr->range, "cannot use a value of type '" + expr->type.to_string() + "' as " +
                                         what + " of type '" + type.to_string() + "'");
    return std::nullopt;
  }
  return convert_word(*value, expr->type, type);
}

// template-directive: 'template' { NAME '=' ( constant | type-name ) }
void DirectiveReader::read_template(Parser& parser) {
  while (!parser.at_end()) {
    if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected a template parameter name");
    const Token& name = parser.advance();
    const std::string key(name.text);
    if (!parser.expect(TokenKind::Equal, "'=' after the template parameter name")) return;
    if (m_template_values.count(key) || m_template_type_hints.given.count(key))
      m_diagnostics.error(name.range, "template parameter '" + key + "' is given twice");
    if (parser.is_type_start()) {
      const std::optional<Type> type = parser.parse_type_name();
      if (!type) return;
      if (parser.last_vector_type())
        return m_diagnostics.error(name.range, "not supported: a vector type (" + parser.last_vector_type()->name +
                                                   ") as a template argument");
      m_template_type_hints.given.emplace(key, *type);
      continue;
    }
    std::optional<int64_t> value = integer_constant(parser, "a template argument");
    if (!value) return;
    m_template_values.emplace(key, *value);
  }
}

TemplateTypeHints DirectiveReader::template_type_hints() const {
  TemplateTypeHints hints = m_template_type_hints;
  hints.kernel = m_kernel_override;
  if (hints.kernel.empty() && m_kernel_line && m_kernel_line->tokens.size() > 1 &&
      m_kernel_line->tokens[1].kind == TokenKind::Identifier)
    hints.kernel = std::string(m_kernel_line->tokens[1].text);
  return hints;
}

// `arg NAME: TYPE[...]`, read ahead of the kernel for template deduction (parse_templates.cpp);
// the directive itself is read, and its errors reported, after sema.
void DirectiveReader::note_buffer_element_type(const DirectiveLine& line) {
  const std::vector<Token>& tokens = line.tokens;
  if (tokens.size() < 4 || tokens[1].kind != TokenKind::Identifier || tokens[2].kind != TokenKind::Colon) return;
  DiagnosticSink ignored; // reported when the directive is read for real
  Parser parser(std::vector<Token>(tokens.begin() + 3, tokens.end()), ignored);
  // A buffer of vectors deduces nothing: a type parameter cannot stand for a vector type.
  if (const std::optional<Type> type = parser.parse_type_name();
      type && !ignored.has_errors() && !parser.last_vector_type())
    m_template_type_hints.buffer_element_types.emplace(std::string(tokens[1].text), *type);
}

void DirectiveReader::choose_kernel() {
  std::vector<const FunctionDecl*> kernels;
  for (const FunctionDeclPtr& function : m_program.unit.functions)
    if (function->space == FunctionSpace::Global && function->body) kernels.push_back(function.get());
  LaunchConfig& launch = m_program.launch;
  if (!m_kernel_override.empty()) {
    for (const FunctionDecl* kernel : kernels)
      if (kernel->name == m_kernel_override) launch.kernel = kernel;
    if (!launch.kernel) {
      std::string names;
      for (const FunctionDecl* kernel : kernels) {
        if (!names.empty()) names += ", ";
        names += kernel->name;
      }
      return m_diagnostics.error({0, 0}, "--kernel " + m_kernel_override + ": there is no __global__ function of that name" +
                                             (names.empty() ? "" : " (the file has: " + names + ")"));
    }
  } else if (m_kernel_line) {
    Parser parser(m_kernel_line->tokens, m_diagnostics);
    parser.advance();
    if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected the kernel's name");
    const Token& name = parser.advance();
    finish(parser);
    for (const FunctionDecl* kernel : kernels)
      if (kernel->name == name.text) launch.kernel = kernel;
    if (!launch.kernel)
      return m_diagnostics.error(name.range, "there is no __global__ function '" + std::string(name.text) + "'");
  } else if (kernels.size() == 1) {
    launch.kernel = kernels[0];
  } else if (kernels.empty()) {
    return m_diagnostics.error({0, 0}, "the file has no __global__ function to launch");
  } else {
    return m_diagnostics.error(kernels[1]->name_range,
                               "the file has several __global__ functions; choose one with //@ kernel NAME or --kernel NAME");
  }
  launch.range = launch.kernel->name_range;
  for (const TemplateParam& param : launch.kernel->template_params) {
    if (param.is_type) {
      if (param.is_unbound)
        m_diagnostics.error(param.range, "kernel template type parameter '" + param.name + "' has no type (give it with "
                                         "//@ template " + param.name + "=TYPE, or pass a buffer argument declared " +
                                         param.name + "*)");
      continue;
    }
    auto value = m_template_values.find(param.name);
    if (value == m_template_values.end())
      m_diagnostics.error(param.range, "kernel template parameter '" + param.name +
                                           "' has no value (give it with //@ template " + param.name + "=VALUE)");
    else
      launch.template_args.emplace_back(param.name, value->second);
  }
}

void DirectiveReader::apply() {
  choose_kernel();
  const FunctionDecl* kernel = m_program.launch.kernel;
  const size_t params = kernel ? kernel->params.size() : 0;
  m_arguments.assign(params, std::nullopt);
  m_buffers.assign(params, std::nullopt);
  for (const char* keyword : {"launch", "arg", "init", "observe", "expect"}) {
    if (std::string(keyword) == "observe") {
      finish_arguments();
      if (std::none_of(m_pending.begin(), m_pending.end(), [](const Pending& p) { return p.keyword == "observe"; }))
        default_observed();
    }
    for (const Pending& pending : m_pending) {
      if (pending.keyword != keyword) continue;
      Parser parser(pending.line->tokens, m_diagnostics);
      parser.set_struct_types(m_struct_types);
      parser.advance();
      const size_t errors = m_diagnostics.error_count();
      if (pending.keyword == "launch") read_launch(parser);
      else if (pending.keyword == "arg") read_arg(parser, *pending.line);
      else if (pending.keyword == "init") read_init(parser);
      else if (pending.keyword == "observe") read_observe(parser);
      else read_expect(parser, *pending.line);
      if (m_diagnostics.error_count() == errors) finish(parser); // one error per directive
    }
  }
}

// launch-directive: 'launch' { ( 'grid' | 'block' ) '=' dim | ( 'resident' | 'shared' ) '=' constant }
// dim: constant | '(' constant [ ',' constant [ ',' constant ] ] ')'
void DirectiveReader::read_launch(Parser& parser) {
  if (m_has_launch) return parser.error(parser.previous().range, "the launch shape is already given");
  m_has_launch = true;
  LaunchConfig& launch = m_program.launch;
  launch.range = SourceRange::join(parser.previous().range, parser.peek().range);
  while (!parser.at_end()) {
    const Token& key = parser.peek();
    if (key.kind != TokenKind::Identifier ||
        (key.text != "grid" && key.text != "block" && key.text != "resident" && key.text != "shared"))
      return parser.error(key.range, "expected 'grid=', 'block=', 'resident=' or 'shared=', found " + token_text(key));
    parser.advance();
    if (!parser.expect(TokenKind::Equal, "'='")) return;
    if (key.text == "resident") {
      const SourceRange start = parser.peek().range;
      const std::optional<int64_t> value = integer_constant(parser, "the number of resident blocks");
      if (!value) return;
      if (*value < 1 || *value > INT32_MAX)
        return m_diagnostics.error(SourceRange::join(start, parser.previous().range),
                                   "resident= must be at least 1, not " + std::to_string(*value));
      launch.resident_blocks = uint32_t(*value);
      continue;
    }
    if (key.text == "shared") {
      // At most what one block of an H100 may have: 227 KB (Programming Guide, "Technical
      // Specifications per Compute Capability", 9.0).
      constexpr int64_t kMaxSharedBytes = 227 * 1024;
      const SourceRange start = parser.peek().range;
      const std::optional<int64_t> value = integer_constant(parser, "the dynamic shared memory in bytes");
      if (!value) return;
      if (*value < 1 || *value > kMaxSharedBytes)
        return m_diagnostics.error(SourceRange::join(start, parser.previous().range),
                                   "shared= must be between 1 and " + std::to_string(kMaxSharedBytes) +
                                       " bytes, not " + std::to_string(*value));
      launch.dynamic_shared_bytes = uint32_t(*value);
      continue;
    }
    const SourceRange start = parser.peek().range;
    Dim3& dim = key.text == "grid" ? launch.grid : launch.block;
    if (!read_dim(parser, dim)) return;
    const SourceRange range = SourceRange::join(start, parser.previous().range);
    const std::string problem = key.text == "block" ? block_shape_problem(dim) : grid_shape_problem(dim);
    if (!problem.empty()) m_diagnostics.error(range, problem);
  }
}

bool DirectiveReader::read_dim(Parser& parser, Dim3& dim) {
  uint32_t* parts[] = {&dim.x, &dim.y, &dim.z};
  const bool tuple = parser.accept(TokenKind::LeftParen);
  for (int i = 0; i < 3; ++i) {
    const SourceRange start = parser.peek().range;
    std::optional<int64_t> value = integer_constant(parser, "a launch dimension");
    if (!value) return false;
    if (*value < 1 || *value > INT32_MAX) {
      m_diagnostics.error(SourceRange::join(start, parser.previous().range),
                          "a launch dimension must be at least 1, not " + std::to_string(*value));
      return false;
    }
    *parts[i] = uint32_t(*value);
    if (!tuple || !parser.accept(TokenKind::Comma)) break;
  }
  return !tuple || parser.expect(TokenKind::RightParen, "')' after the dimensions");
}

// arg-directive: 'arg' NAME '=' constant | 'arg' NAME ':' type '[' constant ']' '=' buffer-init
//              | 'arg' NAME '=' ( 'NULL' | 'nullptr' | '0' )     (a pointer parameter)
void DirectiveReader::read_arg(Parser& parser, const DirectiveLine& line) {
  const FunctionDecl* kernel = m_program.launch.kernel;
  if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected a kernel parameter name");
  const Token& first = parser.advance();
  std::string written(first.text);
  // `NAME.FIELD`: a field of a struct or vector parameter passed by value (one parameter each).
  while (parser.at(TokenKind::Dot) && parser.peek(1).kind == TokenKind::Identifier) {
    parser.advance();
    written += "." + std::string(parser.advance().text);
  }
  const SourceRange name_range = SourceRange::join(first.range, parser.previous().range);
  if (!kernel) return; // already reported
  size_t index = 0;
  while (index < kernel->params.size() && kernel->params[index]->name != written) ++index;
  if (index == kernel->params.size())
    return parser.error(name_range, "kernel '" + kernel->name + "' has no parameter '" + written + "'");
  if (m_arguments[index])
    return parser.error(name_range, "parameter '" + written + "' already has an argument");
  const VarDecl& param = *kernel->params[index];
  if (parser.accept(TokenKind::Colon)) {
    if (!param.type.is_pointer())
      return parser.error(name_range, "parameter '" + param.name + "' is not a pointer: give it a value, as in "
                                      "//@ arg " + param.name + " = 1");
    read_buffer(parser, line, param, index);
    return;
  }
  if (param.type.is_pointer()) {
    // A null pointer: `= NULL`, `= nullptr` or `= 0` (a kernel that checks its pointer).
    const bool null = parser.accept(TokenKind::Equal) &&
                      ((parser.at(TokenKind::Identifier) && (parser.peek().text == "NULL" || parser.peek().text == "nullptr")) ||
                       (parser.at(TokenKind::IntegerLiteral) && parser.peek().text == "0"));
    if (!null)
      return parser.error(name_range, "parameter '" + param.name + "' is a pointer: give it a buffer, as in "
                                      "//@ arg " + param.name + ": " + param.type.pointee().to_string() +
                                      "[4] = zeros, or a null pointer, //@ arg " + param.name + " = NULL");
    parser.advance();
    m_arguments[index] = KernelArgument{&param, 0, std::nullopt, line.range};
    return;
  }
  if (!parser.expect(TokenKind::Equal, "'=' or ':' after the parameter name")) return;
  std::optional<Word> value = value_constant(parser, param.type, "the value of '" + param.name + "'");
  if (!value) return;
  KernelArgument argument;
  argument.parameter = &param;
  argument.value = *value;
  argument.range = line.range;
  m_arguments[index] = argument;
}

// buffer: type '[' constant ']' '=' buffer-init
// buffer-init: 'zeros' | 'uninit' | 'iota' [ '(' constant ')' ] | 'random' '(' SEED ',' MIN ',' MAX ')'
//            | '{' constant { ',' constant } '}' | constant
void DirectiveReader::read_buffer(Parser& parser, const DirectiveLine& line, const VarDecl& param, size_t index) {
  const SourceRange type_start = parser.peek().range;
  std::optional<Type> type = parser.parse_type_name();
  if (!type) return;
  // A buffer of N vectors (`float4[N]`) is its N * width fields in a row, as the kernel sees
  // them (parse_vector_types.cpp): values are listed and observed field by field.
  const uint32_t fields = parser.last_vector_type() ? parser.last_vector_type()->width : 1;
  // A struct with fields of several types: element i is field i % fields, in its own type.
  const std::vector<ScalarType> field_types =
      parser.last_vector_type() ? parser.last_vector_type()->struct_field_types : std::vector<ScalarType>{};
  const SourceRange type_range = SourceRange::join(type_start, parser.previous().range);
  if (parser.last_vector_type() && !parser.last_vector_type()->layout_problem.empty())
    return parser.error(type_range, "not supported: a buffer of " + parser.last_vector_type()->name + " (it has " +
                                        parser.last_vector_type()->layout_problem +
                                        "; structs lie in memory here only when their fields are scalars of one size)");
  if (param.type.pointer_depth != 1)
    return parser.error(param.name_range, "not supported: pointer-to-pointer kernel parameters");
  Type element = *type;
  element.is_const = element.is_volatile = false;
  if (element.is_pointer() || element.is_void() || element.scalar != param.type.scalar)
    return parser.error(type_range, "buffer type '" + (fields > 1 ? parser.last_vector_type()->name : type->to_string()) +
                                        "' does not match parameter '" +
                                        param.type.to_string() + " " + param.name + "'");
  if (!parser.expect(TokenKind::LeftBracket, "'[' and the buffer length")) return;
  const SourceRange length_start = parser.peek().range;
  std::optional<int64_t> length = integer_constant(parser, "the buffer length");
  if (!length) return;
  if (*length < 1 || *length * fields > kMaxBufferLength)
    return parser.error(SourceRange::join(length_start, parser.previous().range),
                        "the buffer length must be between 1 and " + std::to_string(kMaxBufferLength / fields));
  *length *= fields;
  if (!parser.expect(TokenKind::RightBracket, "']'") || !parser.expect(TokenKind::Equal, "'=' and the contents"))
    return;
  MemoryObject buffer;
  buffer.name = param.name;
  buffer.range = line.range;
  buffer.space = MemorySpace::Global;
  buffer.element_type = element;
  buffer.element_count = uint32_t(*length);
  buffer.is_array = true;
  buffer.is_volatile = param.type.pointee_volatile;
  buffer.field_types = field_types;
  const std::string what = "an element of '" + param.name + "'";
  // Element i's value given in its field's type, as the bytes of an element_type.
  const auto stored = [&buffer, &element](Word value, size_t i) {
    return reinterpret_word(value, buffer.type_of_element(uint32_t(i)), element);
  };
  const Token& init = parser.peek();
  const std::string word = init.kind == TokenKind::Identifier ? std::string(init.text) : "";
  if (word == "zeros") {
    parser.advance();
  } else if (word == "uninit") {
    parser.advance();
    buffer.initialized = false;
  } else if (word == "iota") {
    parser.advance();
    int64_t start = 0;
    if (parser.accept(TokenKind::LeftParen)) {
      std::optional<int64_t> value = integer_constant(parser, "the start of iota");
      if (!value || !parser.expect(TokenKind::RightParen, "')'")) return;
      start = *value;
    }
    buffer.initial_values.reserve(size_t(*length));
    for (int64_t i = 0; i < *length; ++i)
      buffer.initial_values.push_back(stored(word_from_int(start + i, buffer.type_of_element(uint32_t(i))), i));
  } else if (word == "random") {
    parser.advance();
    std::optional<int64_t> seed, low, high;
    if (!parser.expect(TokenKind::LeftParen, "'(' after random")) return;
    if (!(seed = integer_constant(parser, "the seed")) || !parser.expect(TokenKind::Comma, "','")) return;
    if (!(low = integer_constant(parser, "the minimum")) || !parser.expect(TokenKind::Comma, "','")) return;
    if (!(high = integer_constant(parser, "the maximum")) || !parser.expect(TokenKind::RightParen, "')'")) return;
    if (*high < *low) return parser.error(init.range, "random: the maximum is below the minimum");
    uint64_t state = uint64_t(*seed);
    const uint64_t span = uint64_t(*high) - uint64_t(*low) + 1; // 0 means the full 64-bit range
    buffer.initial_values.reserve(size_t(*length));
    for (int64_t i = 0; i < *length; ++i) {
      const uint64_t draw = splitmix64_next(state);
      buffer.initial_values.push_back(stored(
          word_from_int(int64_t(uint64_t(*low) + (span ? draw % span : draw)), buffer.type_of_element(uint32_t(i))),
          i));
    }
  } else if (parser.accept(TokenKind::LeftBrace)) {
    const SourceRange open = parser.previous().range;
    while (!parser.at_end() && !parser.at(TokenKind::RightBrace)) {
      const size_t i = buffer.initial_values.size();
      std::optional<Word> value = value_constant(parser, buffer.type_of_element(uint32_t(i)), what);
      if (!value) return;
      buffer.initial_values.push_back(stored(*value, i));
      if (!parser.accept(TokenKind::Comma)) break;
    }
    if (!parser.expect(TokenKind::RightBrace, "'}' after the values")) return;
    if (buffer.initial_values.size() != buffer.element_count)
      return parser.error(SourceRange::join(open, parser.previous().range),
                          "the list has " + std::to_string(buffer.initial_values.size()) +
                              " values but the buffer has " + std::to_string(buffer.element_count) + " elements");
  } else if (!field_types.empty()) {
    // One value for every field of every element, in each field's type (through double, which
    // holds every integer up to 2^53 exactly).
    const Type as_double = Type::of(ScalarType::Double);
    std::optional<Word> value = value_constant(parser, as_double, what);
    if (!value) return;
    for (uint32_t i = 0; i < buffer.element_count; ++i)
      buffer.initial_values.push_back(stored(convert_word(*value, as_double, buffer.type_of_element(i)), i));
  } else {
    std::optional<Word> value = value_constant(parser, element, what);
    if (!value) return;
    buffer.initial_values.assign(buffer.element_count, *value);
  }
  KernelArgument argument;
  argument.parameter = &param;
  argument.range = line.range;
  m_arguments[index] = argument;
  m_buffers[index] = std::move(buffer);
}

// Every kernel parameter gets an argument: from `arg`, else a scalar's default argument.
// Buffer objects are numbered after every variable's object, in parameter order.
void DirectiveReader::finish_arguments() {
  const FunctionDecl* kernel = m_program.launch.kernel;
  if (!kernel) return;
  for (size_t i = 0; i < kernel->params.size(); ++i) {
    const VarDecl& param = *kernel->params[i];
    std::optional<KernelArgument>& argument = m_arguments[i];
    if (!argument && !param.type.is_pointer() && param.initializer) {
      if (std::optional<Word> value = m_sema.fold(*param.initializer)) {
        argument = KernelArgument{&param, *value, std::nullopt, param.range};
      }
    }
    if (!argument) {
      const std::string example = param.type.is_pointer()
                                      ? "//@ arg " + param.name + ": " + param.type.pointee().to_string() + "[N] = zeros"
                                      : "//@ arg " + param.name + " = VALUE";
      m_diagnostics.error(param.name_range, "kernel parameter '" + param.name + "' has no argument (give it with " +
                                                example + ")");
      argument = KernelArgument{&param, 0, std::nullopt, param.range};
    }
    if (m_buffers[i]) {
      argument->buffer_object = uint32_t(m_program.memory_objects.size());
      m_program.memory_objects.push_back(std::move(*m_buffers[i]));
    }
    m_program.arguments.push_back(*argument);
  }
}

// init-directive: 'init' NAME [ '[' constant ']' ] '=' ( constant | '{' constant { ',' constant } '}' )
void DirectiveReader::read_init(Parser& parser) {
  if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected a variable name");
  const Token& name = parser.advance();
  const VarDecl* var = nullptr;
  for (const VarDeclPtr& global : m_program.unit.globals)
    if (global->name == name.text) var = global.get();
  if (!var || var->storage == StorageKind::Shared)
    return parser.error(name.range, var ? "cannot initialize __shared__ variable '" + var->name +
                                              "' (its contents are undefined at kernel start)"
                                        : "'" + std::string(name.text) + "' is not a __device__ or __constant__ variable");
  MemoryObject& object = m_program.memory_objects[var->object_id];
  const Type element = Type{object.element_type.scalar, object.element_type.pointer_depth};
  std::optional<int64_t> index;
  if (parser.accept(TokenKind::LeftBracket)) {
    const SourceRange start = parser.peek().range;
    index = integer_constant(parser, "the index");
    if (!index) return;
    if (*index < 0 || *index >= int64_t(object.element_count))
      return parser.error(SourceRange::join(start, parser.previous().range),
                          "index " + std::to_string(*index) + " is outside '" + var->name + "' (" +
                              std::to_string(object.element_count) + " elements)");
    if (!parser.expect(TokenKind::RightBracket, "']'")) return;
  }
  if (!parser.expect(TokenKind::Equal, "'='")) return;
  std::vector<Word> values = object.initial_values;
  values.resize(object.element_count, 0);
  const std::string what = "the initial value of '" + var->name + "'";
  if (!index && parser.accept(TokenKind::LeftBrace)) {
    const SourceRange open = parser.previous().range;
    std::vector<Word> list;
    while (!parser.at_end() && !parser.at(TokenKind::RightBrace)) {
      std::optional<Word> value = value_constant(parser, element, what);
      if (!value) return;
      list.push_back(*value);
      if (!parser.accept(TokenKind::Comma)) break;
    }
    if (!parser.expect(TokenKind::RightBrace, "'}'")) return;
    if (list.size() > object.element_count)
      return parser.error(SourceRange::join(open, parser.previous().range),
                          "too many values for '" + var->name + "' (" + std::to_string(object.element_count) +
                              " elements)");
    list.resize(object.element_count, 0);
    values = list;
  } else {
    std::optional<Word> value = value_constant(parser, element, what);
    if (!value) return;
    if (index) values[size_t(*index)] = *value;
    else std::fill(values.begin(), values.end(), *value);
  }
  object.initial_values = std::move(values);
}

} // namespace fencelab
