// The kernel language's types and the canonical 64-bit representation of values.
//
// Every runtime value, in a register slot or in simulated memory, is one `Word` (64 bits):
//  - integers: truncated to their width, then sign- or zero-extended to 64 bits;
//  - bool: 0 or 1;
//  - float: its IEEE-754 bit pattern in the low 32 bits (upper bits zero);
//  - double: its IEEE-754 bit pattern;
//  - __half (`half`, cuda_fp16.h): its IEEE-754 binary16 bit pattern in the low 16 bits
//    (upper bits zero); frontend/half.h has its conversions and arithmetic;
//  - pointers: see machine/pointer.h (kind, object, byte offset).
#pragma once

#include <cstdint>
#include <string>

namespace fencelab {

using Word = uint64_t;

#define FENCELAB_SCALAR_TYPES(X)                                                                   \
  /* X(Enumerator, spelling, size in bytes, is_integer, is_signed) */                             \
  X(Void, "void", 0, false, false)                                                                 \
  X(Bool, "bool", 1, true, false)                                                                  \
  X(Char, "char", 1, true, true)                                                                   \
  X(UChar, "unsigned char", 1, true, false)                                                        \
  X(Short, "short", 2, true, true)                                                                 \
  X(UShort, "unsigned short", 2, true, false)                                                      \
  X(Int, "int", 4, true, true)                                                                     \
  X(UInt, "unsigned int", 4, true, false)                                                          \
  X(Long, "long", 8, true, true)                                                                   \
  X(ULong, "unsigned long", 8, true, false)                                                        \
  X(LongLong, "long long", 8, true, true)                                                          \
  X(ULongLong, "unsigned long long", 8, true, false)                                               \
  X(Float, "float", 4, false, true)                                                                \
  X(Double, "double", 8, false, true)                                                              \
  X(Half, "__half", 2, false, true)

enum class ScalarType : uint8_t {
#define X(name, spelling, size, is_integer, is_signed) name,
  FENCELAB_SCALAR_TYPES(X)
#undef X
};

/**
 * A type as the kernel language sees it: a scalar, or a pointer (depth 1 or 2) to one.
 * Qualifiers: `is_volatile`/`is_const` qualify the object of this type itself;
 * `pointee_volatile`/`pointee_const` qualify what a pointer points to (`volatile float* p`).
 * Arrays are not values: declarations carry their extent, and an array expression decays to
 * a pointer to its element type.
 */
struct Type {
  ScalarType scalar = ScalarType::Int;
  uint8_t pointer_depth = 0;
  bool is_volatile = false;
  bool is_const = false;
  bool pointee_volatile = false;
  bool pointee_const = false;

  static Type of(ScalarType scalar) { return Type{scalar}; }
  static Type pointer_to(Type pointee);
  /** The pointed-to type of a pointer (depth reduced by one, qualifiers moved). */
  Type pointee() const;

  bool is_pointer() const { return pointer_depth > 0; }
  bool is_void() const { return !is_pointer() && scalar == ScalarType::Void; }
  bool is_integer() const;
  bool is_floating() const;
  bool is_arithmetic() const { return is_integer() || is_floating(); }
  bool is_signed() const;
  /** Bytes occupied in memory: 8 for pointers. */
  uint32_t size() const;

