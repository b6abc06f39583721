// The recursive-descent parser: tokens to the AST (front-end private).
//
// The grammar production a function parses is written above it. Errors are reported and the
// parser recovers (skipping to `;` or `}`), so one pass reports many errors; it never returns
// null expressions or statements (a placeholder stands in after an error). Nesting is capped
// so that no input can exhaust the stack.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/frontend/lexer.h"

#include <optional>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fencelab {

/** The declaration specifiers before a declarator: `static __shared__ volatile int`. */
/** A CUDA built-in vector type (Programming Guide, "Built-in Vector Types": `int2`, `float4`,
 *  `uint3`, `dim3`...). fencelab has no aggregate values: a variable of one is `width` scalar
 *  variables (`v.x`, `v.y`, ...), and an array of or pointer to one is an array of or pointer to
 *  its scalars, element `i` field `k` at `i * width + k` (parse_vector_types.cpp). */
struct VectorType {
  ScalarType scalar = ScalarType::Int;
  uint8_t width = 0;
  bool is_dim3 = false;
  std::string name; ///< as written: `float4`
  /** A struct of the kernel's own (parse_structs.cpp), lowered the same way: its fields' names
   *  in declaration order. Empty for a built-in vector type, whose fields are x, y, z, w. */
  std::vector<std::string> struct_fields;
  /** A struct's field types, each of `scalar`'s size (`int` and `float`); empty when every
   *  field is a `scalar`. An array of such structs is an array of `scalar` whose field k is read
   *  through a `T_k*` view of the same bytes. */
  std::vector<ScalarType> struct_field_types;
  /** A struct's fields as declared (a pointer field keeps its depth and qualifiers): the types
   *  of the variables a struct value is lowered onto. */
  std::vector<Type> struct_field_declared;
  /** Why elements of this struct cannot lie in a row of one scalar's size (fields of different
   *  sizes, a pointer field: C++ would pad them): arrays of and pointers to it are named as not
   *  supported; its values (variables, parameters) are fine. Empty when they can. */
  std::string layout_problem;
  /** `sizeof`: C++'s layout with each field at its own alignment (the Itanium C++ ABI that
   *  nvcc follows: a scalar's alignment is its size), the end padded to the largest. */
  uint32_t struct_size = 0;
  /** A struct's fields of vector type (`float3 pos;`): the field's name and its type's (a
   *  built-in vector type). Each is flattened onto fields `pos.x`, `pos.y`, `pos.z` of the
   *  struct (parse_structs.cpp). */
  std::vector<std::pair<std::string, std::string>> vector_fields;
  /** The type of the vector field `name`, or nullopt. */
  std::optional<VectorType> vector_field(std::string_view name) const;
  /** A member function: its name as written (a constructor's is the struct's), the lowered
   *  __device__ function's name (`Lock::lock`; `S::S/1` for one of several of a name), and its
   *  number of parameters (parse_struct_methods.cpp). */
  struct Method {
    std::string written, lowered;
    size_t arity = 0;
  };
  std::vector<Method> methods;
  bool is_struct() const { return !struct_fields.empty(); }
  /** `sizeof` the whole: a vector's fields are contiguous without padding (vector_types.h
   *  aligns, never pads); a struct's as struct_size. */
  uint32_t byte_size() const { return struct_size ? struct_size : width * scalar_size(scalar); }
  /** The lowered function of member function `name`, or null; of several of that name, the
   *  one of `arity` parameters where there is one (C++ overload resolution by count only). */
  const std::string* method(std::string_view name, std::optional<size_t> arity = std::nullopt) const;
  /** Field `k`'s scalar type. */
  ScalarType field_scalar(uint8_t k) const { return struct_field_types.empty() ? scalar : struct_field_types[k]; }
  /** Field `k`'s name. */
  std::string_view field_name(uint8_t k) const;
  /** The field names, for messages: `xyz`, or `key, value`. */
  std::string field_list() const;
};

/** `sizeof` a struct of members of these sizes and alignments: each at a multiple of its
 *  alignment, the whole padded to the largest (parse_structs.cpp). */
uint32_t struct_layout_size(const std::vector<std::pair<uint32_t, uint32_t>>& size_and_alignment);

