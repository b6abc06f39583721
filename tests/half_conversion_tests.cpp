// IEEE 754-2008 binary16 (frontend/half.h): rounding to nearest even on edge values, every
// half's round trip, every tie between neighbouring halves against a plain oracle, and the
// arithmetic rounded once (fused multiply-add included).
#include "fencelab/frontend/half.h"
#include "fencelab/frontend/types.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace fencelab;

TEST_CASE("half: conversions from double round to nearest, ties to even, on the edge values", "[half]") {
  CHECK(half_from_double(1.0) == 0x3c00);
  CHECK(half_from_double(1.5) == 0x3e00);
  CHECK(half_from_double(-2.0) == 0xc000);
  CHECK(half_from_double(65504.0) == 0x7bff);             // the largest finite half
  CHECK(half_from_double(65519.99) == 0x7bff);            // below the midpoint to 2^16
  CHECK(half_from_double(65520.0) == 0x7c00);             // the midpoint: to even, which overflows
  CHECK(half_from_double(-65520.0) == 0xfc00);
  CHECK(half_from_double(1e10) == 0x7c00);
  CHECK(half_from_double(INFINITY) == 0x7c00);
  CHECK(half_from_double(-INFINITY) == 0xfc00);
  CHECK(half_from_double(std::ldexp(1.0, -14)) == 0x0400); // the smallest normal
  CHECK(half_from_double(std::ldexp(1.0, -24)) == 0x0001); // the smallest subnormal
  CHECK(half_from_double(std::ldexp(1.0, -25)) == 0x0000); // half of it: a tie, to the even 0
  CHECK(half_from_double(std::ldexp(1.0, -25) * 1.0000001) == 0x0001);
  CHECK(half_from_double(3 * std::ldexp(1.0, -25)) == 0x0002); // 1.5 quanta: to the even 2
  CHECK(half_from_double(std::ldexp(1023.5, -24)) == 0x0400);  // the last subnormal tie carries into the exponent
  CHECK(half_from_double(1 + std::ldexp(1.0, -11)) == 0x3c00); // tie between 1 and 1 + 2^-10: even 1
  CHECK(half_from_double(1 + 3 * std::ldexp(1.0, -11)) == 0x3c02); // tie: to the even 1 + 2^-9
  CHECK(half_from_double(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)) == 0x3c01);
  CHECK(half_from_double(0.1) == 0x2e66);
  CHECK(half_from_double(-0.0) == 0x8000);
  CHECK(half_from_double(0.0) == 0x0000);
  CHECK(half_from_double(std::numeric_limits<double>::quiet_NaN()) == kHalfNaN);
  CHECK(half_from_double(-std::numeric_limits<double>::quiet_NaN()) == kHalfNaN);
  // A double is rounded once, not through float: 1 + 2^-11 + 2^-40 is above the tie, but as a
  // float it is 1 + 2^-11, the tie itself, which would round down.
  CHECK(half_from_double(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 0x3c01);
}

TEST_CASE("half: conversions from integers round once, to integers truncate and saturate", "[half]") {
  CHECK(half_from_int64(2049) == half_from_double(2048)); // tie: to even
  CHECK(half_from_int64(2051) == half_from_double(2052));
  CHECK(half_from_int64(65519) == 0x7bff);
  CHECK(half_from_int64(65520) == 0x7c00);
  CHECK(half_from_int64(INT64_MIN) == 0xfc00);
  CHECK(half_from_uint64(UINT64_MAX) == 0x7c00);
  const Type half = Type::of(ScalarType::Half), integer = Type::of(ScalarType::Int);
  CHECK(convert_word(half_from_double(-2.75), half, integer) == word_from_int(-2, integer));
  CHECK(convert_word(0x7c00, half, integer) == word_from_int(INT32_MAX, integer)); // infinity saturates
  CHECK(convert_word(kHalfNaN, half, integer) == 0);
  CHECK(convert_word(0x7c00, half, Type::of(ScalarType::UShort)) == 65535);
  CHECK(convert_word(0x8000, half, Type::of(ScalarType::Bool)) == 0); // -0 is false
  CHECK(convert_word(kHalfNaN, half, Type::of(ScalarType::Bool)) == 1);
  CHECK(convert_word(word_from_double(0.1, Type::of(ScalarType::Float)), Type::of(ScalarType::Float), half) == 0x2e66);
  CHECK(format_word(0x2e66, half) == "0.099975586");
  CHECK(format_word(0x7c00, half) == "inf");
}

TEST_CASE("half: every half converts to double and back unchanged", "[half]") {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const HalfBits h = HalfBits(bits);
    const double value = half_to_double(h);
    if (half_is_nan(h)) {
      CHECK(std::isnan(value));
      continue;
    }
    INFO(bits);
    REQUIRE(half_from_double(value) == h);
    REQUIRE(double(half_to_float(h)) == value);
  }
  CHECK(half_to_double(0x7bff) == 65504.0);
  CHECK(half_to_double(0x0001) == std::ldexp(1.0, -24));
  CHECK(std::signbit(half_to_double(0x8000)));
  CHECK(half_to_double(0xfc00) == -INFINITY);
}

TEST_CASE("half: every midpoint between neighbouring halves rounds to the even one, and a hair off it to the nearer",
          "[half]") {
  // The oracle: the two neighbours are known, so rounding is a choice between them.
  for (uint32_t bits = 0; bits < 0x7bff; ++bits) {
    const HalfBits low = HalfBits(bits), high = HalfBits(bits + 1);
    const double a = half_to_double(low), b = half_to_double(high);
    const double middle = (a + b) / 2; // exact in double
    const HalfBits even = (low & 1) == 0 ? low : high;
    INFO(bits);
    REQUIRE(half_from_double(middle) == even);
    REQUIRE(half_from_double(-middle) == HalfBits(even | 0x8000));
    REQUIRE(half_from_double(std::nextafter(middle, 0.0)) == low);
    REQUIRE(half_from_double(std::nextafter(middle, INFINITY)) == high);
  }
}

TEST_CASE("half: arithmetic is the exact result rounded once, __hfma rounds once for both operations", "[half]") {
  const HalfBits one = 0x3c00, tiny = 0x0001; // 1 and 2^-24
  CHECK(half_add(one, half_from_double(std::ldexp(1.0, -11))) == one);       // a tie: to even
  CHECK(half_add(one, half_from_double(3 * std::ldexp(1.0, -11))) == 0x3c02);
  CHECK(half_mul(0x3c01, 0x3c01) == 0x3c02); // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20
  CHECK(half_div(one, half_from_double(3.0)) == 0x3555);
  CHECK(half_sub(0x7bff, half_neg(0x7bff)) == 0x7c00); // overflow to infinity
  CHECK(half_is_nan(half_div(0, 0)));
  CHECK(half_div(0, 0) == kHalfNaN);
  // 1.5 * (683 / 1024) = 1 + 2^-11, a tie; plus 2^-24 it is above the tie: 1 + 2^-10. Rounded
  // after the multiplication (__hmul then __hadd) the tie goes to 1 and the 2^-24 is lost.
  const HalfBits a = half_from_double(1.5), b = half_from_double(683.0 / 1024);
  CHECK(half_fma(a, b, tiny) == 0x3c01);
  CHECK(half_add(half_mul(a, b), tiny) == one);
  CHECK(half_fma(a, b, 0) == one);
  CHECK(half_fma(0x7bff, 0x4000, half_neg(0x7bff)) == 0x7bff); // 65504 * 2 - 65504: no overflow in between
  CHECK(half_neg(kHalfNaN) == 0xffff);
  CHECK(half_abs(0x8000) == 0);
}
