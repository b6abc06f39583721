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
// use of the idiom; the value is a cast of it. A struct template of any other shape is named as
// not supported.
#include "fencelab/frontend/parser.h"

namespace fencelab {

bool Parser::parse_shared_memory_template() {
  // struct NAME [ '<' ... '>' ] '{' { conversion-operator } '}' ';'
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
  // Each member: tokens up to its body, which must hold `operator` ... `*` `(`; its body must
  // declare an extern __shared__ array and return.
  std::optional<SharedMemoryIdiom> idiom;
  size_t members = 0;
  ++i;
  while (kind(i) != TokenKind::RightBrace) {
    bool conversion = false, pointer = false;
    while (kind(i) != TokenKind::LeftBrace && kind(i) != TokenKind::Semicolon && kind(i) != TokenKind::EndOfFile) {
      conversion = conversion || kind(i) == TokenKind::KwOperator;
      pointer = pointer || (conversion && kind(i) == TokenKind::Star);
      ++i;
    }
    if (!conversion || !pointer || kind(i) != TokenKind::LeftBrace) return false;
    // The body: `extern __shared__ TYPE NAME [ ] ;` somewhere, and a return.
    int depth = 0;
    bool returns = false;
    for (;; ++i) {
      const TokenKind k = kind(i);
      if (k == TokenKind::EndOfFile) return false;
      if (k == TokenKind::LeftBrace) ++depth;
      else if (k == TokenKind::RightBrace && --depth == 0) break;
      else if (k == TokenKind::KwReturn) returns = true;
      else if (k == TokenKind::KwExtern && kind(i + 1) == TokenKind::KwShared && !idiom) {
        // extern __shared__ TYPE NAME [ ]
        size_t j = i + 2;
        while (kind(j) != TokenKind::Identifier || kind(j + 1) != TokenKind::LeftBracket) {
          if (kind(j) == TokenKind::Semicolon || kind(j) == TokenKind::EndOfFile) return false;
          ++j;
        }
        idiom = SharedMemoryIdiom{i + 2, std::string(m_tokens[j].text)};
      }
    }
    if (!returns) return false;
    ++i; // past the body's '}'
    ++members;
  }
  if (!members || !idiom) return false;
  if (!m_shared_memory_templates.count(name)) m_shared_memory_templates[name] = *idiom;
  m_pos = i + 1; // past the struct's '}'
  accept(TokenKind::Semicolon);
  return true;
}

ExprPtr Parser::parse_shared_memory_value(const Token& name) {
  // NAME '<' type-name '>' '(' ')'
  const SharedMemoryIdiom& idiom = m_shared_memory_templates.at(std::string(name.text));
  advance(); // '<'
  std::optional<Type> type = parse_type_name();
  expect(TokenKind::Greater, "'>' after the type");
  expect(TokenKind::LeftParen, "'(' (the idiom converts a SharedMemory<T>() temporary to T*)");
  expect(TokenKind::RightParen, "')'");
  const SourceRange range = SourceRange::join(name.range, previous().range);
  if (!type) return placeholder(range);
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
  return std::make_unique<Cast>(range, Type::pointer_to(*type), std::make_unique<NameRef>(range, idiom.array_name),
                                false);
}

} // namespace fencelab
