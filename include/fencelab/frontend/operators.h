// The arithmetic of the kernel language on canonical words, shared by sema's constant folder,
// the interpreter and the evaluator of `always` predicates, so all three agree exactly.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/frontend/types.h"

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

} // namespace fencelab
