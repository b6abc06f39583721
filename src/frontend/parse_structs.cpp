// Structs of the kernel's own (`struct Particle { float x, y, vx, vy; };`), lowered by the
// parser exactly as the built-in vector types are (parse_vector_types.cpp): a struct variable
// is one scalar variable per field (`p.x`, `p.vx`), an array of or pointer to structs is an
// array of or pointer to their fields, element i's field k at i * fields + k, and a whole
// struct is read and written field by field.
//
// A struct value (a variable, a parameter, a kernel argument) may have fields of any scalar or
// pointer type: each is a variable of its own. Elements in a row are C++'s layout only when
// the fields need no padding between them and the struct none at its end (C++ [class.mem]:
// members in declaration order; padding is the implementation's), which holds when every field
// is a scalar of one size: arrays of and pointers to such structs are supported, and named as
// not supported for a struct with fields of several sizes or a pointer field. The fields in a
// row are elements of the first field's type; a field of another type of that size (`{ float
// value; int index; }`) is read and written through a pointer of its own type to the same bytes
// (Cast::field_view), as CUDA reads those bytes. Member functions and constructors are lowered
// onto __device__ functions (parse_struct_methods.cpp). A struct with array, volatile or vector
// fields, base classes, static members or default member initializers is not supported. It is
// named as not supported where device code uses it, not where it is defined: a struct that only
// host code uses (a configuration record with a `std::string`) does not stop the file.
#include "fencelab/frontend/parser.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

namespace {

bool is_access_specifier(const Token& token) {
  return token.kind == TokenKind::Identifier &&
         (token.text == "public" || token.text == "private" || token.text == "protected");
}

} // namespace

bool Parser::at_elaborated_struct(size_t ahead) const {
  const TokenKind keyword = peek(ahead).kind;
  if (keyword != TokenKind::KwStruct && keyword != TokenKind::KwClass && keyword != TokenKind::KwUnion) return false;
  if (peek(ahead + 1).kind != TokenKind::Identifier || peek(ahead + 2).kind == TokenKind::LeftBrace ||
      peek(ahead + 2).kind == TokenKind::Colon || peek(ahead + 2).kind == TokenKind::Semicolon)
    return false;
  const std::string name(peek(ahead + 1).text);
  return m_struct_types.count(name) > 0 || m_unsupported_structs.count(name) > 0;
}

