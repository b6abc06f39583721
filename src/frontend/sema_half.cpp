// Semantic analysis: expressions on __half (cuda_fp16.h), whose operators and conversions are
// C++ overloads in cuda_fp16.hpp rather than built-in ones. What overload resolution makes of
// them decides what compiles:
//  - `a @ b` for two __half (+ - * / and the comparisons) is cuda_fp16.hpp's
//    `operator@(const __half&, const __half&)`: half arithmetic (__hadd, ..., __hlt, ...);
//  - `a @ b` for a __half and any other arithmetic type (`h * 2.0f`, `h + 1`, `i < h`) is
//    ambiguous (C++ [over.match.oper], [over.ics.rank]): the __half overload converts the other
//    operand with a converting constructor (`__half(float)`), the built-in `@` converts the
//    __half with a conversion function (`operator float()`), and neither conversion sequence
//    is better than the other for both operands. g++ and clang reject it with cuda_fp16.hpp,
//    so does nvcc; fencelab names it, so that no kernel runs here that nvcc refuses;
//  - `h @= x` is `operator@=(__half&, const __half&)`: `x` becomes a __half first (built-in
//    compound assignment applies no user-defined conversion to its left operand,
//    [over.match.oper]/4); `x @= h` for a non-half `x` is ambiguous, as `x @ h`;
//  - `c ? h : x` with a non-half `x` is ambiguous: each converts to the other ([expr.cond]/4);
//  - `%`, bitwise operators, shifts and `~` on a __half have no overload and are ambiguous
//    among the built-in ones on integers (check_binary reports them as invalid operands);
//  - `!h`, `h && x`, `if (h)` use `operator bool()`: true unless the half is zero.
#include "fencelab/frontend/sema.h"

namespace fencelab {

namespace {

bool is_half(const Type& type) { return !type.is_pointer() && type.scalar == ScalarType::Half; }

std::string plain(Type type) {
  type.is_const = type.is_volatile = false;
  return type.to_string();
}

bool is_arithmetic_operator(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: case BinaryOp::Subtract: case BinaryOp::Multiply: case BinaryOp::Divide:
  case BinaryOp::Less: case BinaryOp::Greater: case BinaryOp::LessEqual: case BinaryOp::GreaterEqual:
  case BinaryOp::Equal: case BinaryOp::NotEqual:
    return true;
  default:
    return false;
  }
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Less || op == BinaryOp::Greater || op == BinaryOp::LessEqual ||
         op == BinaryOp::GreaterEqual || op == BinaryOp::Equal || op == BinaryOp::NotEqual;
}

std::string ambiguity(const std::string& spelling, const Type& lhs, const Type& rhs) {
  return "ambiguous: '" + plain(lhs) + " " + spelling + " " + plain(rhs) + "' matches both cuda_fp16.hpp's 'operator" +
         spelling + "(const __half&, const __half&)' and the built-in '" + spelling +
         "' (nvcc rejects it); convert one operand: __half2float(h) computes in float, __float2half(x) in half";
}

} // namespace

bool Sema::check_half_binary(Binary& binary) {
  const Type lhs = binary.lhs->type, rhs = binary.rhs->type;
  if (!is_half(lhs) && !is_half(rhs)) return false;
  if (m_in_predicate) {
    // An `always` expectation is no CUDA: there an observed half is compared as the float it
    // converts to exactly (`always out[0] > 0`).
    if (is_half(lhs)) insert_cast(binary.lhs, Type::of(ScalarType::Float));
    if (is_half(rhs)) insert_cast(binary.rhs, Type::of(ScalarType::Float));
    return false;
  }
  if (!is_arithmetic_operator(binary.op)) return false; // &&, ||, comma as usual; the rest invalid
  if (!lhs.is_arithmetic() || !rhs.is_arithmetic()) return false; // pointers: invalid operands
  if (!is_half(lhs) || !is_half(rhs)) {
    error(binary.range, ambiguity(binary_op_spelling(binary.op), lhs, rhs));
    binary.type = Type::of(is_comparison(binary.op) ? ScalarType::Bool : ScalarType::Half);
    return true;
  }
  const Type half = Type::of(ScalarType::Half);
  insert_cast(binary.lhs, half);
  insert_cast(binary.rhs, half);
  binary.type = is_comparison(binary.op) ? Type::of(ScalarType::Bool) : half;
  return true;
}

bool Sema::check_half_compound_assignment(Assign& assign) {
  Type lhs = assign.lhs->type, rhs = assign.rhs->type;
  if (!is_half(lhs) && !is_half(rhs)) return false;
  const BinaryOp op = *assign.compound;
  const bool arithmetic = op == BinaryOp::Add || op == BinaryOp::Subtract || op == BinaryOp::Multiply ||
                          op == BinaryOp::Divide;
  if (!arithmetic || !lhs.is_arithmetic() || !rhs.is_arithmetic()) return false; // invalid operands
  if (!is_half(lhs)) {
    error(assign.range, ambiguity(std::string(binary_op_spelling(op)) + "=", lhs, rhs));
    return true;
  }
  assign.computation_type = Type::of(ScalarType::Half);
  insert_cast(assign.rhs, assign.computation_type);
  return true;
}

bool Sema::check_half_conditional(Conditional& conditional) {
  const Type a = conditional.then_value->type, b = conditional.else_value->type;
  if (is_half(a) == is_half(b) || !a.is_arithmetic() || !b.is_arithmetic()) return false;
  if (m_in_predicate) { // as in check_half_binary
    insert_cast(is_half(a) ? conditional.then_value : conditional.else_value, Type::of(ScalarType::Float));
    return false;
  }
  error(conditional.range, "ambiguous: the branches of '?:' have types '" + plain(a) + "' and '" + plain(b) +
                               "', and each converts to the other (cuda_fp16.hpp's constructors and conversion "
                               "operators; nvcc rejects it); convert one of them");
  conditional.type = Type::of(ScalarType::Half);
  return true;
}

} // namespace fencelab
