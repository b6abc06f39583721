// Semantic analysis: names, types, implicit conversions, frame slots and memory objects
// (front-end private). It annotates the AST in place; see the invariants at the top of ast.h.
#pragma once

#include "fencelab/program/program.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/** A cooperative group, known at compile time (Programming Guide, Cooperative Groups): its kind
 *  and tile size say which threads it holds; sema lowers its operations accordingly. */
struct CooperativeGroup {
  enum class Kind : uint8_t { Block, Tile, Coalesced, Grid };
  Kind kind = Kind::Block;
  uint32_t tile_size = 0;         ///< Tile: N, a power of two up to 32
  uint32_t parent_size = 0;       ///< Tile: the size of the tile it was partitioned from; 0: the block
  const VarDecl* lanes = nullptr; ///< Coalesced: the hidden local holding its lanes (null: __activemask() at the use)
  /** As the Programming Guide writes its type: "thread_block_tile<16>". */
  std::string type_name() const;
  bool same_threads(const CooperativeGroup& other) const {
    return kind == other.kind && tile_size == other.tile_size && lanes == other.lanes;
  }
};

class Sema {
public:
  Sema(Program& program, DiagnosticSink& diagnostics);

  /** Values of template parameters by name (from `//@ template`), set before check_unit. */
  void set_template_values(std::unordered_map<std::string, int64_t> values) {
    m_template_values = std::move(values);
  }
  /** Types of type template parameters that no directive bound, deduced from calls during
   *  check_unit; when not empty the file must be compiled again with them given. */
  const std::unordered_map<std::string, Type>& deduced_template_types() const { return m_deduced_template_types; }
  /** Checks every global and function of program.unit; creates the variables' memory objects. */
  void check_unit();
  /** Sizes the extern __shared__ array, if any, from the launch's shared=BYTES (after the
   *  directives are applied); reports a missing or too small size. */
  void size_dynamic_shared();

  /** Checks a directive's constant expression (no variables in scope); its value as a word of
   *  expr->type, or nullopt after reporting why not. */
  std::optional<Word> check_constant(ExprPtr& expr, const std::string& what);
  /** Checks an `always` predicate: names are the labels of program.observed. */
  void check_predicate(ExprPtr& expr);
  /** The value of a constant expression already checked, or nullopt. */
  std::optional<Word> fold(const Expr& expr) const;

private:
  struct Symbol {
    VarDecl* variable = nullptr;
    std::optional<Word> constant;
    Type type;
    bool missing_template_value = false; ///< a template parameter without `//@ template`
  };
  struct SwitchContext {
    Type type;
    std::vector<std::pair<Word, SourceRange>> values;
    bool has_default = false;
  };

  // sema.cpp: declarations and scopes.
  void declare_functions();
  void check_global(VarDecl& var);
  void check_function(FunctionDecl& function);
  void check_variable(VarDecl& var);
  void check_array_extent(VarDecl& var);
  /** Local and shared arrays within what a GPU gives a thread and a block. */
  void check_array_fits(VarDecl& var, SourceRange range);
  void check_dynamic_shared(VarDecl& var);
  void check_dimensions(VarDecl& var);
  /** `a[i][j]` on a multi-dimensional array: rewritten to `a[i * E1 + j]`; false when `expr`
   *  is not such an access (an error was reported if it is one partly indexed). */
  bool flatten_multidimensional_index(ExprPtr& expr);
  void check_variable_initializer(VarDecl& var);
  void add_memory_object(VarDecl& var);
  void declare(VarDecl& var);
  const Symbol* lookup(const std::string& name) const;
  void push_scope() { m_scopes.emplace_back(); }
  void pop_scope() { m_scopes.pop_back(); }

  // sema_statements.cpp
  void check_statement(Stmt& stmt);
  void check_constexpr_if(If& s);
  /** Checks a branch or loop body (null: nothing) in a scope of its own. */
  void check_scoped(Stmt* stmt);
  void check_compound(Compound& compound, bool new_scope);
  void check_switch(Switch& stmt);
  void check_case(Case& label);
  void check_return(Return& stmt);
  void check_condition(ExprPtr& condition);

  // sema_expressions.cpp
  void check_expr(ExprPtr& expr);
  void check_name(ExprPtr& expr);
  void check_unary(ExprPtr& expr);
  void check_binary(ExprPtr& expr);
  void check_assign(Assign& assign);
  void check_conditional(Conditional& conditional);
  void check_index(ExprPtr& expr);
  void check_cast(Cast& cast);
  void check_call(ExprPtr& expr);
  void check_sizeof(ExprPtr& expr);
  void check_function_call(Call& call);
  bool check_template_instantiation(const Call& call, const FunctionDecl& function);
  bool deduce_template_type(const Call& call, const FunctionDecl& function, const TemplateParam& param);
  bool require_lvalue(const Expr& expr, const char* what);

  // sema_half.cpp: operators on __half, as cuda_fp16.hpp's overloads resolve. Each returns
  // whether it handled the expression (an operand is a __half).
  bool check_half_binary(Binary& binary);
  bool check_half_compound_assignment(Assign& assign);
  bool check_half_conditional(Conditional& conditional);