// struct-definition: ('struct' | 'class') [NAME] '{' { member } '}' ( ';' | typedef-names ';' )
// member: access-specifier ':' | decl-specifiers NAME { ',' NAME } ';'
void Parser::parse_struct_definition(bool typedef_names) {
  const Token& keyword = advance(); // struct | class | union
  std::string tag;
  if (at(TokenKind::Identifier)) tag = std::string(advance().text);
  if (!typedef_names && !tag.empty() && accept(TokenKind::Semicolon)) return; // `struct S;`
  // Why the struct cannot be lowered, the first reason met: reported where device code uses it.
  std::string unsupported;
  if (keyword.kind == TokenKind::KwUnion) unsupported = "overlapping fields (a union)";
  const auto reject = [&](const std::string& reason) {
    if (unsupported.empty()) unsupported = reason;
  };
  // Past the end of the member (or the struct's body) at the cursor, after a reason to reject.
  const auto skip_member = [this]() {
    for (int depth = 0; !at_end(); advance()) {
      if (at(TokenKind::LeftBrace)) ++depth;
      else if (at(TokenKind::RightBrace) && --depth < 0) return; // the struct's own '}'
      else if (at(TokenKind::RightBrace) && depth == 0) {
        advance();
        accept(TokenKind::Semicolon);
        return;
      } else if (at(TokenKind::Semicolon) && depth == 0) {
        advance();
        return;
      }
    }
  };
  if (accept(TokenKind::Colon)) {
    reject("a base class");
    while (!at_end() && !at(TokenKind::LeftBrace) && !at(TokenKind::Semicolon)) advance();
  }
  if (!at(TokenKind::LeftBrace)) {
    error(peek().range, fmt::format("expected '{{' to begin the definition of {} '{}'", keyword.text, tag));
    return skip_unsupported_block(peek().range, "");
  }
  advance(); // {
  VectorType type;
  type.name = tag;
  std::optional<Type> field_type;
  std::string first_field;
  std::vector<ScalarType> field_types;
  std::vector<size_t> method_starts; // parsed once every field is known (C++ [class.mem]/7)
  std::vector<std::pair<uint32_t, uint32_t>> layout; // each member's size and alignment
  while (!at_end() && !at(TokenKind::RightBrace)) {
    if (is_access_specifier(peek()) && peek(1).kind == TokenKind::Colon) { // no meaning to a model
      advance();
      advance();
      continue;
    }
    if (at_struct_member_function(tag)) {
      method_starts.push_back(m_pos);
      skip_member();
      continue;
    }
    DeclSpecifiers spec;
    parse_decl_specifiers(spec);
    if (!spec.has_type) {
      reject(fmt::format("a member declared with '{}'", peek().text));
      skip_member();
      continue;
    }
    const bool qualified =
        spec.is_static || spec.is_shared || spec.is_device || spec.is_constant || spec.is_global || spec.is_extern;
    do {
      const Type member_type = parse_pointers(spec.type);
      if (!at(TokenKind::Identifier)) {
        reject("this member");
        break;
      }
      const Token& name = advance();
      if (qualified) reject(fmt::format("a static or qualified member ('{}')", name.text));
      if (spec.vector && (spec.vector->is_struct() || member_type.is_pointer()))
        reject(fmt::format("a field of type {}{} ('{}')", spec.vector->name, member_type.is_pointer() ? "*" : "",
                           name.text));
      if (at(TokenKind::LeftBracket)) reject(fmt::format("an array field ('{}')", name.text));
      else if (at(TokenKind::Colon)) reject(fmt::format("a bit-field ('{}')", name.text));
      else if (at(TokenKind::Equal) || at(TokenKind::LeftBrace))
        reject(fmt::format("a default member initializer ('{}')", name.text));
      if (member_type.pointer_depth > 1) reject(fmt::format("a pointer-to-pointer field ('{}')", name.text));
      // A variable's qualifiers apply to every field; a field's own would be lost.
      if (member_type.is_volatile)
        reject(fmt::format("a volatile field ('{}'; declare the variable or pointer volatile instead)", name.text));
      if (member_type.is_pointer() && type.layout_problem.empty())
        type.layout_problem = fmt::format("a pointer field ('{}')", name.text);
      if (spec.vector && unsupported.empty() && !at(TokenKind::LeftBracket)) {
        // `float3 pos;`: fields pos.x, pos.y, pos.z of the vector's scalar type. CUDA aligns
        // float2 to 8 and float4 to 16, a 3-vector as its scalar (vector_types.h).
        const VectorType& vector = *spec.vector;
        const uint32_t scalar = scalar_size(vector.scalar);
        layout.emplace_back(vector.width * scalar, vector.width == 3 ? scalar : vector.width * scalar);
        type.vector_fields.emplace_back(std::string(name.text), vector.name);
        for (uint8_t k = 0; k < vector.width; ++k) {
          const std::string field = std::string(name.text) + "." + std::string(vector.field_name(k));
          if (!field_type) {
            field_type = Type::of(vector.scalar);
            first_field = field;
          } else if (scalar != field_type->size() && type.layout_problem.empty()) {
            type.layout_problem = fmt::format("fields of different sizes ('{}' is {}, '{}' is {})", first_field,
                                              field_type->to_string(), field, scalar_spelling(vector.scalar));
          }
          field_types.push_back(vector.scalar);
          type.struct_field_declared.push_back(Type::of(vector.scalar));
          type.struct_fields.push_back(field);
        }
        continue;
      }
      layout.emplace_back(member_type.size(), member_type.size());
      if (!field_type) {
        field_type = member_type;
        first_field = std::string(name.text);
      } else if (member_type.size() != field_type->size() && type.layout_problem.empty()) {
        type.layout_problem = fmt::format("fields of different sizes ('{}' is {}, '{}' is {})", first_field,
                                          field_type->to_string(), name.text, member_type.to_string());
      }
      field_types.push_back(member_type.scalar);
      Type declared = member_type;
      declared.is_const = false; // a const field is written once, by its initializer; not modelled as such
      type.struct_field_declared.push_back(declared);
      for (const std::string& existing : type.struct_fields)
        if (existing == name.text) reject(fmt::format("a second field named '{}'", name.text));
      type.struct_fields.emplace_back(name.text);
      if (!unsupported.empty()) break;
    } while (accept(TokenKind::Comma));
    if (!unsupported.empty()) {
      skip_member();
      continue;
    }
    if (!expect(TokenKind::Semicolon, "';' after the field")) return skip_unsupported_block(peek().range, "");
  }
  const SourceRange close = peek().range;
  expect(TokenKind::RightBrace, "'}' to end the struct");
  if (type.struct_fields.empty()) reject("a struct without fields");
  if (type.struct_fields.size() > 64) reject("a struct of more than 64 fields");
  std::vector<std::string> names;
  if (typedef_names) {
    // `typedef struct [TAG] { ... } NAME, *NAME_PTR;`: pointer aliases are not supported.
    do {
      if (accept(TokenKind::Star)) {
        error(previous().range, "not supported: a typedef of a pointer to a struct");
        while (!at_end() && !at(TokenKind::Semicolon)) advance();
        break;
      }
      if (!at(TokenKind::Identifier)) {
        error(peek().range, "expected the name the typedef declares");
        break;
      }
      names.emplace_back(advance().text);
    } while (accept(TokenKind::Comma));
  } else if (at(TokenKind::Identifier) || at(TokenKind::Star)) {
    error(peek().range, fmt::format("not supported: a variable declared with its struct's definition (declare it "
                                    "after the definition: {} {};)",
                                    tag.empty() ? "NAME" : tag, peek().text));
    while (!at_end() && !at(TokenKind::Semicolon)) advance();
  }
  expect(TokenKind::Semicolon, "';' after the struct");
  if (!tag.empty()) names.insert(names.begin(), tag);
  if (names.empty()) return error(close, "not supported: an unnamed struct without a typedef name");
  if (type.name.empty()) type.name = names.back();
  if (!method_starts.empty() && m_in_function) reject("member functions (of a struct defined in a function)");
  if (unsupported.empty()) {
    type.scalar = field_type->scalar;
    if (std::any_of(field_types.begin(), field_types.end(), [&](ScalarType s) { return s != type.scalar; }))
      type.struct_field_types = field_types; // mixed: one type per field
    type.width = uint8_t(type.struct_fields.size());
    type.struct_size = struct_layout_size(layout);
    const uint32_t in_a_row = uint32_t(type.struct_fields.size()) * field_type->size();
    if (type.layout_problem.empty() && type.struct_size != in_a_row)
      type.layout_problem = fmt::format("padding (sizeof is {}, its fields take {}: a vector field's alignment)",
                                        type.struct_size, in_a_row);
    for (const size_t start : method_starts) type.methods.push_back(struct_method_names(start, type.name));
    for (VectorType::Method& method : type.methods) {
      const auto same_name = [&](const VectorType::Method& other) { return other.written == method.written; };
      if (std::count_if(type.methods.begin(), type.methods.end(), same_name) > 1)
        method.lowered += "/" + std::to_string(method.arity); // overloads, told apart by their arity
    }
  }
  for (const std::string& name : names) {
    if (unsupported.empty()) {
      m_struct_types[name] = type;
      m_unsupported_structs.erase(name);
    } else {
      m_unsupported_structs[name] = fmt::format("not supported: {} '{}' has {}", keyword.text, name, unsupported);
      m_struct_types.erase(name);
    }
  }
  if (unsupported.empty() && !method_starts.empty()) {
    const size_t after = m_pos;
    for (size_t i = 0; i < method_starts.size(); ++i) {
      m_pos = method_starts[i];
      parse_struct_method(type, type.methods[i]);
      clear_panic();
    }
    m_pos = after;
  }
}

uint32_t struct_layout_size(const std::vector<std::pair<uint32_t, uint32_t>>& size_and_alignment) {
  // Each member at the next multiple of its alignment, the whole a multiple of the largest
  // (Itanium C++ ABI 2.4, which nvcc follows for device code; a scalar's alignment is its size).
  uint32_t offset = 0, largest = 1;
  for (const auto& [size, alignment] : size_and_alignment) {
    const uint32_t align = std::max<uint32_t>(alignment, 1);
    offset = (offset + align - 1) / align * align + size;
    largest = std::max(largest, align);
  }
  return (offset + largest - 1) / largest * largest;
}

std::optional<VectorType> VectorType::vector_field(std::string_view name) const {
  for (const auto& [field, vector] : vector_fields)
    if (field == name) return vector_type_named(vector);
  return std::nullopt;
}

} // namespace fencelab