  /** Equality ignoring top-level qualifiers. */
  bool same_unqualified(const Type& other) const {
    if (scalar != other.scalar || pointer_depth != other.pointer_depth) return false;
    return pointer_depth == 0 || (pointee_volatile == other.pointee_volatile && pointee_const == other.pointee_const);
  }
  std::string to_string() const;
  /** Equality of every field, qualifiers included (same_unqualified is the language's). */
  friend bool operator==(const Type&, const Type&) = default;
};

const char* scalar_spelling(ScalarType scalar);
// Inline: the interpreter asks these of every value it converts or stores.
struct ScalarTraits {
  uint8_t size;
  bool is_integer;
  bool is_signed;
};
/** At namespace scope, not in scalar_traits: a local constexpr array is built on the stack at
 *  every call that is not a constant evaluation (g++ 12 does so). */
inline constexpr ScalarTraits kScalarTraits[] = {
#define X(name, spelling, size, is_integer, is_signed) {size, is_integer, is_signed},
    FENCELAB_SCALAR_TYPES(X)
#undef X
};
constexpr ScalarTraits scalar_traits(ScalarType scalar) { return kScalarTraits[static_cast<size_t>(scalar)]; }
constexpr uint32_t scalar_size(ScalarType scalar) { return scalar_traits(scalar).size; }
constexpr bool scalar_is_integer(ScalarType scalar) { return scalar_traits(scalar).is_integer; }
constexpr bool scalar_is_signed(ScalarType scalar) { return scalar_traits(scalar).is_signed; }

inline bool Type::is_integer() const { return !is_pointer() && scalar_is_integer(scalar); }
inline bool Type::is_floating() const {
  return !is_pointer() && (scalar == ScalarType::Float || scalar == ScalarType::Double || scalar == ScalarType::Half);
}
inline bool Type::is_signed() const { return !is_pointer() && scalar_is_signed(scalar); }
inline uint32_t Type::size() const { return is_pointer() ? 8 : scalar_size(scalar); }

/** Converts a canonical word of type `from` to the canonical word of type `to` (C rules). */
Word convert_word(Word value, const Type& from, const Type& to);
/** Reinterprets the bits of a word of `from` as `to` (same size; e.g. a float read through an
 *  `unsigned int*`), as a C++ `memcpy` or the hardware's untyped loads would. */
Word reinterpret_word(Word value, const Type& from, const Type& to);
/** The general paths of convert_word and reinterpret_word, which handle inline only the cases
 *  that keep the word (below). */
Word convert_word_between(Word value, const Type& from, const Type& to);
Word reinterpret_word_between(Word value, const Type& from, const Type& to);
/** Canonicalises raw bits to `type` (truncate and extend integers; keep float bits). */
Word canonical_word(Word raw, const Type& type);

/** Words from and to host values, for literals, harness values and printing. */
Word word_from_int(int64_t value, const Type& type);
Word word_from_double(double value, const Type& type);
int64_t word_to_int(Word value, const Type& type);
double word_to_double(Word value, const Type& type);
bool word_is_true(Word value, const Type& type);
/** Prints a word as the kernel language would write it: 10, 4294967295u style is not used. */
std::string format_word(Word value, const Type& type);

/** The low `size` bytes of `raw` (size 1 to 8), sign- or zero-extended to 64 bits: an
 *  integer's canonical word. Its low bytes moved to the top and shifted back, arithmetically
 *  where signed (C++20 [expr.shift]: a right shift of a negative value keeps its sign): three
 *  instructions, where masking and testing the sign bit took nine (callgrind, tree reduction). */
inline Word extend_integer(uint64_t raw, uint32_t size, bool is_signed) {
  if (size >= 8) return raw;
  const unsigned unused = 64 - size * 8;
  return is_signed ? Word(int64_t(raw << unused) >> unused) : (raw << unused) >> unused;
}

// Inline: the interpreter converts nearly every value it reads or writes, mostly from one
// pointer to another or from an integer to an integer type (`int tid = threadIdx.x`, the
// usual arithmetic conversions), which keeps the value modulo 2^N of the target's width
// (C++20 [conv.integral]): its low bytes, extended as the target's signedness says, as
// convert_word_between would end. Only a conversion to bool tests the value instead.
inline Word convert_word(Word value, const Type& from, const Type& to) {
  if (from.pointer_depth > 0 && to.pointer_depth > 0) return value;
  if ((from.pointer_depth | to.pointer_depth) == 0 && to.scalar != ScalarType::Bool && scalar_is_integer(to.scalar) &&
      scalar_is_integer(from.scalar))
    return extend_integer(value, scalar_size(to.scalar), scalar_is_signed(to.scalar));
  return convert_word_between(value, from, to);
}

inline Word reinterpret_word(Word value, const Type& from, const Type& to) {
  if (from.same_unqualified(to)) return value;
  return reinterpret_word_between(value, from, to);
}

} // namespace fencelab