/** The structs a translation unit defines, and its aliases of vector types, by name. */
using StructTypes = std::unordered_map<std::string, VectorType>;

/** The vector type `name` spells, or nullopt. */
std::optional<VectorType> vector_type_named(std::string_view name);

struct DeclSpecifiers {
  std::optional<VectorType> vector; ///< the base type is this vector type (type.scalar: its field)
  SourceRange range;
  std::string template_type; ///< the type template parameter the base type names, if any
  Type type;             ///< the base type with its const/volatile
  bool has_type = false; ///< a type specifier was seen
  bool is_global = false, is_device = false, is_host = false, is_shared = false,
       is_constant = false, is_static = false, is_extern = false, is_constexpr = false;
  bool is_auto = false; ///< `auto`: the type is the initializer's (local variables only)
};

/** What the harness says of the types of type template parameters, before parsing:
 *  `//@ template T=float`, and the element types of `//@ arg NAME: TYPE[N]` buffers, from which
 *  the kernel's `T* NAME` deduces `T` (C++ [temp.deduct.call]). */
struct TemplateTypeHints {
  std::unordered_map<std::string, Type> given;
  std::unordered_map<std::string, Type> buffer_element_types;
  std::string kernel; ///< the kernel named by --kernel or //@ kernel; empty: any
};

class Parser {
public:
  Parser(std::vector<Token> tokens, DiagnosticSink& diagnostics);
  void set_template_type_hints(TemplateTypeHints hints) { m_template_hints = std::move(hints); }
  /** In an expectation's predicate, `NAME.FIELD` is the label of an observed field. */
  void set_field_labels(bool on) { m_field_labels = on; }
  /** The structs defined so far; a directive's parser is given the kernel file's. */
  const StructTypes& struct_types() const { return m_struct_types; }
  /** Where the first struct or class template the parser could not read stands, if one did:
   *  code after it that names the template gives errors that only follow from that one
   *  (compile.cpp leaves them out). */
  std::optional<SourceRange> first_unsupported_template() const { return m_first_unsupported_template; }
  void set_struct_types(StructTypes types) { m_struct_types = std::move(types); }

  TranslationUnit parse_translation_unit();

  // Expressions (parse_expressions.cpp); also used by the directive reader.
  ExprPtr parse_expression();
  ExprPtr parse_assignment_expression();
  ExprPtr parse_conditional_expression();
  ExprPtr parse_unary_expression();
  /** type-name: specifiers abstract-pointers (`unsigned int`, `float*`); nullopt on error. */
  std::optional<Type> parse_type_name();
  /** Whether a type name starts `ahead` tokens on (a keyword, an alias, a <cstdint> name). */
  bool is_type_start(size_t ahead = 0) const;
  /** The vector type (`float4`) the last type name parsed spelled; nullopt for a scalar one. */
  const std::optional<VectorType>& last_vector_type() const { return m_last_vector_type; }

  // Token access.
  const Token& peek(size_t ahead = 0) const;
  const Token& previous() const { return m_tokens[m_pos > 0 ? m_pos - 1 : 0]; }
  const Token& advance();
  bool at(TokenKind kind) const { return peek().kind == kind; }
  bool accept(TokenKind kind);
  /** Consumes a token of `kind` or reports "expected WHAT". */
  bool expect(TokenKind kind, const char* what);
  bool at_end() const { return at(TokenKind::EndOfFile); }
  /** Reports an error unless one was already reported since the last recovery point. */
  void error(SourceRange range, std::string message);
  void clear_panic() { m_panic = false; }

private:
  friend class NestingGuard;

