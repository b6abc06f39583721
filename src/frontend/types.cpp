// Types of the kernel language and the canonical word representation (see types.h).
#include "fencelab/frontend/types.h"

#include "fencelab/frontend/half.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace fencelab {

namespace {

struct ScalarInfo {
  const char* spelling;
  uint32_t size;
  bool is_integer;
  bool is_signed;
};

constexpr ScalarInfo kScalarInfo[] = {
#define X(name, spelling, size, is_integer, is_signed) {spelling, size, is_integer, is_signed},
    FENCELAB_SCALAR_TYPES(X)
#undef X
};

const ScalarInfo& info(ScalarType scalar) { return kScalarInfo[static_cast<size_t>(scalar)]; }

float float_from_word(Word w) { return std::bit_cast<float>(static_cast<uint32_t>(w)); }
Word word_from_float(float f) { return std::bit_cast<uint32_t>(f); }
double double_from_word(Word w) { return std::bit_cast<double>(w); }
Word word_from_double_bits(double d) { return std::bit_cast<uint64_t>(d); }

/**
 * Floating to integer conversion. C++ [conv.fpint] makes out-of-range values undefined; we
 * saturate as the PTX `cvt.rzi` instruction does (PTX ISA 9.7.9.21), and NaN becomes 0. To
 * bool it is [conv.bool] instead: false for zero, true for anything else, NaN included.
 */
uint64_t integer_from_floating(double value, const Type& to) {
  if (to.scalar == ScalarType::Bool) return value != 0.0 ? 1 : 0; // NaN != 0.0 holds
  if (std::isnan(value)) return 0;
  const uint32_t size = to.size();
  if (to.is_signed()) {
    const int bits = int(size * 8);
    const double limit = std::ldexp(1.0, bits - 1);
    const int64_t max = bits >= 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    const int64_t min = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    if (value >= limit) return extend_integer(uint64_t(max), size, true);
    if (value < -limit) return extend_integer(uint64_t(min), size, true);
    return extend_integer(uint64_t(int64_t(std::trunc(value))), size, true);
  }
  const double max = std::ldexp(1.0, int(size * 8));
  if (value <= 0.0) return 0;
  if (value >= max) return size >= 8 ? UINT64_MAX : (uint64_t{1} << (size * 8)) - 1;
  return uint64_t(std::trunc(value));
}

/**
 * Conversions to and from __half, as cuda_fp16.hpp defines them (its constructors and
 * conversion operators): from float, double and the integers rounded once to nearest even
 * (__float2half, __double2half, __int2half_rn, __ll2half_rn, ...; a double is not rounded to
 * float first); to float and double exactly; to the integers toward zero, saturating, NaN
 * to 0 (__half2int_rz, __half2ll_rz, ...; operator int()), and to bool by `operator bool()`:
 * true unless +0 or -0 (a NaN is true).
 */
Word convert_half_word(Word value, const Type& from, const Type& to) {
  if (from.scalar == ScalarType::Half) {
    const HalfBits bits = HalfBits(value);
    if (to.scalar == ScalarType::Half) return bits;
    if (to.scalar == ScalarType::Bool) return (bits & 0x7fffu) != 0 ? 1 : 0;
    if (to.scalar == ScalarType::Float) return word_from_float(half_to_float(bits));
    if (to.scalar == ScalarType::Double) return word_from_double_bits(half_to_double(bits));
    return integer_from_floating(half_to_double(bits), to);
  }
  if (from.scalar == ScalarType::Float) return half_from_double(double(float_from_word(value)));
  if (from.scalar == ScalarType::Double) return half_from_double(double_from_word(value));
  return from.is_signed() ? half_from_int64(int64_t(value)) : half_from_uint64(value);
}

} // namespace

const char* scalar_spelling(ScalarType scalar) { return info(scalar).spelling; }

Type Type::pointer_to(Type pointee) {
  Type t = pointee;
  t.pointer_depth = static_cast<uint8_t>(pointee.pointer_depth + 1);
  t.pointee_volatile = pointee.is_volatile;
  t.pointee_const = pointee.is_const;
  t.is_volatile = false;
  t.is_const = false;
  return t;
}

Type Type::pointee() const {
  Type t = *this;
  if (pointer_depth > 0) t.pointer_depth = static_cast<uint8_t>(pointer_depth - 1);
  t.is_volatile = pointee_volatile;
  t.is_const = pointee_const;
  if (t.pointer_depth == 0) {
    t.pointee_volatile = false;
    t.pointee_const = false;
  }
  return t;
}

