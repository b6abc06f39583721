// The race detector's shared, per-block vector clocks (checkers/vector_clock.h) against plain
// dense vectors, on random joins and raises.
#include "checkers/vector_clock.h"
#include "fencelab/explore/exploration.h" // SplitMix64

#include <catch2/catch.hpp>

using namespace fencelab;

TEST_CASE("shared vector clocks agree with dense ones on random joins and raises", "[checkers][clocks]") {
  constexpr uint32_t kBlocks = 5, kPerBlock = 3, kThreads = kBlocks * kPerBlock, kClocks = 6;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    SplitMix64 random(seed);
    std::vector<VectorClock> shared(kClocks);
    std::vector<std::vector<uint32_t>> dense(kClocks, std::vector<uint32_t>(kThreads, 0));
    for (int step = 0; step < 60; ++step) {
      const uint32_t a = random.below(kClocks), b = random.below(kClocks);
      switch (random.below(3)) {
      case 0: // join, as a fence acquires or a barrier gathers
        shared[a].join(shared[b]);
        for (uint32_t i = 0; i < kThreads; ++i) dense[a][i] = std::max(dense[a][i], dense[b][i]);
        break;
      case 1: { // raise some entries of one block, as a barrier or a release does
        const uint32_t block = random.below(kBlocks);
        std::vector<std::pair<uint32_t, uint32_t>> entries;
        for (uint32_t i = 0; i < kPerBlock; ++i)
          if (random.below(2) != 0) entries.emplace_back(i, random.below(20));
        shared[a].raise(block, entries, kPerBlock);
        for (const auto& [index, value] : entries)
          dense[a][block * kPerBlock + index] = std::max(dense[a][block * kPerBlock + index], value);
        break;
      }
      default: // copy, as a barrier hands its clock to every participant
        shared[a] = shared[b];
        dense[a] = dense[b];
        break;
      }
      for (uint32_t c = 0; c < kClocks; ++c)
        for (uint32_t i = 0; i < kThreads; ++i) {
          INFO("seed " << seed << ", step " << step << ", clock " << c << ", thread " << i);
          REQUIRE(shared[c].get(i, kPerBlock) == dense[c][i]);
        }
    }
  }
}