  // Declarations (parse_declarations.cpp).
  void parse_top_level(TranslationUnit& unit);
  // Templates (parse_templates.cpp).
  std::vector<TemplateParam> parse_template_header();
  /** Binds the type parameters of every template to the hints' types, deducing from the
   *  kernel's buffer arguments where no directive gives one (a scan before parsing). */
  void bind_template_types();
  void deduce_from_kernel_parameters(size_t open_paren, const std::vector<std::string>& type_names,
                                     std::unordered_map<std::string, Type>& deduced,
                                     std::unordered_map<std::string, bool>& conflicting) const;
  /** `f<A, B>(...)` after a template function's name: each argument must be the parameter's
   *  own name (a value) or the type the parameter already stands for (a type). */
  void parse_explicit_template_arguments(const std::vector<TemplateParam>& params);
  bool parse_decl_specifiers(DeclSpecifiers& specifiers);
  bool names_unsupported_type(size_t ahead) const;
  /** Whether the token `ahead` is cuda_fp16.h's `__half` or `half` used as a type (parser.cpp). */
  bool names_half_type(size_t ahead) const;
  /** `*`s with their qualifiers, then a `&`: a reference where `reference` is given (set to
   *  whether there was one), an error elsewhere. */
  Type parse_pointers(Type base, bool* reference = nullptr);
  void parse_function(TranslationUnit& unit, const DeclSpecifiers& specifiers, Type return_type,
                      const Token& name, std::vector<TemplateParam> template_params);
  VarDeclPtr parse_parameter();
  /** Parses `[N]... = init` after the name; the VarDecl's type and storage are set. */
  VarDeclPtr parse_declarator_rest(VarDeclPtr var);
  ExprPtr parse_initializer();
  void parse_variables(std::vector<VarDeclPtr>& out, const DeclSpecifiers& specifiers,
                       StorageKind storage);
  void skip_unsupported_block(SourceRange range, const std::string& feature);
  /** At `(`: whether a type name follows and then `(` (a functional cast in parentheses). */
  bool functional_cast_in_parentheses();
  /** Whether the declaration from the current token on has an initializer (`=` or `{` before
   *  its `;`, outside brackets). */
  bool initializer_follows() const;
  /** Skips an extern variable declaration without initializer, noting its name (see
   *  parse_top_level). */
  void skip_extern_declaration();
  /** Skips tokens up to and including the next `;` (or to the end). */
  void skip_past_semicolon();
  /** An `auto` variable after its declarator: a local with one initializer expression (named
   *  otherwise); a pointer to vectors or structs stays one (`auto q = particles + i;`). */
  void check_auto_declarator(VarDecl& var, StorageKind storage);
  // Structs (parse_structs.cpp): lowered as vector types are.
  /** `struct NAME { fields };` (also `class`, and a forward declaration `struct NAME;`) at the
   *  cursor; `typedef_names`: after `typedef`, the names declared after the closing brace. */
  void parse_struct_definition(bool typedef_names);
  /** A vector or struct type named `name`, or nullopt. */
  std::optional<VectorType> named_vector_type(std::string_view name) const;
  /** `struct NAME` (an elaborated type specifier) of a defined struct starts `ahead` tokens on. */
  bool at_elaborated_struct(size_t ahead = 0) const;
  StructTypes m_struct_types;
  /** Structs that cannot be lowered, and the message for a use of one (not for the definition:
   *  host code may use it). */
  std::unordered_map<std::string, std::string> m_unsupported_structs;
  // Member functions and constructors (parse_struct_methods.cpp): __device__ functions `S::m`
  // whose first parameters are the object's fields by reference (`this.f`).
  struct MethodContext {
    const VectorType* type;
    bool constructor;
    bool is_static;
    std::string lowered; ///< the function's name (`S::m`), under which its parameters are recorded
  };
  /** A member function (or constructor, destructor, operator) starts at the cursor, inside the
   *  definition of the struct `tag`. */
  bool at_struct_member_function(const std::string& tag) const;
  /** The member function starting at token `start`: its name as written and lowered (`S::m`). */
  VectorType::Method struct_method_names(size_t start, const std::string& struct_name) const;
  /** The number of arguments between the bracket at token `open` (`(` or `{`) and its partner. */
  size_t count_arguments(size_t open) const;
  /** The member function `method` at the cursor, once its struct is complete: a __device__ one
   *  is parsed into m_struct_functions, a host one recorded in m_host_methods. */
  void parse_struct_method(const VectorType& type, const VectorType::Method& method);
  /** In a member function: its object's fields as its first parameters (`this.f`, references). */
  void add_object_parameters(FunctionDecl& function);
  /** A constructor's `: f(e), g{e}` at the cursor: one store per field. */
  std::vector<StmtPtr> parse_member_initializers();
  /** In a member function, the object's field `name` (`*this.f`); null for any other name. */
  ExprPtr object_field(const Token& name);
  /** In a member function, a name that no local hides and that is a field of the object or a call
   *  of another member function; null otherwise (nothing consumed). */
  ExprPtr parse_object_member(const Token& name);
  /** `this->member` after `this`. */
  ExprPtr parse_this_member(const Token& keyword);
  /** `(args)` after a member function's name: the lowered call, the object's field addresses
   *  (`object_fields`) first. */
  ExprPtr parse_method_call(const VectorType& type, const Token& method, std::vector<ExprPtr> object_fields);
  /** parse_method_call with the addresses of the object's fields, `field(k)` each an lvalue. */
  ExprPtr address_of_fields_call(const VectorType& type, const Token& method,
                                 const std::function<ExprPtr(uint8_t)>& field);
  /** After a local struct variable's name, for a struct with a constructor: `(args)`, `{args}` or
   *  nothing, as a hidden variable whose initializer calls the constructor on its fields. */
  void construct_struct_variable(std::vector<VarDeclPtr>& out, const VectorType& type, const VarDecl& var);
  const MethodContext* m_method = nullptr; ///< the member function being parsed
  std::unordered_set<std::string> m_host_methods;           ///< lowered names of host-only ones
  std::unordered_set<std::string> m_struct_functions_named; ///< lowered names parsed
  std::vector<FunctionDeclPtr> m_struct_functions;          ///< parsed, not yet in the unit
  /** The arguments of a call of `function` after its '(' (vector parameters take a whole vector's
   *  fields, reference parameters an object's address); the ')' is left. */
  std::vector<ExprPtr> parse_call_arguments(const std::string& function, TokenKind close = TokenKind::RightParen);
  // Functions returning a struct or vector (parse_struct_returns.cpp): void functions whose
  // first parameters are the destination's fields by reference (`result.f`).
  /** In a function returning a struct or vector: its destination's fields as its first
   *  parameters; the function is recorded in m_struct_returning. */
  void add_result_parameters(FunctionDecl& function);
  /** The struct (or vector) type a call at the cursor returns, where it is `type`; else null. */
  const VectorType* struct_returning_call_at(const VectorType& type) const;
  /** The call at the cursor of a function returning a struct, its destination's field addresses
   *  (`destination`) first. */
  ExprPtr parse_struct_returning_call(std::vector<ExprPtr> destination);
  /** `&lvalue` of each. */
  static std::vector<ExprPtr> field_addresses(std::vector<ExprPtr> lvalues);
  /** A local `var.WHAT` whose initializer runs `call` where `var` is declared. */
  static VarDeclPtr hidden_call_variable(const VarDecl& var, ExprPtr call, const char* what);
  /** After `return` in a function returning a struct: the stores into its destination, then
   *  the return. */
  StmtPtr parse_struct_return(SourceRange keyword);
  std::optional<VectorType> m_function_returns; ///< of the function being parsed
  std::unordered_map<std::string, VectorType> m_struct_returning; ///< functions by name
  // The SharedMemory<T> idiom (parse_shared_memory_struct.cpp).
  struct SharedMemoryIdiom {
    size_t type_start = 0;             ///< token index of the extern __shared__ array's type
    std::string array_name;            ///< and its name (empty until a specialization gives one)
    std::unordered_set<std::string> getters; ///< the older form's `getPointer`
  };
  /** A struct template (or specialization) at the cursor (`struct`) whose members are all
   *  conversion operators returning an extern __shared__ array: consumed and recorded; false
   *  (nothing consumed) for any other. */
  bool parse_shared_memory_template();
  /** `NAME<T>()` after NAME, an idiom's template: the dynamic shared memory as a `T*`. */
  ExprPtr parse_shared_memory_value(const Token& name);
  /** `NAME<T> smem;` at the cursor, NAME an idiom's template (the older form). */
  StmtPtr parse_shared_memory_object();
  /** After such an object's name: `smem.getPointer()` or `smem`, the memory as a `T*`. */
  ExprPtr parse_shared_memory_object_use(const Token& name);
  /** `.GETTER()` of the older form, where one follows. */
  void accept_shared_memory_getter(const SharedMemoryIdiom& idiom);
  /** The dynamic shared memory as a `type*` (its array declared at the first use). */
  ExprPtr shared_memory_pointer(const SharedMemoryIdiom& idiom, const Type& type, SourceRange range);
  std::unordered_map<std::string, SharedMemoryIdiom> m_shared_memory_templates;
  /** A variable named `half` is declared (at file scope; in the function being parsed): there
   *  the name is that variable, not the type (it hides cuda_fp16.h's typedef), so `(half) + 1`
   *  and `sizeof(half)` read it (names_half_type). */
  bool m_half_names_global = false, m_half_names_local = false;
  void note_declared_name(const std::string& name) {
    if (name == "half") (m_in_function ? m_half_names_local : m_half_names_global) = true;
  }
  /** Objects of the older form, by name: their template and type argument. */
  std::unordered_map<std::string, std::pair<std::string, Type>> m_shared_memory_objects;
  bool m_shared_memory_declared = false;
  std::vector<VarDeclPtr> m_pending_globals; ///< declared by the parser, not yet in the unit
  /** Extern variables declared without a definition so far: (name, where). */
  std::vector<std::pair<std::string, SourceRange>> m_extern_declarations;
  std::optional<SourceRange> m_first_unsupported_template;
  // The standard library's names kernels use (parse_std_names.cpp).
  /** After `std`, at `::`: `std::min`/`std::max` (calls of min/max), `std::is_same<A, B>::value`
   *  and `std::is_same_v<A, B>` (bool constants), `std::numeric_limits<T>::max()`, `min()`,
   *  `lowest()` (constants of T); null (nothing consumed) for any other name. */
  ExprPtr parse_std_name(const Token& std);
  // Aliases and enumerations (parse_type_aliases.cpp).
  void parse_type_alias(bool file_scope);
  /** The enumerators, as const int variables of `storage`. */
  std::vector<VarDeclPtr> parse_enum(StorageKind storage);
  // Host code (parse_host_code.cpp).
  bool skip_host_declaration(TranslationUnit& unit);
  void note_host_code(const TranslationUnit& unit);

