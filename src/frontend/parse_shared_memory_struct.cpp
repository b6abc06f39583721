// The `SharedMemory<T>` idiom of NVIDIA's samples (reduction, threadFenceReduction, ...): a
// struct template whose only members are conversion operators to `T*`, each declaring an
// `extern __shared__` array and returning it cast to `T*`:
//
//   template <class T> struct SharedMemory {
//     __device__ inline operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
//     __device__ inline operator const T*() const { extern __shared__ int __smem[]; return (T*)__smem; }
//   };
//   template <> struct SharedMemory<double> { ... extern __shared__ double __smem_d[]; ... };
//   T* sdata = SharedMemory<T>();
//
// Every `extern __shared__` array of a kernel starts at the block's dynamic shared memory
// (Programming Guide 7.2.3), so `SharedMemory<T>()` is that memory's address as a `T*`,
// whichever specialization is chosen. fencelab models dynamic shared memory as one array (the
// first such declaration met, sized by the launch's `shared=BYTES`), declared here at the first
// use of the idiom; the value is a cast of it. The samples' older form, a getter instead of the
// conversion (`SharedMemory<T> smem; T* s = smem.getPointer();`, one specialization per type and a
// generic template that calls an undefined error()), is read the same way. A struct template of
// any other shape is named as not supported.
#include "fencelab/frontend/parser.h"

