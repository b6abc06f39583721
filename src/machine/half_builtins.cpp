// The half-precision intrinsics (CUDA Math API, "Half Precision Intrinsics"; cuda_fp16.h).
// Each takes and gives binary16 bit patterns (frontend/half.h) and rounds once, to nearest
// even, where it rounds at all.
#include "half_builtins.h"

#include "fencelab/frontend/half.h"

#include <cmath>

namespace fencelab {

namespace {

Word boolean(bool value) { return value ? 1 : 0; }

/** __half2int_rn: to nearest, ties to even; saturating, NaN to 0 (as the conversions of
 *  types.cpp: PTX cvt.rni.s32.f16). */
Word half_to_int_nearest(HalfBits h) {
  double value = half_to_double(h);
  if (std::isfinite(value)) {
    const double below = std::floor(value), rest = value - below;
    value = rest > 0.5 || (rest == 0.5 && std::fmod(below, 2.0) != 0.0) ? below + 1.0 : below;
  }
  return word_from_double(value, Type::of(ScalarType::Int));
}

/** __hmax/__hmin: a NaN operand gives the other operand, two NaNs the canonical NaN, and +0
 *  counts as greater than -0 (CUDA Math API, __hmax). */
HalfBits half_max_min(HalfBits a, HalfBits b, bool max) {
  if (half_is_nan(a) && half_is_nan(b)) return kHalfNaN;
  if (half_is_nan(a)) return b;
  if (half_is_nan(b)) return a;
  const double x = half_to_double(a), y = half_to_double(b);
  if (x == 0.0 && y == 0.0) {
    const bool a_negative = (a & 0x8000u) != 0;
    return (a_negative == max) ? b : a; // max: the positive zero; min: the negative one
  }
  return (max ? x > y : x < y) ? a : b;
}

} // namespace

std::optional<Word> half_builtin(Builtin builtin, std::span<const Word> args) {
  auto h = [&args](size_t i) { return HalfBits(args[i]); };
  auto value = [&args](size_t i) { return half_to_double(HalfBits(args[i])); };
  const Type half = Type::of(ScalarType::Half);
  switch (builtin) {
  // Conversions: sema gave the argument the parameter's type, and the result is converted as
  // the C++ conversions are (types.cpp): __float2half rounds to nearest even, __int2half_rn
  // too, __half2float is exact, __half2int_rz truncates.
  case Builtin::Float2half: case Builtin::Float2halfRn:
    return convert_word(args[0], Type::of(ScalarType::Float), half);
  case Builtin::Double2half: return convert_word(args[0], Type::of(ScalarType::Double), half);
  case Builtin::Half2float: return convert_word(args[0], half, Type::of(ScalarType::Float));
  case Builtin::Int2halfRn: return convert_word(args[0], Type::of(ScalarType::Int), half);
  case Builtin::Half2intRz: return convert_word(args[0], half, Type::of(ScalarType::Int));
  case Builtin::Half2intRn: return half_to_int_nearest(h(0));
  case Builtin::Hadd: return half_add(h(0), h(1));
  case Builtin::Hsub: return half_sub(h(0), h(1));
  case Builtin::Hmul: return half_mul(h(0), h(1));
  case Builtin::Hdiv: return half_div(h(0), h(1));
  case Builtin::Hneg: return half_neg(h(0));
  case Builtin::Habs: return half_abs(h(0));
  case Builtin::Hfma: return half_fma(h(0), h(1), h(2));
  // Ordered comparisons: false when either operand is NaN (C++'s < on the values).
  case Builtin::Heq: return boolean(value(0) == value(1));
  case Builtin::Hne: return boolean(value(0) < value(1) || value(0) > value(1));
  case Builtin::Hlt: return boolean(value(0) < value(1));
  case Builtin::Hle: return boolean(value(0) <= value(1));
  case Builtin::Hgt: return boolean(value(0) > value(1));
  case Builtin::Hge: return boolean(value(0) >= value(1));
  case Builtin::Hmax: return half_max_min(h(0), h(1), true);
  case Builtin::Hmin: return half_max_min(h(0), h(1), false);
  default: return std::nullopt;
  }
}

} // namespace fencelab