  // Cooperative groups (parse_cooperative_groups.cpp).
  /** `namespace cg = cooperative_groups;`, `using namespace cooperative_groups;` or `using
   *  cooperative_groups::NAME;` at the cursor: consumed and recorded; false (nothing consumed)
   *  for anything else. */
  bool parse_cooperative_groups_namespace();
  /** The token index of NAME when `cg::NAME` (any alias) or, after `using namespace
   *  cooperative_groups`, a bare NAME of that namespace starts at `ahead`; nullopt otherwise. */
  std::optional<size_t> cooperative_groups_name_at(size_t ahead) const;
  /** A group type (`[const] cg::thread_block [&]`), or `auto NAME = cg::...`, starts at the cursor. */
  bool at_group_declaration() const;
  std::unique_ptr<GroupTypeName> parse_group_type();
  StmtPtr parse_group_declaration();
  VarDeclPtr parse_group_parameter();
  ExprPtr parse_cooperative_groups_expression();
  ExprPtr parse_member_call(ExprPtr object);

  // Statements (parse_statements.cpp).
  StmtPtr parse_statement();
  std::unique_ptr<Compound> parse_compound();
  StmtPtr parse_declaration_statement();
  StmtPtr parse_if();
  /** A branch of `if constexpr`: its diagnostics go to `held` (If::then_diagnostics). */
  StmtPtr parse_constexpr_branch(std::vector<Diagnostic>& held);
  /** After a statement that started at token `before`: out of error recovery at its end. */
  void recover_after_statement(size_t before);
  StmtPtr parse_for();
  StmtPtr parse_while();
  StmtPtr parse_do_while();
  StmtPtr parse_switch();
  StmtPtr parse_jump();
  void synchronize_statement();

