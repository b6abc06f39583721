// IEEE 754-2008 binary16 ("half", CUDA's `__half`): conversions and arithmetic, each result
// rounded once to nearest, ties to even, as the device does (PTX ISA, cvt.rn.f16.*, add.f16,
// fma.rn.f16; CUDA Math API, "Half Precision Intrinsics").
//
// binary16 (IEEE 754-2008, 3.6 table 3.5): 1 sign bit, 5 exponent bits (bias 15), 10 fraction
// bits, so 11 bits of precision. Exponent 0 holds zero and the subnormals, fraction * 2^-24;
// exponent 31 holds infinity (fraction 0) and NaN; otherwise the value is
// (1024 + fraction) * 2^(exponent - 25). Largest finite value 65504, smallest normal 2^-14,
// smallest subnormal 2^-24.
#pragma once

#include <cstdint>

namespace fencelab {

using HalfBits = uint16_t;

/** The canonical NaN the device's conversions and half arithmetic produce (0x7fff, the value
 *  __float2half gives for a NaN in cuda_fp16.hpp's host code). */
inline constexpr HalfBits kHalfNaN = 0x7fff;

/** A double rounded once to binary16, to nearest, ties to even (__double2half); |x| >= 65520
 *  becomes infinity; any NaN the canonical NaN. Floats go through here too: float to double
 *  is exact, so __float2half(f) == half_from_double(f). */
HalfBits half_from_double(double value);
/** A 64-bit integer rounded once to binary16 (__ll2half_rn, __int2half_rn, ...). */
HalfBits half_from_int64(int64_t value);
HalfBits half_from_uint64(uint64_t value);
/** The exact value of a binary16 (every half is a float and a double). A NaN keeps its sign
 *  and payload, shifted into the wider fraction (the widening cvt.f32.f16 keeps it). */
double half_to_double(HalfBits bits);
float half_to_float(HalfBits bits);

/** __hadd, __hsub, __hmul, __hdiv: computed in float, then rounded once to half. This is the
 *  exact operation rounded once: a float has 24 >= 2 * 11 + 2 bits, so for these four
 *  operations on two binary16 operands the double rounding through float is innocuous
 *  (Figueroa, "When is double rounding innocuous?", SIGNUM 1995). */
HalfBits half_add(HalfBits a, HalfBits b);
HalfBits half_sub(HalfBits a, HalfBits b);
HalfBits half_mul(HalfBits a, HalfBits b);
HalfBits half_div(HalfBits a, HalfBits b);
/** __hfma: a * b + c with one rounding (fma.rn.f16). */
HalfBits half_fma(HalfBits a, HalfBits b, HalfBits c);
/** __hneg: the sign bit flipped (NaN included), as neg.f16. */
inline HalfBits half_neg(HalfBits a) { return HalfBits(a ^ 0x8000u); }
/** __habs: the sign bit cleared, as abs.f16. */
inline HalfBits half_abs(HalfBits a) { return HalfBits(a & 0x7fffu); }
bool half_is_nan(HalfBits a);

} // namespace fencelab
