// IEEE 754-2008 binary16 conversions and arithmetic (see half.h for the format).
#include "fencelab/frontend/half.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace fencelab {

// Rounding to binary16 (IEEE 754-2008, 4.3.1 roundTiesToEven). A finite |x| below 65520 lies
// in a binade [2^e, 2^(e+1)) with e >= -14, or below 2^-14 where the subnormals keep e = -14;
// either way the last fraction bit is worth q = 2^(e-10) and the result is the multiple of q
// nearest to |x|, the even one on a tie. Scaling by 2^-q is exact in double, and so are the
// floor and the remainder (the scaled value is below 2^11). The multiple m of q is then
// encoded as ((e + 14) << 10) + m: m in [1024, 2048] carries into the exponent field by itself
// (2048 is the next binade's first value), and below 2^-14, e + 14 = 0 gives the subnormal m.
// 65520 is the midpoint between 65504 (fraction all ones, odd) and 2^16, so from there on the
// tie goes up and overflows to infinity (IEEE 754-2008, 7.4).
HalfBits half_from_double(double value) {
  if (std::isnan(value)) return kHalfNaN;
  const HalfBits sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (magnitude >= 65520.0) return HalfBits(sign | 0x7c00u);
  if (magnitude == 0.0) return sign;
  int frexp_exponent = 0;
  std::frexp(magnitude, &frexp_exponent); // magnitude in [2^(frexp_exponent-1), 2^frexp_exponent)
  const int exponent = std::max(frexp_exponent - 1, -14);
  const int quantum = exponent - 10;
  const double scaled = std::ldexp(magnitude, -quantum);
  double multiple = std::floor(scaled);
  const double rest = scaled - multiple;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(multiple, 2.0) != 0.0)) multiple += 1.0;
  return HalfBits(sign | uint32_t(((exponent + 14) << 10) + int(multiple)));
}

// An integer below 65520 in magnitude is exact in double, so it is rounded once, here.
HalfBits half_from_int64(int64_t value) {
  if (value >= 65520) return 0x7c00;
  if (value <= -65520) return 0xfc00;
  return half_from_double(double(value));
}

HalfBits half_from_uint64(uint64_t value) {
  if (value >= 65520) return 0x7c00;
  return half_from_double(double(value));
}

float half_to_float(HalfBits bits) {
  const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu, fraction = bits & 0x3ffu;
  if (exponent == 0x1f) // infinity, or NaN with its payload in the float's top fraction bits
    return std::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));
  const float magnitude = exponent == 0 ? std::ldexp(float(fraction), -24)
                                        : std::ldexp(float(1024 + fraction), int(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

double half_to_double(HalfBits bits) { return double(half_to_float(bits)); }

bool half_is_nan(HalfBits a) { return (a & 0x7fffu) > 0x7c00u; }

HalfBits half_add(HalfBits a, HalfBits b) { return half_from_double(half_to_float(a) + half_to_float(b)); }
HalfBits half_sub(HalfBits a, HalfBits b) { return half_from_double(half_to_float(a) - half_to_float(b)); }
HalfBits half_mul(HalfBits a, HalfBits b) { return half_from_double(half_to_float(a) * half_to_float(b)); }
HalfBits half_div(HalfBits a, HalfBits b) { return half_from_double(half_to_float(a) / half_to_float(b)); }

// a * b is exact in double (22 significant bits). Its sum with c may not be, and rounding it
// to double and then to half could round twice. So the sum is rounded to odd instead (Boldo
// and Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
// rounding to odd", IEEE TC 2008): TwoSum (Knuth, TAOCP vol. 2, 4.2.2) gives the exact error
// of the double sum; when it is not zero and the sum's last bit is even, the sum moves one
// step towards the error, which makes its last bit odd. Rounding a round-to-odd result with
// 53 >= 11 + 2 bits to half then equals rounding the exact sum once.
HalfBits half_fma(HalfBits a, HalfBits b, HalfBits c) {
  const double product = half_to_double(a) * half_to_double(b);
  const double addend = half_to_double(c);
  double sum = product + addend;
  if (std::isfinite(sum)) {
    const double addend_part = sum - product;
    const double error = (product - (sum - addend_part)) + (addend - addend_part);
    if (error != 0.0 && (std::bit_cast<uint64_t>(sum) & 1u) == 0)
      sum = std::nextafter(sum, error > 0.0 ? INFINITY : -INFINITY);
  }
  return half_from_double(sum);
}

} // namespace fencelab
