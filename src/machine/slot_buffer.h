// A thread's slots (its frames' scalar variables, contiguous): the first kInline words inside
// the SimThread, the rest on the heap (docs/architecture.md, "Thread layout").
#pragma once

#include "fencelab/machine/machine.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

namespace fencelab {

/**
 * A vector of words that holds up to kInline of them in place: a kernel with few parameters and
 * locals (the 2^20-thread reduction's `in`, `out`, `tid` and `stride`) keeps them in its
 * SimThread's lines, so that a resumption reads them without first reading where a heap buffer
 * lies (a dependent load: in perf profiles of the 2^20-thread reduction, a barrier release
 * spent 43% of its time waiting for that address, eight participants ahead). Past kInline words they move to the heap, which is
 * kept, like a std::vector's capacity, across the threads that use the slot.
 */
class SlotBuffer {
public:
  static constexpr uint32_t kInline = 4;

  Word* data() { return m_heap ? m_heap.get() : m_inline.data(); }
  const Word* data() const { return m_heap ? m_heap.get() : m_inline.data(); }
  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  /** Whether the words lie in the heap (once there, they stay: the memory is kept). */
  bool on_heap() const { return m_heap != nullptr; }
  Word& operator[](size_t i) { return data()[i]; }
  const Word& operator[](size_t i) const { return data()[i]; }
  const Word* begin() const { return data(); }
  const Word* end() const { return data() + m_size; }

  void push_back(Word w) {
    if (m_size == m_capacity) grow(m_size + 1);
    data()[m_size++] = w;
  }
  /** New words are 0. */
  void resize(size_t n) {
    if (n > m_capacity) grow(n);
    if (n > m_size) std::fill(data() + m_size, data() + n, Word{0});
    m_size = static_cast<uint32_t>(n);
  }
  void clear() { m_size = 0; }

private:
  void grow(size_t at_least) {
    const size_t capacity = std::max<size_t>({at_least, size_t(m_capacity) * 2, 16});
    auto heap = std::make_unique<Word[]>(capacity);
    std::copy(data(), data() + m_size, heap.get());
    m_heap = std::move(heap);
    m_capacity = static_cast<uint32_t>(capacity);
  }

  uint32_t m_size = 0;
  uint32_t m_capacity = kInline;
  std::unique_ptr<Word[]> m_heap;
  std::array<Word, kInline> m_inline{};
};
static_assert(sizeof(SlotBuffer) == 48);

} // namespace fencelab
