// Device printf's formatting (CUDA Programming Guide, "Formatted Output"): the format is
// checked against its arguments before anything reaches the C library's formatter.
//
// A conversion is %[flags][width][.precision][size]type, flags among "#0 +-", width and
// precision digits or '*', size h, hh, l, ll (also L, z, j, t, as the host's printf takes them),
// and the type one of c d i o u x X p e E f F g G a A s (the Guide's list, with F, which the host
// formatter gives the same meaning as f). A '*' width or precision takes the next argument, an
// int, as C's printf does (C11 7.21.6.1p5): a negative width is the '-' flag and its magnitude,
// a negative precision none at all. What the GPU would print garbage for, or what would write
// through a pointer, is a runtime error of the call instead: a conversion (or its '*') with no
// argument left, %n (which stores a count through its argument) and any other type character. Width and
// precision are clamped to kMaxPrintfField, with a warning: a width of 2147483647 padded for
// six seconds a call.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/machine/machine.h"

#include <span>
#include <string>
#include <string_view>

namespace fencelab {

/** The widest field (and the longest precision) one conversion is formatted with. */
constexpr int kMaxPrintfField = 4096;

struct FormattedPrint {
  std::string text;
  /** Non-empty: the call is a runtime error with this message, of kind `error_kind`. */
  std::string error;
  RuntimeErrorKind error_kind = RuntimeErrorKind::Other;
  /** Non-empty: a width or precision was clamped to kMaxPrintfField; says which. */
  std::string warning;
};

/** Formats one printf call: `format` (the string literal), the argument expressions after it
 *  (for their types and string literals) and their values. Without `with_text` the call is
 *  only checked (its error and warning set, `text` left empty): output nobody keeps. */
FormattedPrint format_printf(std::string_view format, std::span<const Expr* const> arg_exprs,
                             std::span<const Word> args, bool with_text = true);

} // namespace fencelab