  // sema_conversions.cpp
  /** Wraps `expr` in an implicit Cast to `type` unless it already has that type. */
  void insert_cast(ExprPtr& expr, const Type& type);
  /** Converts as on assignment/initialization/argument passing, reporting what cannot be. */
  bool convert(ExprPtr& expr, const Type& type, const std::string& context);
  /** Integral promotion (bool, char, short to int), in place; returns the promoted type. */
  Type promote(ExprPtr& expr);
  /** The usual arithmetic conversions of both operands, in place; returns the common type. */
  Type usual_arithmetic_conversions(ExprPtr& lhs, ExprPtr& rhs);
  bool is_null_pointer_constant(const Expr& expr) const;
  /** The skipped host declaration of `name` (TranslationUnit::host_code), if any. */
  const HostDeclaration* host_declaration(const std::string& name) const;
  void error(SourceRange range, std::string message) { m_diagnostics.error(range, std::move(message)); }

  // sema_builtins.cpp
  void check_builtin_call(Call& call, const BuiltinInfo& info);
  void check_atomic_call(Call& call, const BuiltinInfo& info);
  void check_math_call(Call& call, const BuiltinInfo& info);

  // sema_cooperative_groups.cpp, sema_group_operations.cpp: cooperative groups lowered onto
  // the barriers and warp operations the Machine runs.
  /** Resolves the group declarations among `variables` and takes them out (a coalesced
   *  group's lanes stay, as a hidden unsigned local). */
  void lower_group_declarations(std::vector<VarDeclPtr>& variables);
  /** The group `expr` names or creates, or nullopt after reporting why it is none. */
  std::optional<CooperativeGroup> group_of(ExprPtr& expr);
  /** Member calls and `cooperative_groups::` calls: replaced by what they lower to. */
  void check_cooperative_groups_call(ExprPtr& expr);
  /** Takes group parameters out of every function; their uses are lowered per function. */
  void remove_group_parameters();
  /** A call of a function with group parameters: takes their arguments out, recording them. */
  void pass_group_arguments(Call& call);
  void declare_group_parameters(const FunctionDecl& function);
  /** Functions whose `thread_group` parameters take their kind from the calls: checked once
   *  the calls are. */
  bool waits_for_group_arguments(const FunctionDecl& function) const;
  void check_functions_taking_groups();
  bool is_group_variable(const VarDecl* var) const { return m_groups.count(var) > 0; }
  /** cg::reduce(tile, value, op): a butterfly of shfl_xor over the tile, in a temporary. */
  ExprPtr lower_reduce(Call& call);
  /** A call of the grid barrier function, made on first use. */
  ExprPtr grid_sync_call(SourceRange range);
  /** Declares the lowering's temporaries at the start of `function`'s body (so that the CUDA
   *  backend prints them too); the interpreter finds their slots assigned already. */
  void declare_lowered_locals(FunctionDecl& function);
  /** A local of the current function, made by the lowering. */
  VarDecl& lowering_temporary(const std::string& name, Type type, SourceRange range);
  struct GroupParameter {
    size_t position;
    VarDeclPtr param;
    std::optional<CooperativeGroup> passed; ///< thread_group: what the calls pass
  };
  std::unordered_map<const VarDecl*, CooperativeGroup> m_groups;
  std::unordered_map<const FunctionDecl*, std::vector<GroupParameter>> m_group_parameters;
  FunctionDeclPtr m_grid_sync_function; ///< made on the first this_grid().sync()
  /** Temporaries lowering made in the function being checked: declared at its start. */
  std::vector<VarDeclPtr> m_lowered_locals;

  Program& m_program;
  VarDecl* m_dynamic_shared = nullptr; ///< the extern __shared__ array, once declared
  /** Later extern __shared__ arrays of its element type: names of its memory object. */
  std::vector<VarDecl*> m_dynamic_shared_aliases;
  DiagnosticSink& m_diagnostics;
  std::unordered_map<std::string, int64_t> m_template_values;
  /** Type template parameters no directive bound, deduced from the first call that fixes them. */
  std::unordered_map<std::string, Type> m_deduced_template_types;
  std::unordered_map<std::string, FunctionDecl*> m_functions;
  std::vector<std::unordered_map<std::string, Symbol>> m_scopes;
  FunctionDecl* m_function = nullptr;
  uint32_t m_next_slot = 0;
  int m_loop_depth = 0;
  /** Marks the function being checked as one with a loop (FunctionDecl::contains_loop). */
  void function_has_loop() {
    if (m_function != nullptr) m_function->contains_loop = true;
  }
  std::vector<SwitchContext> m_switches;
  bool m_in_predicate = false;
  bool m_in_constant = false;
};

/** Integral promotion of a type (C++ [conv.prom]); other types lose their qualifiers only. */
Type promoted_type(const Type& type);
/** The common type of the usual arithmetic conversions (C++ [expr.arith.conv]). */
Type common_arithmetic_type(const Type& lhs, const Type& rhs);

/** The values of FLT_MAX, INT_MAX, NULL, nullptr, ...; nullptr when `name` is none of them. */
const std::pair<Type, Word>* builtin_constant(const std::string& name);

} // namespace fencelab
