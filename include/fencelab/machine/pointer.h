// The canonical word of a pointer value.
//
// bits 63..62: kind (0 null, 1 memory object, 2 thread-local array)
// bits 61..40: object (Program::memory_objects index, or the thread's local-array index)
// bits 39..0 : byte offset, two's complement (pointer arithmetic may step outside an object;
//              only an access out of bounds is an error, as in C++)
// A pointer to a shared object names the object, not a block's copy of it: the accessing
// thread's block selects the copy (shared memory is only addressable from its own block).
#pragma once

#include "fencelab/frontend/types.h"

namespace fencelab {

enum class PointerKind : uint8_t { Null = 0, Object = 1, LocalArray = 2 };

struct PointerValue {
  PointerKind kind = PointerKind::Null;
  uint32_t object = 0;
  int64_t offset = 0;

  static constexpr unsigned kOffsetBits = 40;
  static constexpr unsigned kObjectBits = 22;

  Word encode() const {
    if (kind == PointerKind::Null && offset == 0) return 0;
    const Word off = Word(offset) & ((Word{1} << kOffsetBits) - 1);
    return (Word(kind) << 62) | (Word(object & ((1u << kObjectBits) - 1)) << kOffsetBits) | off;
  }

  static PointerValue decode(Word w) {
    PointerValue p;
    p.kind = static_cast<PointerKind>(w >> 62);
    p.object = uint32_t((w >> kOffsetBits) & ((Word{1} << kObjectBits) - 1));
    const Word off = w & ((Word{1} << kOffsetBits) - 1);
    // Sign-extend the 40-bit offset.
    p.offset = int64_t(off << (64 - kOffsetBits)) >> (64 - kOffsetBits);
    return p;
  }
};

/** `pointer` moved by `bytes` (pointer arithmetic: the object stays, the offset moves). */
inline Word offset_pointer(Word pointer, int64_t bytes) {
  PointerValue p = PointerValue::decode(pointer);
  p.offset += bytes;
  return p.encode(); // a null pointer moved back to offset 0 is null again
}

} // namespace fencelab
