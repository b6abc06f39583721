// Conversions between integer types (frontend/types.h): convert_word's inline path against the
// general one, which every other conversion takes; and the inline integer operations the bytecode
// uses in place of apply_binary (frontend/operators.h).
#include "fencelab/frontend/operators.h"
#include "fencelab/frontend/types.h"

#include <catch2/catch.hpp>

using namespace fencelab;

TEST_CASE("integer conversions: the inline path of convert_word agrees with the general one", "[types]") {
  // convert_word converts between integer types inline (C++20 [conv.integral]: the value modulo
  // 2^N of the target's width); convert_word_between is the general path it used to take.
  // Every pair of integer types (bool only as a source: to bool is a test against zero), on
  // each source type's extremes and values around them, canonical for the source.
  const ScalarType integers[] = {ScalarType::Bool,  ScalarType::Char,     ScalarType::UChar, ScalarType::Short,
                                 ScalarType::UShort, ScalarType::Int,      ScalarType::UInt,  ScalarType::Long,
                                 ScalarType::ULong, ScalarType::LongLong, ScalarType::ULongLong};
  const uint64_t raw[] = {0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x12345, 0x7fffffff, 0x80000000,
                          0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffffffe,
                          0xffffffffffffffff};
  for (const ScalarType from : integers) {
    for (const ScalarType to : integers) {
      if (to == ScalarType::Bool) continue;
      for (const uint64_t r : raw) {
        const Word value = canonical_word(r, Type::of(from));
        INFO(scalar_spelling(from) << " -> " << scalar_spelling(to) << ", " << value);
        CHECK(convert_word(value, Type::of(from), Type::of(to)) ==
              convert_word_between(value, Type::of(from), Type::of(to)));
      }
    }
  }
  // And two values spelled out: -1 as unsigned int, 2^32 + 5 as int.
  CHECK(convert_word(word_from_int(-1, Type::of(ScalarType::Int)), Type::of(ScalarType::Int),
                     Type::of(ScalarType::UInt)) == 0xffffffffu);
  CHECK(convert_word(0x100000005ull, Type::of(ScalarType::LongLong), Type::of(ScalarType::Int)) == 5);
}

TEST_CASE("integer conversions: extend_integer keeps the low bytes, extended by their sign or by zeros", "[types]") {
  // Against the definition, bit by bit: bits below 8 * size are raw's, those above are the top
  // kept bit (signed) or 0 (unsigned).
  const uint64_t raw[] = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
                          0x123456789abcdef0, 0x8000000000000000, 0xfedcba9876543210, 0xffffffffffffffff};
  for (const uint64_t r : raw) {
    for (const uint32_t size : {1u, 2u, 4u, 8u}) {
      for (const bool is_signed : {false, true}) {
        const unsigned bits = size * 8;
        const bool top = (r >> (bits - 1)) & 1;
        uint64_t expected = 0;
        for (unsigned bit = 0; bit < 64; ++bit) {
          const bool set = bit < bits ? ((r >> bit) & 1) != 0 : is_signed && top;
          if (set) expected |= uint64_t{1} << bit;
        }
        INFO(r << " size " << size << (is_signed ? " signed" : " unsigned"));
        CHECK(extend_integer(r, size, is_signed) == expected);
      }
    }
  }
}

TEST_CASE("integer division: division_without_error agrees with apply_binary wherever it may be used",
          "[types]") {
  // The bytecode's path for a constant divisor (FunctionCompiler::divides_without_error) against
  // the general one, for every integer type but bool, on each type's extremes and values around
  // them as dividends, and every such divisor that is neither 0 nor a signed -1.
  const ScalarType integers[] = {ScalarType::Char,  ScalarType::UChar, ScalarType::Short,    ScalarType::UShort,
                                 ScalarType::Int,   ScalarType::UInt,  ScalarType::Long,     ScalarType::ULong,
                                 ScalarType::LongLong, ScalarType::ULongLong};
  const uint64_t raw[] = {0, 1, 2, 3, 7, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
                          0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffffff9, 0xfffffffffffffffe,
                          0xffffffffffffffff};
  for (const ScalarType scalar : integers) {
    const Type type = Type::of(scalar);
    for (const uint64_t a_raw : raw) {
      for (const uint64_t b_raw : raw) {
        const Word a = canonical_word(a_raw, type), b = canonical_word(b_raw, type);
        if (b == 0 || (type.is_signed() && int64_t(b) == -1)) continue;
        for (const BinaryOp op : {BinaryOp::Divide, BinaryOp::Remainder}) {
          ArithmeticError error = ArithmeticError::None;
          const Word expected = apply_binary(op, a, b, type, type, type, error);
          INFO(scalar_spelling(scalar) << (op == BinaryOp::Divide ? " / " : " % ") << a << ", " << b);
          REQUIRE(error == ArithmeticError::None);
          CHECK(division_without_error(op, a, b, type) == expected);
        }
      }
    }
  }
}
