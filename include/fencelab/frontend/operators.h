// The arithmetic of the kernel language on canonical words, shared by sema's constant folder,
// the interpreter and the evaluator of `always` predicates, so all three agree exactly.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/frontend/types.h"

#include <optional>

namespace fencelab {

/** Why an operation has no defined result (C++ [expr.mul], [expr.shift]). */
enum class ArithmeticError : uint8_t { None, DivisionByZero, ShiftOutOfRange, NotArithmetic };

const char* arithmetic_error_message(ArithmeticError error);

/**
 * Applies +, -, !, ~ to `operand` of `type` (already promoted); the result has `result_type`.
 * Increment, decrement, dereference and address-of are the interpreter's (they touch memory).
 */
Word apply_unary(UnaryOp op, Word operand, const Type& type, const Type& result_type);

/**
 * Applies a binary operator to operands already converted by sema: both of `operand_type`
 * for arithmetic, bitwise and comparison operators; for shifts the left operand is of
 * `operand_type` and the right one of `rhs_type`. Logical and comma operators short-circuit
 * and are the caller's; pointer arithmetic is the caller's. Sets `error` when the C++ result
 * is undefined and returns 0 then.
 */
Word apply_binary(BinaryOp op, Word lhs, Word rhs, const Type& operand_type, const Type& rhs_type,
                  const Type& result_type, ArithmeticError& error);

/** << or >> on an integer `a` of `type` by `b` of `rhs_type`: apply_binary's path for shifts,
 *  before its conversion to the result type. Sets `error` (ShiftOutOfRange) and returns 0 where
 *  the count is negative or not below the width (C++ [expr.shift]). */
Word integer_shift(BinaryOp op, Word a, Word b, const Type& type, const Type& rhs_type, ArithmeticError& error);
/** A shift's count as integer_shift reads the word `b` of `rhs_type`, if it is in range for
 *  `type` (0 to its width less one); none where integer_shift reports ShiftOutOfRange. */
std::optional<uint32_t> shift_count(Word b, const Type& type, const Type& rhs_type);
/** integer_shift by a count in range (shift_count): `a` shifted, canonical for integer `type`.
 *  Inline for the bytecode engine. */
inline Word shift_in_range(BinaryOp op, Word a, uint32_t count, const Type& type) {
  const bool is_signed = scalar_is_signed(type.scalar);
  const Word raw = op == BinaryOp::ShiftLeft ? a << count : is_signed ? Word(int64_t(a) >> count) : a >> count;
  return type.scalar == ScalarType::Bool ? Word(raw != 0) : extend_integer(raw, scalar_size(type.scalar), is_signed);
}

/** The operators that apply_binary computes on integers without a possible error: the
 *  comparisons, +, -, *, &, | and ^. */
constexpr bool is_plain_integer_operator(BinaryOp op) {
  switch (op) {
  case BinaryOp::Less:
  case BinaryOp::Greater:
  case BinaryOp::LessEqual:
  case BinaryOp::GreaterEqual:
  case BinaryOp::Equal:
  case BinaryOp::NotEqual:
  case BinaryOp::Add:
  case BinaryOp::Subtract:
  case BinaryOp::Multiply:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor: return true;
  default: return false;
  }
}

/** apply_binary for a plain integer operator (is_plain_integer_operator) on two integers of
 *  `type` (not a pointer): apply_binary's own path for them, inline for the bytecode engine.
 *  Integer arithmetic wraps (two's complement, PTX ISA 9.7.1); a comparison yields 0 or 1. */
inline Word plain_integer_operation(BinaryOp op, Word a, Word b, const Type& type, const Type& result_type) {
  const bool is_signed = scalar_is_signed(type.scalar);
  // To the operands' own integer type (the usual case: only comparisons yield another), the
  // result's canonical word is the conversion's (convert_word's inline path, the identity).
  const bool same_type =
      result_type.scalar == type.scalar && result_type.pointer_depth == 0 && type.scalar != ScalarType::Bool;
  const auto wrapped = [&](Word raw) {
    const Word canonical = type.scalar == ScalarType::Bool ? Word(raw != 0) : extend_integer(raw, scalar_size(type.scalar), is_signed);
    return same_type ? canonical : convert_word(canonical, type, result_type);
  };
  const auto bitwise = [&](Word raw) {
    return same_type ? extend_integer(raw, scalar_size(type.scalar), is_signed) : convert_word(raw, type, result_type);
  };
  switch (op) {
  case BinaryOp::Less: return is_signed ? int64_t(a) < int64_t(b) : a < b;
  case BinaryOp::Greater: return is_signed ? int64_t(a) > int64_t(b) : a > b;
  case BinaryOp::LessEqual: return is_signed ? int64_t(a) <= int64_t(b) : a <= b;
  case BinaryOp::GreaterEqual: return is_signed ? int64_t(a) >= int64_t(b) : a >= b;
  case BinaryOp::Equal: return a == b;
  case BinaryOp::NotEqual: return a != b;
  case BinaryOp::Add: return wrapped(a + b);
  case BinaryOp::Subtract: return wrapped(a - b);
  case BinaryOp::Multiply: return wrapped(a * b);
  case BinaryOp::BitAnd: return bitwise(a & b);
  case BinaryOp::BitOr: return bitwise(a | b);
  case BinaryOp::BitXor: return bitwise(a ^ b);
  default: return 0;
  }
}

/** A division or remainder of two integers of `type` (not bool, not a pointer), the result of
 *  that type too, by a divisor `b` that is neither 0 nor -1 of a signed type (the bytecode
 *  compiler finds it constant: FunctionCompiler::divides_without_error): integer_binary's
 *  result without its checks, truncated toward zero (C++20 [expr.mul]). */
inline Word division_without_error(BinaryOp op, Word a, Word b, const Type& type) {
  const bool is_signed = scalar_is_signed(type.scalar);
  const Word raw = op == BinaryOp::Divide ? (is_signed ? Word(int64_t(a) / int64_t(b)) : a / b)
                                          : (is_signed ? Word(int64_t(a) % int64_t(b)) : a % b);
  return extend_integer(raw, scalar_size(type.scalar), is_signed);
}

} // namespace fencelab
