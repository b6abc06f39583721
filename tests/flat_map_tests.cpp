// FlatMap (support/flat_map.h), the open-addressing map of the race detector's thread states
// and the Machine's watched locations, against std::unordered_map on random operations.
#include "fencelab/explore/exploration.h" // SplitMix64
#include "fencelab/support/flat_map.h"

#include <catch2/catch.hpp>
#include <unordered_map>

using namespace fencelab;

TEST_CASE("FlatMap agrees with unordered_map on random inserts, updates, erasures and clears", "[support]") {
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    SplitMix64 random(seed);
    FlatMap<uint64_t, uint64_t> flat;
    std::unordered_map<uint64_t, uint64_t> oracle;
    // Few distinct keys, so that probe runs wrap and erasure shifts entries back; keys with
    // high bits set, as Location::key makes them.
    const uint64_t spread = 1 + random.below(300);
    for (int step = 0; step < 2000; ++step) {
      const uint64_t key = (uint64_t(random.below(4)) << 32) | random.below(uint32_t(spread));
      switch (random.below(10)) {
      case 0:
      case 1:
      case 2:
      case 3: flat[key] += step + 1, oracle[key] += step + 1; break;
      case 4:
      case 5:
      case 6: flat.erase(key), oracle.erase(key); break;
      case 7:
        if (random.below(50) == 0) flat.clear(), oracle.clear();
        break;
      default: {
        const uint64_t* found = flat.find(key);
        const auto it = oracle.find(key);
        REQUIRE((found != nullptr) == (it != oracle.end()));
        if (found) CHECK(*found == it->second);
      }
      }
      REQUIRE(flat.size() == oracle.size());
    }
    for (const auto& [key, value] : oracle) {
      const uint64_t* found = flat.find(key);
      REQUIRE(found != nullptr);
      CHECK(*found == value);
    }
  }
}

TEST_CASE("flat map: after reserve, inserting up to the count reserved moves no entry", "[flat_map]") {
  FlatMap<uint32_t, uint32_t> map;
  for (uint32_t key = 0; key < 10; ++key) map[key * 7] = key;
  map.reserve(map.size() + 100);
  std::vector<const uint32_t*> where;
  for (uint32_t key = 0; key < 10; ++key) where.push_back(map.find(key * 7));
  for (uint32_t key = 1000; key < 1100; ++key) map[key] = key; // 100 new keys, as reserved
  for (uint32_t key = 0; key < 10; ++key) {
    CHECK(map.find(key * 7) == where[key]);
    CHECK(*where[key] == key);
  }
  CHECK(map.size() == 110);
}
