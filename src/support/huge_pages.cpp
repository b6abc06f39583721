#include "fencelab/support/huge_pages.h"

#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace fencelab {

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

size_t round_up_to_huge_page(size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

} // namespace

void* map_huge_page_memory(size_t bytes) {
  // A huge page backs only a 2 MiB-aligned range, and mmap aligns to 4 KiB: map a huge page
  // more than needed and unmap what lies outside the aligned range.
  const size_t size = round_up_to_huge_page(bytes);
  void* mapped = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = round_up_to_huge_page(start);
  // The head is empty where mmap happened to align; the tail never is (head + tail = kHugePage).
  if (aligned > start) ::munmap(mapped, aligned - start);
  ::munmap(reinterpret_cast<void*>(aligned + size), kHugePage - (aligned - start));
  // Advice only: where the kernel has no transparent huge pages the memory is plain pages.
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void unmap_huge_page_memory(void* memory, size_t bytes) noexcept {
  ::munmap(memory, round_up_to_huge_page(bytes));
}

void advise_huge_pages(void* memory, size_t bytes) noexcept {
#if defined(FENCELAB_SANITIZED)
  (void)memory;
  (void)bytes;
#else
  if (memory == nullptr || bytes < kHugePageThreshold) return;
  // madvise takes whole pages; only whole huge pages can be backed by one.
  const uintptr_t begin = round_up_to_huge_page(reinterpret_cast<uintptr_t>(memory));
  const uintptr_t end = (reinterpret_cast<uintptr_t>(memory) + bytes) & ~(kHugePage - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

} // namespace fencelab
