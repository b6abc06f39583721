// The abstract syntax tree of a kernel file.
//
// The parser builds it; sema annotates it in place (types, resolved names, frame slots, memory
// objects, implicit conversions as Cast nodes with `implicit = true`); the interpreter walks
// it. Every node carries the SourceRange of the text it came from. Annotations written by sema
// are marked "sema:" below; before sema they hold their defaults.
//
// Invariants after a successful sema (the interpreter relies on them):
//  - every Expr has its `type` set; operands of Binary (except shifts, logical, comma and
//    pointer arithmetic), Conditional branches, assignment right-hand sides, call arguments and
//    return values have already been converted by explicit Cast nodes to the type required;
//  - an array-typed NameRef has a pointer type (the array has decayed);
//  - a NameRef resolves to exactly one of: a VarDecl (`variable`) or a constant (`constant`);
//  - a Call resolves to exactly one of: a FunctionDecl (`function`) or a Builtin (`builtin`).
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/support/source.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fencelab {

#include "fencelab/frontend/ast.def"

enum class ExprKind : uint8_t {
#define X(name) name,
  FENCELAB_EXPR_KINDS(X)
#undef X
};

enum class StmtKind : uint8_t {
#define X(name) name,
  FENCELAB_STMT_KINDS(X)
#undef X
};

enum class UnaryOp : uint8_t {
#define X(name, spelling) name,
  FENCELAB_UNARY_OPS(X)
#undef X
};

enum class BinaryOp : uint8_t {
#define X(name, spelling) name,
  FENCELAB_BINARY_OPS(X)
#undef X
};

enum class BuiltinVariableKind : uint8_t {
#define X(name, spelling) name,
  FENCELAB_BUILTIN_VARIABLES(X)
#undef X
};

enum class BuiltinCategory : uint8_t { Math, Bits, Fence, Barrier, Atomic, Warp, Io, Misc, Clock };

enum class Builtin : uint16_t {
#define BUILTIN(name, spelling, category, min_args, max_args) name,
#include "fencelab/frontend/builtins.def"
};

/** One row of builtins.def. */
struct BuiltinInfo {
  Builtin id;
  const char* spelling;
  BuiltinCategory category;
  uint8_t min_args;
  uint8_t max_args;
};

const char* expr_kind_name(ExprKind kind);
const char* stmt_kind_name(StmtKind kind);
const char* unary_op_spelling(UnaryOp op);
const char* binary_op_spelling(BinaryOp op);
const char* builtin_variable_spelling(BuiltinVariableKind kind);
const BuiltinInfo& builtin_info(Builtin builtin);
/** Looks a builtin function up by its spelling; nullptr when there is none. */
const BuiltinInfo* find_builtin(std::string_view spelling);

struct VarDecl;
struct FunctionDecl;

// ---------------------------------------------------------------------------------------------
// Expressions

struct Expr {
  ExprKind kind;
  SourceRange range;
  Type type;              ///< sema: the type of the value this expression yields
  bool is_lvalue = false; ///< sema: designates an object (assignable unless const)

  Expr(ExprKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
};
using ExprPtr = std::unique_ptr<Expr>;

/** IntegerLiteral, FloatLiteral, BoolLiteral. The parser sets `type` from the suffix. */
struct Literal : Expr {
  Word bits = 0; ///< canonical word of `type`
  Literal(ExprKind kind, SourceRange range, Word bits, Type type) : Expr(kind, range), bits(bits) {
    this->type = type;
  }
};

struct StringLiteral : Expr {
  std::string value; ///< escapes already processed
  StringLiteral(SourceRange range, std::string value)
      : Expr(ExprKind::StringLiteral, range), value(std::move(value)) {}
};

struct NameRef : Expr {
  std::string name;
  const VarDecl* variable = nullptr;   ///< sema: the variable or parameter named
  std::optional<Word> constant;        ///< sema: value of a template parameter or builtin constant
  int32_t observed_item = -1;          ///< sema (directive predicates only): ObservedItem index
  NameRef(SourceRange range, std::string name) : Expr(ExprKind::NameRef, range), name(std::move(name)) {}
};

/** threadIdx.x and friends; `component` is 0, 1, 2 for x, y, z (0 for warpSize). */
struct BuiltinVariable : Expr {
  BuiltinVariableKind variable;
  uint8_t component = 0;
  BuiltinVariable(SourceRange range, BuiltinVariableKind variable, uint8_t component)
      : Expr(ExprKind::BuiltinVariable, range), variable(variable), component(component) {}
};

struct Unary : Expr {
  UnaryOp op;
  ExprPtr operand;
  Unary(SourceRange range, UnaryOp op, ExprPtr operand)
      : Expr(ExprKind::Unary, range), op(op), operand(std::move(operand)) {}
};

struct Binary : Expr {
  BinaryOp op;
  ExprPtr lhs, rhs;
  Binary(SourceRange range, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::Binary, range), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
};

/** `lhs = rhs` when `compound` is empty, else `lhs op= rhs`. */
struct Assign : Expr {
  std::optional<BinaryOp> compound;
  ExprPtr lhs, rhs;
  /** sema: for compound assignment, the type the operation is done in (rhs already converted
   *  to it, except for pointer += integer); the result is converted back to lhs->type. */
  Type computation_type;
  Assign(SourceRange range, std::optional<BinaryOp> compound, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::Assign, range), compound(compound), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
};

struct Conditional : Expr {
  ExprPtr condition, then_value, else_value;
  Conditional(SourceRange range, ExprPtr condition, ExprPtr then_value, ExprPtr else_value)
      : Expr(ExprKind::Conditional, range), condition(std::move(condition)),
        then_value(std::move(then_value)), else_value(std::move(else_value)) {}
};

struct Call : Expr {
  std::string callee;
  SourceRange callee_range;
  std::vector<ExprPtr> args;
  const FunctionDecl* function = nullptr; ///< sema: a __device__ function ...
  std::optional<Builtin> builtin;          ///< sema: ... or a builtin
  bool explicit_template_arguments = false; ///< `f<T>(x)`: nothing is deduced from the arguments
  /** `object.callee(args)`: a member function call; only cooperative groups have them, and
   *  sema lowers each (sema_cooperative_groups.cpp), so none is left after sema. */
  ExprPtr object;
  /** Parameters past args.size() take their default values from the FunctionDecl. */
  Call(SourceRange range, std::string callee, SourceRange callee_range, std::vector<ExprPtr> args)
      : Expr(ExprKind::Call, range), callee(std::move(callee)), callee_range(callee_range),
        args(std::move(args)) {}
};

struct Index : Expr {
  ExprPtr base, index;
  int32_t observed_item = -1; ///< sema (directive predicates only): ObservedItem index
  Index(SourceRange range, ExprPtr base, ExprPtr index)
      : Expr(ExprKind::Index, range), base(std::move(base)), index(std::move(index)) {}
};

/** A conversion to `type`: written by the user, or inserted by sema (`implicit`). */
struct Cast : Expr {
  ExprPtr operand;
  bool implicit = false;
  /** A pointer to a struct's field of another type than the struct's array elements (an `int`
   *  array read as `float` at a `float` field, parse_structs.cpp): sema gives it the operand's
   *  pointer type, qualifiers included, with this cast's scalar. */
  bool field_view = false;
  Cast(SourceRange range, Type target, ExprPtr operand, bool implicit)
      : Expr(ExprKind::Cast, range), operand(std::move(operand)), implicit(implicit) {
    type = target;
  }
};

struct InitList : Expr {
  std::vector<ExprPtr> elements;
  InitList(SourceRange range, std::vector<ExprPtr> elements)
      : Expr(ExprKind::InitList, range), elements(std::move(elements)) {}
};

// ---------------------------------------------------------------------------------------------
// Declarations

enum class StorageKind : uint8_t {
  Local,    ///< a function's local variable (thread-private)
  Param,    ///< a function parameter (thread-private)
  Global,   ///< a `__device__` variable
  Shared,   ///< a `__shared__` variable (one instance per block), wherever declared
  Constant, ///< a `__constant__` variable
};

/** A cooperative group's type as written (`cg::thread_block_tile<32>`, `auto`): sema resolves
 *  the variable to a compile-time description of the group (sema_cooperative_groups.cpp). */
struct GroupTypeName {
  std::string name;    ///< thread_block, thread_block_tile, grid_group, coalesced_group, thread_group, auto, ...
  SourceRange range;
  std::unique_ptr<Expr> tile_size; ///< thread_block_tile<N>: N
};

struct VarDecl {
  std::string name;
  SourceRange range;      ///< the whole declarator
  SourceRange name_range; ///< the name alone
  StorageKind storage = StorageKind::Local;
  Type type;                           ///< the declared type (element type for arrays)
  std::vector<ExprPtr> array_extents;  ///< empty for scalars; one per dimension as written
  ExprPtr initializer;                 ///< may be an InitList; for parameters, the default value
  bool is_static = false;
  /** `extern __shared__ T a[];`: sized by the launch (`shared=BYTES`), not by the declarator. */
  bool dynamic_shared = false;
  /** A parameter declared with a type template parameter (`T* data`): its name. A call must
   *  pass that very type, since the template has one instantiation. */
  std::string template_type;
  /** A cooperative group (`cg::thread_block b = ...`), not a value of `type`; null otherwise. */
  std::unique_ptr<GroupTypeName> group_type;
  /** Declared by sema's lowering, not by the user: never observed by default. */
  bool implicit = false;
  /** Declared `auto`: sema gives it its initializer's type (C++ [dcl.type.auto.deduct]: the
   *  initializer's top-level const and volatile dropped, the declaration's own kept). */
  bool deduced_type = false;
  /** An array of or pointer to structs whose fields differ in type (of one size): each field's
   *  scalar, in order; element i is field i % size (parse_structs.cpp). Empty otherwise. */
  std::vector<ScalarType> field_types;

  // sema:
  bool is_array = false;
  uint32_t array_length = 0;  ///< total elements, when is_array
  /** A multi-dimensional array's extents, outermost first (`float t[32][33]`: {32, 33}); its
   *  elements are laid out row-major, one array of array_length; empty for one dimension. */
  std::vector<uint32_t> dimensions;
  uint32_t slot = 0;          ///< Local/Param: frame slot (for a local array, holds its pointer)
  uint32_t object_id = 0;     ///< Global/Shared/Constant: index into Program::memory_objects
  /** sema: a local or parameter whose address is taken (`&x`, or bound to a reference): it is
   *  kept in the thread's private memory, not in a register slot. */
  bool address_taken = false;
};
using VarDeclPtr = std::unique_ptr<VarDecl>;

enum class FunctionSpace : uint8_t { Global, Device, HostDevice, Host };

struct TemplateParam {
  std::string name;
  SourceRange range;
  Type type; ///< non-type: the parameter's type (`template<int N>`); type: the type it stands for
  /** `template<typename T>`: a type parameter. fencelab instantiates each template once, with
   *  one type per parameter name for the whole file (docs/kernel-language.md, "Templates"). */
  bool is_type = false;
  /** A type parameter no directive gave and no argument deduced: the template cannot be used
   *  (it was parsed with `int` standing in, so that its errors are its own). */
  bool is_unbound = false;
};

struct Stmt;
struct Compound;

struct FunctionDecl {
  std::string name;
  SourceRange range;
  SourceRange name_range;
  FunctionSpace space = FunctionSpace::Device;
  Type return_type;
  std::vector<TemplateParam> template_params;
  std::vector<VarDeclPtr> params;   ///< storage Param; `initializer` is the default argument
  std::unique_ptr<Compound> body;   ///< null for a prototype

  // sema:
  uint32_t frame_slots = 0; ///< slots needed by params and locals
  bool contains_loop = false; ///< has a for, while or do statement (Machine::Impl::read_may_repeat)
  const FunctionDecl* definition = nullptr; ///< for a prototype, the definition it names
};
using FunctionDeclPtr = std::unique_ptr<FunctionDecl>;

// ---------------------------------------------------------------------------------------------
// Statements

struct Stmt {
  StmtKind kind;
  SourceRange range;
  Stmt(StmtKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct Compound : Stmt {
  std::vector<StmtPtr> body;
  Compound(SourceRange range, std::vector<StmtPtr> body)
      : Stmt(StmtKind::Compound, range), body(std::move(body)) {}
};

struct Declaration : Stmt {
  std::vector<VarDeclPtr> variables;
  Declaration(SourceRange range, std::vector<VarDeclPtr> variables)
      : Stmt(StmtKind::Declaration, range), variables(std::move(variables)) {}
};

struct ExprStmt : Stmt {
  ExprPtr expr;
  ExprStmt(SourceRange range, ExprPtr expr) : Stmt(StmtKind::ExprStmt, range), expr(std::move(expr)) {}
};

struct If : Stmt {
  ExprPtr condition;
  StmtPtr then_branch, else_branch; ///< else_branch may be null
  /** `if constexpr`: sema checks the branch taken only and replaces the other with a null
   *  statement (C++ [stmt.if]/2: a discarded statement of a template is not instantiated). */
  bool is_constexpr = false;
  /** What parsing each branch of an `if constexpr` reported, held back until sema knows which
   *  branch is taken (the parser already lowers by type: `v.x` on a T that has no fields). */
  std::vector<Diagnostic> then_diagnostics, else_diagnostics;
  If(SourceRange range, ExprPtr condition, StmtPtr then_branch, StmtPtr else_branch)
      : Stmt(StmtKind::If, range), condition(std::move(condition)),
        then_branch(std::move(then_branch)), else_branch(std::move(else_branch)) {}
};

struct For : Stmt {
  StmtPtr init;      ///< Declaration, ExprStmt or null
  ExprPtr condition; ///< null means true
  ExprPtr step;      ///< may be null
  StmtPtr body;
  For(SourceRange range, StmtPtr init, ExprPtr condition, ExprPtr step, StmtPtr body)
      : Stmt(StmtKind::For, range), init(std::move(init)), condition(std::move(condition)),
        step(std::move(step)), body(std::move(body)) {}
};

struct While : Stmt {
  ExprPtr condition;
  StmtPtr body;
  While(SourceRange range, ExprPtr condition, StmtPtr body)
      : Stmt(StmtKind::While, range), condition(std::move(condition)), body(std::move(body)) {}
};

struct DoWhile : Stmt {
  StmtPtr body;
  ExprPtr condition;
  DoWhile(SourceRange range, StmtPtr body, ExprPtr condition)
      : Stmt(StmtKind::DoWhile, range), body(std::move(body)), condition(std::move(condition)) {}
};

/** `switch (value) body`; case labels are Case statements directly inside the body Compound. */
struct Switch : Stmt {
  ExprPtr value;
  std::unique_ptr<Compound> body;
  Switch(SourceRange range, ExprPtr value, std::unique_ptr<Compound> body)
      : Stmt(StmtKind::Switch, range), value(std::move(value)), body(std::move(body)) {}
};

/** `case value:` (value set) or `default:` (value null). */
struct Case : Stmt {
  ExprPtr value;
  Word folded_value = 0; ///< sema: the constant value, converted to the switch's type
  Case(SourceRange range, ExprPtr value) : Stmt(StmtKind::Case, range), value(std::move(value)) {}
};

struct Return : Stmt {
  ExprPtr value; ///< may be null
  Return(SourceRange range, ExprPtr value) : Stmt(StmtKind::Return, range), value(std::move(value)) {}
};

/** Break, Continue and Null carry nothing but their kind and range. */
struct SimpleStmt : Stmt {
  using Stmt::Stmt;
};

// ---------------------------------------------------------------------------------------------

/** Everything declared in one kernel file, in source order within each list. */
/** A file-scope declaration of host code, skipped by the parser (parse_host_code.cpp). */
struct HostDeclaration {
  std::string name; ///< the function's or variable's name; empty for others (`using namespace`)
  SourceRange range;
  bool function = false;
};

struct TranslationUnit {
  std::vector<VarDeclPtr> globals; ///< __device__, __shared__, __constant__ at file scope
  std::vector<FunctionDeclPtr> functions;
  std::vector<HostDeclaration> host_code; ///< skipped: device code cannot use what it declares
  /** Variables sema set aside or made while lowering cooperative groups (the groups' own
   *  declarations, temporaries of cg::reduce, the grid barrier's counter): owned here. */
  std::vector<VarDeclPtr> lowered_variables;
  bool uses_grid_sync = false; ///< sema: some thread may call this_grid().sync()
  /** sema: an explicit cast makes a pointer to const into a pointer to non-const (or changes
   *  a pointer's depth), so that memory reached only through pointers to const may be
   *  written after all (RaceDetector, read-only buffers). */
  bool casts_away_const = false;
};

/** Small helpers for switching on kinds. */
template <typename T> const T& as(const Expr& e) { return static_cast<const T&>(e); }
template <typename T> T& as(Expr& e) { return static_cast<T&>(e); }
template <typename T> const T& as(const Stmt& s) { return static_cast<const T&>(s); }
template <typename T> T& as(Stmt& s) { return static_cast<T&>(s); }

} // namespace fencelab