  // Expressions.
  ExprPtr parse_binary(int min_precedence);
  ExprPtr parse_postfix(ExprPtr expr);
  ExprPtr parse_primary();
  ExprPtr parse_literal();
  ExprPtr parse_identifier_expression();
  ExprPtr parse_cast_keyword();
  ExprPtr parse_sizeof();
  ExprPtr placeholder(SourceRange range);

  std::vector<Token> m_tokens;
  size_t m_pos = 0;
  DiagnosticSink& m_diagnostics;
  bool m_panic = false;
  int m_depth = 0;
  /** Template parameters of the function templates seen so far (for `f<N>(x)`). */
  std::unordered_map<std::string, std::vector<TemplateParam>> m_template_functions;
  TemplateTypeHints m_template_hints;
  /** Type template parameter names bound for the whole file (given, deduced or unbound). */
  std::unordered_map<std::string, TemplateParam> m_template_types;
  /** Names `typedef`, `using` and enumerations declared so far, and the types they stand for. */
  std::unordered_map<std::string, Type> m_type_aliases;
  /** Names of the cooperative_groups namespace: itself and its aliases (`namespace cg = ...`). */
  std::vector<std::string> m_cooperative_groups_namespaces{"cooperative_groups"};
  bool m_using_cooperative_groups = false; ///< `using namespace cooperative_groups;` seen