namespace fencelab {

bool Parser::parse_shared_memory_template() {
  // struct NAME [ '<' ... '>' ] '{' { member } '}' ';'
  // member: ... 'operator' ... '*' ... '(' ... ')' body | ... '*' GETTER '(' ')' body
  size_t i = m_pos + 1;
  const auto kind = [&](size_t at) { return at < m_tokens.size() ? m_tokens[at].kind : TokenKind::EndOfFile; };
  if (kind(i) != TokenKind::Identifier) return false;
  const std::string name(m_tokens[i].text);
  ++i;
  while (kind(i) == TokenKind::Less || kind(i) == TokenKind::Identifier || kind(i) == TokenKind::Greater ||
         is_type_start(i - m_pos)) // a specialization's arguments: `<double>`
    ++i;
  while (kind(i) != TokenKind::LeftBrace && kind(i) != TokenKind::EndOfFile && kind(i) != TokenKind::Semicolon) ++i;
  if (kind(i) != TokenKind::LeftBrace) return false;
  SharedMemoryIdiom found;
  size_t members = 0;
  ++i;
  while (kind(i) != TokenKind::RightBrace) {
    // Up to the body: a conversion operator to a pointer, or a getter returning a pointer.
    bool conversion = false, pointer = false;
    std::string getter;
    while (kind(i) != TokenKind::LeftBrace && kind(i) != TokenKind::Semicolon && kind(i) != TokenKind::EndOfFile) {
      conversion = conversion || kind(i) == TokenKind::KwOperator;
      pointer = pointer || kind(i) == TokenKind::Star;
      if (!conversion && pointer && getter.empty() && kind(i) == TokenKind::Identifier &&
          kind(i + 1) == TokenKind::LeftParen)
        getter = std::string(m_tokens[i].text);
      ++i;
    }
    if (!pointer || (!conversion && getter.empty()) || kind(i) != TokenKind::LeftBrace) return false;
    if (!getter.empty()) found.getters.insert(getter);
    // The body returns; where it declares `extern __shared__ TYPE NAME[]`, that is the memory
    // (the generic template of the older form calls an undefined error() instead).
    int depth = 0;
    bool returns = false;
    for (;; ++i) {
      const TokenKind k = kind(i);
      if (k == TokenKind::EndOfFile) return false;
      if (k == TokenKind::LeftBrace) ++depth;
      else if (k == TokenKind::RightBrace && --depth == 0) break;
      else if (k == TokenKind::KwReturn) returns = true;
      else if (k == TokenKind::KwExtern && kind(i + 1) == TokenKind::KwShared && found.array_name.empty()) {
        size_t j = i + 2;
        while (kind(j) != TokenKind::Identifier || kind(j + 1) != TokenKind::LeftBracket) {
          if (kind(j) == TokenKind::Semicolon || kind(j) == TokenKind::EndOfFile) return false;
          ++j;
        }
        found.type_start = i + 2;
        found.array_name = std::string(m_tokens[j].text);
      }
    }
    if (!returns) return false;
    ++i; // past the body's '}'
    ++members;
  }
  if (!members) return false;
  SharedMemoryIdiom& idiom = m_shared_memory_templates[name];
  idiom.getters.insert(found.getters.begin(), found.getters.end());
  if (idiom.array_name.empty()) {
    idiom.type_start = found.type_start;
    idiom.array_name = found.array_name;
  }
  m_pos = i + 1; // past the struct's '}'
  accept(TokenKind::Semicolon);
  return true;
}

StmtPtr Parser::parse_shared_memory_object() {
  // NAME '<' type-name '>' VARIABLE ';'   (the older form: `SharedMemory<T> smem;`)
  const Token& name = advance();
  advance(); // '<'
  const std::optional<Type> type = parse_type_name();
  expect(TokenKind::Greater, "'>' after the type");
  if (!at(TokenKind::Identifier)) {
    error(peek().range, "expected the variable's name");
    return std::make_unique<SimpleStmt>(StmtKind::Null, name.range);
  }
  const Token& variable = advance();
  expect(TokenKind::Semicolon, "';' after the declaration");
  m_shared_memory_objects[std::string(variable.text)] = {std::string(name.text), type.value_or(Type::of(ScalarType::Int))};
  return std::make_unique<SimpleStmt>(StmtKind::Null, SourceRange::join(name.range, previous().range));
}

ExprPtr Parser::parse_shared_memory_object_use(const Token& name) {
  // VARIABLE [ '.' GETTER '(' ')' ]: the memory as a T*, through the getter or the conversion.
  const auto& [idiom_name, type] = m_shared_memory_objects.at(std::string(name.text));
  const SharedMemoryIdiom& idiom = m_shared_memory_templates.at(idiom_name);
  accept_shared_memory_getter(idiom);
  return shared_memory_pointer(idiom, type, SourceRange::join(name.range, previous().range));
}

void Parser::accept_shared_memory_getter(const SharedMemoryIdiom& idiom) {
  if (!at(TokenKind::Dot) || peek(1).kind != TokenKind::Identifier || !idiom.getters.count(std::string(peek(1).text)))
    return;
  advance();
  advance();
  expect(TokenKind::LeftParen, "'(' after the member function's name");
  expect(TokenKind::RightParen, "')'");
}

ExprPtr Parser::parse_shared_memory_value(const Token& name) {
  // NAME '<' type-name '>' '(' ')'
  const SharedMemoryIdiom& idiom = m_shared_memory_templates.at(std::string(name.text));
  advance(); // '<'
  std::optional<Type> type = parse_type_name();
  expect(TokenKind::Greater, "'>' after the type");
  expect(TokenKind::LeftParen, "'(' (the idiom converts a SharedMemory<T>() temporary to T*)");
  expect(TokenKind::RightParen, "')'");
  accept_shared_memory_getter(idiom); // the older form on a temporary: SharedMemory<T>().getPointer()
  const SourceRange range = SourceRange::join(name.range, previous().range);
  if (!type) return placeholder(range);
  return shared_memory_pointer(idiom, *type, range);
}

ExprPtr Parser::shared_memory_pointer(const SharedMemoryIdiom& idiom, const Type& type, SourceRange range) {
  if (idiom.array_name.empty()) {
    error(range, "no specialization of this SharedMemory template declares its extern __shared__ array");
    return placeholder(range);
  }
  if (!m_shared_memory_declared) {
    // The array the operators declare, as a file-scope `extern __shared__ TYPE NAME[];`.
    const size_t after = m_pos;
    m_pos = idiom.type_start;
    const std::optional<Type> element = parse_type_name();
    m_pos = after;
    auto memory = std::make_unique<VarDecl>();
    memory->name = idiom.array_name;
    // Placed where the idiom's array is declared, before the kernels that use it.
    memory->range = memory->name_range = m_tokens[idiom.type_start].range;
    memory->storage = StorageKind::Shared;
    memory->dynamic_shared = true;
    memory->type = element.value_or(Type::of(ScalarType::Int));
    memory->array_extents.push_back(nullptr);
    m_pending_globals.push_back(std::move(memory));
    m_shared_memory_declared = true;
  }
  return std::make_unique<Cast>(range, Type::pointer_to(type), std::make_unique<NameRef>(range, idiom.array_name),
                                false);
}

} // namespace fencelab
