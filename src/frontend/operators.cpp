// Arithmetic on canonical words (see operators.h). Integer arithmetic wraps (two's complement,
// as the GPU's add/mul instructions do, PTX ISA 9.7.1); signed overflow is not diagnosed.
#include "fencelab/frontend/operators.h"

#include "fencelab/frontend/half.h"

#include <bit>
#include <cmath>

namespace fencelab {

const char* arithmetic_error_message(ArithmeticError error) {
  switch (error) {
  case ArithmeticError::None: return "no error";
  case ArithmeticError::DivisionByZero: return "integer division by zero";
  case ArithmeticError::ShiftOutOfRange: return "shift count is negative or not less than the width of the type";
  case ArithmeticError::NotArithmetic: return "operator applied to a non-arithmetic value";
  }
  return "unknown arithmetic error";
}

namespace {

double to_double(Word w, const Type& t) { return word_to_double(w, t); }

Word from_double(double v, const Type& t) { return word_from_double(v, t); }

Word boolean(bool b) { return b ? 1 : 0; }

/** Comparison of two operands of one type; pointers compare by their bits (same object). */
template <typename Compare>
Word compare(Word a, Word b, const Type& type, Compare cmp) {
  if (type.is_floating()) return boolean(cmp(to_double(a, type), to_double(b, type)));
  if (type.is_pointer() || !type.is_signed()) return boolean(cmp(uint64_t(a), uint64_t(b)));
  return boolean(cmp(int64_t(a), int64_t(b)));
}

Word floating_binary(BinaryOp op, Word a, Word b, const Type& type, ArithmeticError& error) {
  if (type.scalar == ScalarType::Half) {
    // cuda_fp16.hpp's operators on two __half: __hadd, __hsub, __hmul, __hdiv (half.h).
    const HalfBits x = HalfBits(a), y = HalfBits(b);
    switch (op) {
    case BinaryOp::Multiply: return half_mul(x, y);
    case BinaryOp::Divide: return half_div(x, y);
    case BinaryOp::Add: return half_add(x, y);
    case BinaryOp::Subtract: return half_sub(x, y);
    default: error = ArithmeticError::NotArithmetic; return 0;
    }
  }
  if (type.scalar == ScalarType::Float) {
    // Single precision is computed in single precision, as the device does.
    const float x = std::bit_cast<float>(uint32_t(a)), y = std::bit_cast<float>(uint32_t(b));
    float r = 0;
    switch (op) {
    case BinaryOp::Multiply: r = x * y; break;
    case BinaryOp::Divide: r = x / y; break;
    case BinaryOp::Add: r = x + y; break;
    case BinaryOp::Subtract: r = x - y; break;
    default: error = ArithmeticError::NotArithmetic; return 0;
    }
    return std::bit_cast<uint32_t>(r);
  }
  const double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
  double r = 0;
  switch (op) {
  case BinaryOp::Multiply: r = x * y; break;
  case BinaryOp::Divide: r = x / y; break;
  case BinaryOp::Add: r = x + y; break;
  case BinaryOp::Subtract: r = x - y; break;
  default: error = ArithmeticError::NotArithmetic; return 0;
  }
  return std::bit_cast<uint64_t>(r);
}

/** Division, remainder and shifts (the plain operators are plain_integer_operation's). */
Word integer_binary(BinaryOp op, Word a, Word b, const Type& type, const Type& rhs_type,
                    ArithmeticError& error) {
  const bool is_signed = type.is_signed();
  switch (op) {
  case BinaryOp::Divide:
  case BinaryOp::Remainder: {
    if (canonical_word(b, type) == 0) {
      error = ArithmeticError::DivisionByZero;
      return 0;
    }
    if (is_signed) {
      const int64_t x = int64_t(a), y = int64_t(b);
      // INT_MIN / -1 overflows; in 64 bits only for long long. Wrap as the hardware does.
      if (y == -1) return canonical_word(op == BinaryOp::Divide ? Word(0) - a : 0, type);
      return canonical_word(Word(op == BinaryOp::Divide ? x / y : x % y), type);
    }
    return canonical_word(op == BinaryOp::Divide ? a / b : a % b, type);
  }
  case BinaryOp::ShiftLeft:
  case BinaryOp::ShiftRight: return integer_shift(op, a, b, type, rhs_type, error);
  default: error = ArithmeticError::NotArithmetic; return 0;
  }
}

} // namespace

std::optional<uint32_t> shift_count(Word b, const Type& type, const Type& rhs_type) {
  const int64_t count = rhs_type.is_signed() ? int64_t(b) : int64_t(b & 0x7fffffffffffffffull);
  if (count < 0 || count >= int64_t(type.size() * 8)) return std::nullopt;
  return uint32_t(count);
}

Word integer_shift(BinaryOp op, Word a, Word b, const Type& type, const Type& rhs_type, ArithmeticError& error) {
  const std::optional<uint32_t> count = shift_count(b, type, rhs_type);
  if (!count) {
    error = ArithmeticError::ShiftOutOfRange;
    return 0;
  }
  return shift_in_range(op, a, *count, type);
}

Word apply_unary(UnaryOp op, Word operand, const Type& type, const Type& result_type) {
  switch (op) {
  case UnaryOp::Plus: return convert_word(operand, type, result_type);
  case UnaryOp::Negate:
    if (type.scalar == ScalarType::Half && !type.is_pointer()) return half_neg(HalfBits(operand)); // __hneg
    if (type.is_floating()) return from_double(-to_double(operand, type), result_type);
    return canonical_word(Word(0) - operand, result_type);
  case UnaryOp::LogicalNot: return boolean(!word_is_true(operand, type));
  case UnaryOp::BitNot: return canonical_word(~operand, result_type);
  default: return 0;
  }
}

Word apply_binary(BinaryOp op, Word lhs, Word rhs, const Type& operand_type, const Type& rhs_type,
                  const Type& result_type, ArithmeticError& error) {
  error = ArithmeticError::None;
  if (is_plain_integer_operator(op) && !operand_type.is_pointer() && operand_type.is_integer())
    return plain_integer_operation(op, lhs, rhs, operand_type, result_type);
  switch (op) {
  case BinaryOp::Less: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x < y; });
  case BinaryOp::Greater: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x > y; });
  case BinaryOp::LessEqual: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x <= y; });
  case BinaryOp::GreaterEqual: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x >= y; });
  case BinaryOp::Equal: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x == y; });
  case BinaryOp::NotEqual: return compare(lhs, rhs, operand_type, [](auto x, auto y) { return x != y; });
  case BinaryOp::LogicalAnd: return boolean(word_is_true(lhs, operand_type) && word_is_true(rhs, rhs_type));
  case BinaryOp::LogicalOr: return boolean(word_is_true(lhs, operand_type) || word_is_true(rhs, rhs_type));
  case BinaryOp::Comma: return rhs;
  default: break;
  }
  if (operand_type.is_pointer()) {
    error = ArithmeticError::NotArithmetic;
    return 0;
  }
  if (operand_type.is_floating()) {
    if (op == BinaryOp::Remainder) {
      error = ArithmeticError::NotArithmetic;
      return 0;
    }
    return convert_word(floating_binary(op, lhs, rhs, operand_type, error), operand_type, result_type);
  }
  return convert_word(integer_binary(op, lhs, rhs, operand_type, rhs_type, error), operand_type,
                      result_type);
}

} // namespace fencelab
