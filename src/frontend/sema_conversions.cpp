// Semantic analysis: implicit conversions (C++ [conv], [expr.arith.conv]) and constant folding.
#include "fencelab/frontend/operators.h"
#include "fencelab/frontend/sema.h"

namespace fencelab {

namespace {

int integer_rank(ScalarType scalar) {
  switch (scalar) {
  case ScalarType::Long: case ScalarType::ULong: return 2;
  case ScalarType::LongLong: case ScalarType::ULongLong: return 3;
  default: return 1;
  }
}

ScalarType unsigned_of(ScalarType scalar) {
  switch (scalar) {
  case ScalarType::Long: return ScalarType::ULong;
  case ScalarType::LongLong: return ScalarType::ULongLong;
  default: return ScalarType::UInt;
  }
}

Type unqualified(Type type) {
  type.is_const = type.is_volatile = false;
  return type;
}

} // namespace

void Sema::insert_cast(ExprPtr& expr, const Type& type) {
  const Type target = unqualified(type);
  if (expr->type.same_unqualified(target)) return;
  const SourceRange range = expr->range;
  expr = std::make_unique<Cast>(range, target, std::move(expr), /*implicit=*/true);
}

Type promoted_type(const Type& type) {
  if (!type.is_integer()) return unqualified(type);
  switch (type.scalar) {
  case ScalarType::Bool: case ScalarType::Char: case ScalarType::UChar: case ScalarType::Short:
  case ScalarType::UShort:
    return Type::of(ScalarType::Int);
  default:
    return unqualified(type);
  }
}

Type common_arithmetic_type(const Type& lhs, const Type& rhs) {
  // __half is a class in CUDA (sema_half.cpp): operators reach here with two of them; min,
  // max and the like compute a __half with another type in that type, or in float.
  const bool lhs_half = lhs.scalar == ScalarType::Half, rhs_half = rhs.scalar == ScalarType::Half;
  if (lhs_half && rhs_half) return Type::of(ScalarType::Half);
  if (lhs_half || rhs_half) {
    const ScalarType other = lhs_half ? rhs.scalar : lhs.scalar;
    return Type::of(other == ScalarType::Double ? ScalarType::Double : ScalarType::Float);
  }
  if (lhs.scalar == ScalarType::Double || rhs.scalar == ScalarType::Double) return Type::of(ScalarType::Double);
  if (lhs.scalar == ScalarType::Float || rhs.scalar == ScalarType::Float) return Type::of(ScalarType::Float);
  const ScalarType a = promoted_type(lhs).scalar, b = promoted_type(rhs).scalar;
  if (a == b) return Type::of(a);
  if (scalar_is_signed(a) == scalar_is_signed(b))
    return Type::of(integer_rank(a) >= integer_rank(b) ? a : b);
  const ScalarType u = scalar_is_signed(a) ? b : a, s = scalar_is_signed(a) ? a : b;
  if (integer_rank(u) >= integer_rank(s)) return Type::of(u);
  if (scalar_size(s) > scalar_size(u)) return Type::of(s);
  return Type::of(unsigned_of(s));
}

Type Sema::promote(ExprPtr& expr) {
  const Type type = promoted_type(expr->type);
  insert_cast(expr, type);
  return type;
}

Type Sema::usual_arithmetic_conversions(ExprPtr& lhs, ExprPtr& rhs) {
  const Type common = common_arithmetic_type(lhs->type, rhs->type);
  insert_cast(lhs, common);
  insert_cast(rhs, common);
  return common;
}

bool Sema::is_null_pointer_constant(const Expr& expr) const {
  if (expr.type.is_integer()) {
    std::optional<Word> value = fold(expr);
    return value && *value == 0;
  }
  return expr.kind == ExprKind::NameRef && as<NameRef>(expr).name == "nullptr" &&
         as<NameRef>(expr).constant.has_value();
}

bool Sema::convert(ExprPtr& expr, const Type& type, const std::string& context) {
  const Type& from = expr->type;
  bool ok = false;
  if (from.is_void()) {
    error(expr->range, "a void value cannot be used " + context);
    return false;
  }
  if (type.is_arithmetic()) {
    ok = from.is_arithmetic() || (from.is_pointer() && type.scalar == ScalarType::Bool);
  } else if (type.is_pointer()) {
    if (is_null_pointer_constant(*expr)) {
      ok = true;
    } else if (from.is_pointer()) {
      const bool keeps_qualifiers = (type.pointee_const || !from.pointee_const) &&
                                    (type.pointee_volatile || !from.pointee_volatile);
      const bool same_target = from.scalar == type.scalar && from.pointer_depth == type.pointer_depth;
      const bool to_void = type.pointer_depth == 1 && type.scalar == ScalarType::Void;
      ok = keeps_qualifiers && (same_target || to_void);
    }
  }
  if (!ok) {
    error(expr->range, "cannot convert '" + from.to_string() + "' to '" + type.to_string() + "' " + context);
    return false;
  }
  insert_cast(expr, type);
  return true;
}

// Constant folding over checked expressions, with the interpreter's own arithmetic
// (operators.h) so that a folded value is the value the kernel would compute.
std::optional<Word> Sema::fold(const Expr& expr) const {
  switch (expr.kind) {
  case ExprKind::IntegerLiteral: case ExprKind::FloatLiteral: case ExprKind::BoolLiteral:
    return as<Literal>(expr).bits;
  case ExprKind::NameRef: {
    const auto& name = as<NameRef>(expr);
    if (name.constant) return name.constant;
    const VarDecl* var = name.variable;
    if (var && var->type.is_const && !var->is_array && var->initializer &&
        var->storage != StorageKind::Param && var->initializer->kind != ExprKind::InitList)
      return fold(*var->initializer);
    return std::nullopt;
  }
  case ExprKind::Cast: {
    const auto& cast = as<Cast>(expr);
    std::optional<Word> value = fold(*cast.operand);
    if (!value) return std::nullopt;
    return convert_word(*value, cast.operand->type, cast.type);
  }
  case ExprKind::Unary: {
    const auto& unary = as<Unary>(expr);
    if (unary.op != UnaryOp::Plus && unary.op != UnaryOp::Negate && unary.op != UnaryOp::LogicalNot &&
        unary.op != UnaryOp::BitNot)
      return std::nullopt;
    std::optional<Word> value = fold(*unary.operand);
    if (!value) return std::nullopt;
    return apply_unary(unary.op, *value, unary.operand->type, unary.type);
  }
  case ExprKind::Binary: {
    const auto& binary = as<Binary>(expr);
    if (binary.op == BinaryOp::Comma || binary.lhs->type.is_pointer() || binary.rhs->type.is_pointer())
      return std::nullopt;
    std::optional<Word> lhs = fold(*binary.lhs);
    if (!lhs) return std::nullopt;
    if (binary.op == BinaryOp::LogicalAnd && !word_is_true(*lhs, binary.lhs->type)) return Word{0};
    if (binary.op == BinaryOp::LogicalOr && word_is_true(*lhs, binary.lhs->type)) return Word{1};
    std::optional<Word> rhs = fold(*binary.rhs);
    if (!rhs) return std::nullopt;
    ArithmeticError problem = ArithmeticError::None;
    const Word result = apply_binary(binary.op, *lhs, *rhs, binary.lhs->type, binary.rhs->type,
                                     binary.type, problem);
    if (problem != ArithmeticError::None) return std::nullopt;
    return result;
  }
  case ExprKind::Conditional: {
    const auto& conditional = as<Conditional>(expr);
    std::optional<Word> condition = fold(*conditional.condition);
    if (!condition) return std::nullopt;
    return word_is_true(*condition, conditional.condition->type) ? fold(*conditional.then_value)
                                                                 : fold(*conditional.else_value);
  }
  default:
    return std::nullopt;
  }
}

} // namespace fencelab
