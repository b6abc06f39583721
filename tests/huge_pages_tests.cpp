// HugePageAllocator and the mapping under it (support/huge_pages.h): large allocations are
// 2 MiB-aligned, zeroed and usable to their last byte; a vector that grows across the
// threshold, shrinks, copies and moves keeps its elements. Whether the kernel then backs the
// memory with huge pages is its own choice (transparent_hugepage), not checked here.
#include "fencelab/explore/exploration.h" // SplitMix64
#include "fencelab/support/huge_pages.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace fencelab;

namespace {

constexpr uintptr_t kTwoMiB = uintptr_t{2} << 20;

} // namespace

TEST_CASE("map_huge_page_memory gives zeroed, 2 MiB-aligned memory usable to its end", "[support]") {
  for (const size_t bytes : {kHugePageThreshold, size_t{2} << 20, (size_t{5} << 20) + 12345}) {
    auto* memory = static_cast<unsigned char*>(map_huge_page_memory(bytes));
    CHECK(reinterpret_cast<uintptr_t>(memory) % kTwoMiB == 0);
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i += 4096) nonzero += memory[i] != 0;
    nonzero += memory[bytes - 1] != 0;
    CHECK(nonzero == 0);
    std::memset(memory, 0xab, bytes);
    CHECK(memory[bytes - 1] == 0xab);
    unmap_huge_page_memory(memory, bytes);
  }
}

TEST_CASE("A vector on HugePageAllocator keeps its elements across the threshold", "[support]") {
  std::vector<uint64_t, HugePageAllocator<uint64_t>> values;
  std::vector<uint64_t> oracle;
  SplitMix64 random(7);
  const size_t large = 3 * kHugePageThreshold / sizeof(uint64_t);
  // Grows one element at a time from the heap to mapped memory, through several reallocations.
  while (oracle.size() < large) {
    const uint64_t v = random.next();
    values.push_back(v);
    oracle.push_back(v);
  }
  CHECK(std::equal(values.begin(), values.end(), oracle.begin(), oracle.end()));
#if !defined(FENCELAB_SANITIZED)
  CHECK(reinterpret_cast<uintptr_t>(values.data()) % kTwoMiB == 0);
#endif
  // A copy, a move, a shrink back under the threshold and a resize past it again.
  auto copy = values;
  CHECK(std::equal(copy.begin(), copy.end(), oracle.begin(), oracle.end()));
  auto moved = std::move(copy);
  CHECK(std::equal(moved.begin(), moved.end(), oracle.begin(), oracle.end()));
  moved.resize(100);
  moved.shrink_to_fit();
  CHECK(std::equal(moved.begin(), moved.end(), oracle.begin(), oracle.begin() + 100));
  moved.resize(large, 5);
  CHECK(moved[99] == oracle[99]);
  CHECK(moved[100] == 5);
  CHECK(moved.back() == 5);
  // Elements that are over-aligned, as the race detector's states are.
  struct alignas(64) Line {
    uint64_t word[8];
  };
  std::vector<Line, HugePageAllocator<Line>> lines(kHugePageThreshold / sizeof(Line) + 1);
  CHECK(reinterpret_cast<uintptr_t>(lines.data()) % 64 == 0);
  lines.back().word[7] = 1;
  CHECK(lines.front().word[0] == 0);
}
