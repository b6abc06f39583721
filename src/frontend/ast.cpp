// Names of the AST's closed sets and the builtin table, generated from ast.def/builtins.def.
#include "fencelab/frontend/ast.h"

#include <iterator>
#include <unordered_map>

namespace fencelab {

namespace {

constexpr const char* kExprKindNames[] = {
#define X(name) #name,
    FENCELAB_EXPR_KINDS(X)
#undef X
};

constexpr const char* kStmtKindNames[] = {
#define X(name) #name,
    FENCELAB_STMT_KINDS(X)
#undef X
};

constexpr const char* kUnarySpellings[] = {
#define X(name, spelling) spelling,
    FENCELAB_UNARY_OPS(X)
#undef X
};

constexpr const char* kBinarySpellings[] = {
#define X(name, spelling) spelling,
    FENCELAB_BINARY_OPS(X)
#undef X
};

constexpr const char* kBuiltinVariableSpellings[] = {
#define X(name, spelling) spelling,
    FENCELAB_BUILTIN_VARIABLES(X)
#undef X
};

constexpr BuiltinInfo kBuiltins[] = {
#define BUILTIN(name, spelling, category, min_args, max_args)                                      \
  {Builtin::name, spelling, BuiltinCategory::category, min_args, max_args},
#include "fencelab/frontend/builtins.def"
};

} // namespace

const char* expr_kind_name(ExprKind kind) { return kExprKindNames[static_cast<size_t>(kind)]; }
const char* stmt_kind_name(StmtKind kind) { return kStmtKindNames[static_cast<size_t>(kind)]; }
const char* unary_op_spelling(UnaryOp op) { return kUnarySpellings[static_cast<size_t>(op)]; }
const char* binary_op_spelling(BinaryOp op) { return kBinarySpellings[static_cast<size_t>(op)]; }

const char* builtin_variable_spelling(BuiltinVariableKind kind) {
  return kBuiltinVariableSpellings[static_cast<size_t>(kind)];
}

const BuiltinInfo& builtin_info(Builtin builtin) {
  return kBuiltins[static_cast<size_t>(builtin)];
}

const BuiltinInfo* find_builtin(std::string_view spelling) {
  static const std::unordered_map<std::string_view, const BuiltinInfo*> table = [] {
    std::unordered_map<std::string_view, const BuiltinInfo*> map;
    for (const BuiltinInfo& info : kBuiltins) map.emplace(info.spelling, &info);
    return map;
  }();
  auto it = table.find(spelling);
  return it == table.end() ? nullptr : it->second;
}

} // namespace fencelab