std::string Type::to_string() const {
  std::string out;
  const bool qualified_pointee = pointer_depth > 0;
  if (qualified_pointee ? pointee_const : is_const) out += "const ";
  if (qualified_pointee ? pointee_volatile : is_volatile) out += "volatile ";
  out += scalar_spelling(scalar);
  for (int i = 0; i < pointer_depth; ++i) out += '*';
  if (qualified_pointee && is_const) out += " const";
  if (qualified_pointee && is_volatile) out += " volatile";
  return out;
}

Word canonical_word(Word raw, const Type& type) {
  if (type.is_pointer()) return raw;
  switch (type.scalar) {
  case ScalarType::Void: return 0;
  case ScalarType::Bool: return raw != 0 ? 1 : 0;
  case ScalarType::Float: return raw & 0xffffffffu;
  case ScalarType::Double: return raw;
  case ScalarType::Half: return raw & 0xffffu;
  default: return extend_integer(raw, type.size(), type.is_signed());
  }
}

Word reinterpret_word_between(Word value, const Type& from, const Type& to) {
  const uint32_t size = from.size() < to.size() ? from.size() : to.size();
  const Word raw = size >= 8 ? value : value & ((Word{1} << (size * 8)) - 1);
  return canonical_word(raw, to);
}

Word convert_word_between(Word value, const Type& from, const Type& to) {
  if (to.is_pointer() || from.is_pointer()) {
    // Pointer <-> pointer keeps the bits; integer <-> pointer keeps the bits (only null, 0, is
    // meaningful to the machine). Pointer to bool tests for null.
    if (!to.is_pointer() && to.scalar == ScalarType::Bool) return value != 0 ? 1 : 0;
    return to.is_pointer() ? value : canonical_word(value, to);
  }
  if (to.scalar == ScalarType::Void) return 0;
  if (from.scalar == ScalarType::Half || to.scalar == ScalarType::Half) return convert_half_word(value, from, to);
  if (from.is_floating()) {
    const double v =
        from.scalar == ScalarType::Float ? double(float_from_word(value)) : double_from_word(value);
    if (to.scalar == ScalarType::Float) return word_from_float(float(v));
    if (to.scalar == ScalarType::Double) return word_from_double_bits(v);
    return integer_from_floating(v, to);
  }
  // From an integer (canonical: sign- or zero-extended to 64 bits).
  if (to.scalar == ScalarType::Bool) return value != 0 ? 1 : 0;
  if (to.is_floating()) {
    const double v = from.is_signed() ? double(int64_t(value)) : double(value);
    if (to.scalar == ScalarType::Float) {
      // Convert directly from the 64-bit integer to float to round once, not twice.
      const float f = from.is_signed() ? float(int64_t(value)) : float(value);
      return word_from_float(f);
    }
    return word_from_double_bits(v);
  }
  return extend_integer(value, to.size(), to.is_signed());
}

Word word_from_int(int64_t value, const Type& type) {
  return convert_word(static_cast<Word>(value), Type::of(ScalarType::LongLong), type);
}

Word word_from_double(double value, const Type& type) {
  return convert_word(word_from_double_bits(value), Type::of(ScalarType::Double), type);
}

int64_t word_to_int(Word value, const Type& type) {
  return static_cast<int64_t>(convert_word(value, type, Type::of(ScalarType::LongLong)));
}

double word_to_double(Word value, const Type& type) {
  return double_from_word(convert_word(value, type, Type::of(ScalarType::Double)));
}

bool word_is_true(Word value, const Type& type) {
  if (type.is_floating()) return word_to_double(value, type) != 0.0;
  return value != 0;
}

std::string format_word(Word value, const Type& type) {
  if (type.is_pointer()) return value == 0 ? "nullptr" : fmt::format("0x{:x}", value);
  switch (type.scalar) {
  case ScalarType::Bool: return value ? "true" : "false";
  case ScalarType::Float: return fmt::format("{}", float_from_word(value));
  case ScalarType::Double: return fmt::format("{}", double_from_word(value));
  case ScalarType::Half: return fmt::format("{}", half_to_float(HalfBits(value)));
  default:
    if (type.is_signed()) return fmt::format("{}", int64_t(value));
    return fmt::format("{}", uint64_t(value));
  }
}

} // namespace fencelab