  // Vector types (parse_vector_types.cpp).
  struct VectorVariable {
    VectorType type;
    bool sequence = false; ///< a pointer to or array of vectors, not a vector value
  };
  /** The token index of the `closing` that closes the `opening` at token `open` (`[`/`]`,
   *  `(`/`)`, `<`/`>`), counting only that pair; the end-of-file token's when unbalanced. */
  size_t matching_close(size_t open, TokenKind opening, TokenKind closing) const;
  /** The vector variable `name` names here; null for any other name. */
  const VectorVariable* vector_variable(const std::string& name) const;
  /** Records what a declared name is: a vector variable, or (nullopt) anything else, which
   *  hides a vector variable of the same name from an enclosing scope. */
  void declare_vector_name(const std::string& name, std::optional<VectorVariable> variable);
  /** After a declarator's name, for a vector base type: the variable as scalars (values) or as
   *  an array of or pointer to scalars (sequences), with its initializer split into fields. */
  void parse_vector_declarator(std::vector<VarDeclPtr>& out, const DeclSpecifiers& spec, VarDeclPtr var);
  /** The fields of a vector parameter as parameters `a.x`, `a.y`, ... */
  std::vector<VarDeclPtr> expand_vector_parameter(VarDeclPtr param, const VectorType& type);
  /** A whole vector value (`make_float4(...)`, a vector variable, `p[i]`, `threadIdx`, `dim3(...)`)
   *  as its fields: the tokens are parsed once per field. */
  std::vector<ExprPtr> parse_vector_value(const VectorType& type);
  ExprPtr parse_vector_field(const VectorType& type, uint8_t field);
  /** `NAME.x` of a vector value, `p[i].x` and `p->x` of a sequence; null if `name` is no vector. */
  ExprPtr parse_vector_member(const Token& name);
  /** `x`, `y`, `z` or `w` at the cursor, a field of `type`: its index (consumed), else an error. */
  std::optional<uint8_t> parse_field_name(const VectorType& type);
  ExprPtr parse_sequence_element_field(ExprPtr base, const VectorType& type, std::optional<uint8_t> whole_field);
  /** Tokens past a whole-vector lvalue at the cursor (`v`, `p[i]`), or 0 when none starts there. */
  size_t vector_lvalue_length(VectorType& type) const;
  /** `&p[i]` of a pointer to or array of vectors (or structs) at the cursor: `&p[i * width]`, the
   *  address of element i's first field; null (nothing consumed) for any other operand. */
  ExprPtr parse_vector_element_address();
  /** The element type when `expr` is a pointer to vectors or structs (a sequence variable, or
   *  arithmetic on one), else null. */
  const VectorType* sequence_type(const Expr& expr) const;
  /** `count` elements of `width` fields, counted in fields: `count * width` (C++ [expr.add]). */
  static ExprPtr count_in_fields(ExprPtr count, uint32_t width);
  /** `lhs op rhs`, with `p + n`, `p - n`, `n + p` and `p - q` of such pointers counted in
   *  elements: n multiplied by the width, a difference divided by it. */
  ExprPtr scale_sequence_arithmetic(BinaryOp op, ExprPtr lhs, ExprPtr rhs);
  /** Arithmetic results that are pointers to vectors or structs: their range (to tell a live
   *  node from a freed one whose address was reused) and width. */
  std::unordered_map<const Expr*, std::pair<SourceRange, VectorType>> m_sequence_results;
  /** Field `field` of the element of `base` (a pointer to vectors or structs) at `offset`
   *  fields on: `base[offset]`, read through a view of the field's type where it differs. */
  ExprPtr field_of_element(ExprPtr base, const VectorType& type, uint8_t field, ExprPtr offset, SourceRange range);
  /** `v = value` or `p[i] = value` for a whole vector: one assignment per field. */
  ExprPtr parse_vector_assignment(const VectorType& type);
  std::unordered_map<std::string, VectorVariable> m_vector_globals;
  std::unordered_map<std::string, std::optional<VectorVariable>> m_vector_locals; ///< this function's
  /** Per function, per parameter as written: its vector type, when passed by value. */
  std::unordered_map<std::string, std::vector<std::optional<VectorType>>> m_vector_parameters;
  /** Casts to a pointer to a vector type (`reinterpret_cast<float4*>(x)`), indexable as sequences;
   *  the range tells a live cast from a freed one whose address was reused. */
  struct VectorPointerCast {
    VectorType type;
    SourceRange range;
  };
  std::unordered_map<const Expr*, VectorPointerCast> m_vector_pointer_casts;
  /** Records a cast to a pointer to `vector` (an error for a cast to a vector value). */
  ExprPtr vector_cast(ExprPtr cast, const std::optional<VectorType>& vector);
  bool is_vector_pointer_cast(const Expr& expr) const;
  // References (parse_references.cpp): a `T&` parameter or local is a `T*`, used as `*r`.
  /** Consumes a `&` after the pointers of a declarator: true if there was one and it is
   *  `allowed` there (a parameter or a local); otherwise reports it. */
  bool parse_reference_marker(bool allowed);
  /** The pointer type that stands for a reference to `referred` (an error for a vector type). */
  Type reference_type(Type referred, const std::optional<VectorType>& vector, SourceRange range);
  /** Records whether a name declared in this function is a reference (a later declaration of the
   *  name that is not one hides it). */
  void declare_reference_name(const std::string& name, bool reference);
  bool is_reference_name(const std::string& name) const;
  /** `referred` bound to a reference (`what` names it): its address; an error unless it
   *  designates an object. */
  ExprPtr bind_reference(ExprPtr referred, const std::string& what);
  /** A use of the reference `name`: `*name`. */
  ExprPtr reference_use(const Token& name);
  std::unordered_map<std::string, bool> m_reference_locals; ///< this function's
  /** Per function, per parameter as written: whether it is a reference. */
  std::unordered_map<std::string, std::vector<bool>> m_reference_parameters;
  bool m_parameter_reference = false; ///< of the last parameter parsed
  std::optional<VectorType> m_last_vector_type; ///< of the last decl-specifiers parsed
  std::optional<VectorType> m_parameter_vector; ///< of the last parameter parsed
  bool m_in_function = false;
  bool m_field_labels = false;
  bool m_auto_allowed = false; ///< parsing a local declaration's specifiers: `auto` is a type
};

/** Limits recursion: constructing past the cap reports one error; `ok()` says whether under. */
class NestingGuard {
public:
  explicit NestingGuard(Parser& parser);
  ~NestingGuard() { --m_parser.m_depth; }
  bool ok() const { return m_ok; }

private:
  Parser& m_parser;
  bool m_ok;
};

// Literal decoding (literals.cpp): value and type of a literal token, or an error message.
struct LiteralValue {
  Word bits = 0;
  Type type;
  std::string error; ///< non-empty when the literal is malformed or unsupported
};
LiteralValue decode_integer_literal(std::string_view text);
LiteralValue decode_float_literal(std::string_view text);
LiteralValue decode_char_literal(std::string_view text);
/** Decodes a string literal's contents; `error` set on a bad escape or a missing quote. */
std::string decode_string_literal(std::string_view text, std::string& error);

} // namespace fencelab
