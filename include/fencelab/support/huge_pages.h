// Memory for the large arrays a large grid touches at random (the thread slots, a model's
// memory cells, the race detector's per-thread states), on 2 MiB transparent huge pages where
// the kernel offers them.
//
// Why: a 2^20-thread grid resumes its 16,384 resident threads in random order, and each
// resumption touches a few lines of several such arrays, of up to tens of MiB. With 4 KiB pages
// nearly every one of those lines is also a TLB miss, with a page walk of its own; a 2 MiB page
// covers 512 times as much. On the 2-core development machine (a VM) the 2^20-thread
// reduction ran about 9% faster under sc and 7% under gpu (docs/architecture.md, "Huge pages
// for the large arrays"). Linux backs anonymous memory advised with madvise(MADV_HUGEPAGE) by
// huge pages when transparent_hugepage is "madvise" (the default of Debian and Ubuntu) or
// "always"; where it is "never", this is plain memory.
#pragma once

#include <cstddef>
#include <memory>

namespace fencelab {

/** Allocations at least this large are mapped on their own, 2 MiB-aligned, and advised as
 *  huge pages; smaller ones come from operator new. Half a huge page: the last huge page an
 *  allocation touches is resident whole, so at worst it makes twice its own size resident (a
 *  mapping's untouched huge pages cost nothing). */
constexpr size_t kHugePageThreshold = size_t{1} << 20;

/** `bytes` (at least kHugePageThreshold) of zeroed memory aligned to 2 MiB and advised as huge
 *  pages. Throws std::bad_alloc where it cannot be mapped. */
void* map_huge_page_memory(size_t bytes);
/** Unmaps what map_huge_page_memory(bytes) returned. */
void unmap_huge_page_memory(void* memory, size_t bytes) noexcept;
/** Advises the whole huge pages inside [memory, memory + bytes) as huge pages, where that range
 *  is at least kHugePageThreshold and not yet touched (memory from elsewhere: a large vector
 *  about to be filled); a hint that changes no contents. Nothing under the sanitizers. */
void advise_huge_pages(void* memory, size_t bytes) noexcept;

/** A standard allocator that takes large allocations from map_huge_page_memory, for a vector
 *  that grows with the launch. Under the sanitizers, std::allocator throughout, so that they
 *  check its memory like any other. */
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (!use_huge_pages(n)) return std::allocator<T>().allocate(n);
    return static_cast<T*>(map_huge_page_memory(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (!use_huge_pages(n)) return std::allocator<T>().deallocate(p, n);
    unmap_huge_page_memory(p, n * sizeof(T));
  }
  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) noexcept {
    return true;
  }

private:
  static bool use_huge_pages(size_t n) {
#if defined(FENCELAB_SANITIZED)
    (void)n;
    return false;
#else
    static_assert(alignof(T) <= 4096, "mapped memory is page-aligned");
    return n >= kHugePageThreshold / sizeof(T);
#endif
  }
};

} // namespace fencelab
