// Property tests of the models' core structures against plain oracles, over random operation
// sequences: the store buffer against a list, views against a map, histories against a list
// per location.
#include "fencelab/explore/exploration.h"
#include "models/histories.h"
#include "models/store_buffer.h"
#include "models/view.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <list>
#include <map>

using namespace fencelab;

namespace {

Location random_location(SplitMix64& random) { return Location{random.below(3), random.below(4)}; }

/** The oracle's drainable stores: FIFO: the oldest; per location: the oldest of each location. */
std::vector<BufferedStore> oracle_drainable(const std::list<BufferedStore>& oracle, DrainOrder order) {
  std::vector<BufferedStore> out;
  for (const BufferedStore& s : oracle) {
    if (order == DrainOrder::Fifo && !out.empty()) break;
    const bool seen = std::any_of(out.begin(), out.end(), [&s](const BufferedStore& o) { return o.location == s.location; });
    if (!seen) out.push_back(s);
  }
  return out;
}

} // namespace

TEST_CASE("the store buffer behaves as a list of pending stores", "[models][property]") {
  for (const DrainOrder order : {DrainOrder::Fifo, DrainOrder::PerLocation}) {
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      SplitMix64 random(seed);
      StoreBuffer buffer;
      std::list<BufferedStore> oracle;
      std::vector<uint32_t> positions;
      for (int step = 0; step < 60; ++step) {
        const uint32_t action = random.below(4);
        if (action <= 1) {
          const BufferedStore s{random_location(random), random.next() % 100};
          buffer.push(s.location, s.value);
          oracle.push_back(s);
        } else if (action == 2 && !oracle.empty()) {
          // Drain a random drainable store; it must be one the oracle allows.
          buffer.drainable(order, positions);
          const auto allowed = oracle_drainable(oracle, order);
          REQUIRE(positions.size() == allowed.size());
          const uint32_t pick = random.below(uint32_t(positions.size()));
          const BufferedStore taken = buffer.take(positions[pick]);
          const auto it = std::find(oracle.begin(), oracle.end(), taken);
          REQUIRE(it != oracle.end());
          CHECK(std::find(allowed.begin(), allowed.end(), taken) != allowed.end());
          oracle.erase(it);
        } else if (action == 3) {
          // A load by the owner sees its newest buffered store to the location.
          const Location l = random_location(random);
          std::optional<Word> expected;
          for (const BufferedStore& s : oracle)
            if (s.location == l) expected = s.value;
          CHECK(buffer.newest(l) == expected);
        }
        REQUIRE(buffer.size() == oracle.size());
        CHECK(std::equal(buffer.entries().begin(), buffer.entries().end(), oracle.begin()));
      }
      // Draining one location keeps the others in program order.
      const Location l = random_location(random);
      std::vector<BufferedStore> drained;
      buffer.take_all(drained, l);
      std::vector<BufferedStore> expected_drained;
      for (auto it = oracle.begin(); it != oracle.end();) {
        if (it->location == l) {
          expected_drained.push_back(*it);
          it = oracle.erase(it);
        } else {
          ++it;
        }
      }
      CHECK(drained == expected_drained);
      CHECK(std::equal(buffer.entries().begin(), buffer.entries().end(), oracle.begin(), oracle.end()));
    }
  }
}

TEST_CASE("views behave as a map from location to the oldest readable entry", "[models][property]") {
  // Raises, joins both ways, sharing (View::share) and copies, as barriers and fences use them:
  // whatever base the views share, each reads as its own map.
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    SplitMix64 random(seed);
    View a, b;
    std::map<uint64_t, uint32_t> oracle_a, oracle_b;
    auto raise = [](View& v, std::map<uint64_t, uint32_t>& m, Location l, uint32_t i) {
      v.raise(l, i);
      if (i > 0) m[l.key()] = std::max(m[l.key()], i);
    };
    auto join = [](View& into, std::map<uint64_t, uint32_t>& m, const View& from, const std::map<uint64_t, uint32_t>& n) {
      into.join(from);
      for (const auto& [key, index] : n) m[key] = std::max(m[key], index);
    };
    auto matches = [](const View& v, const std::map<uint64_t, uint32_t>& m) {
      const View::Entries entries = v.entries();
      return std::equal(entries.begin(), entries.end(), m.begin(), m.end(),
                        [](const auto& x, const auto& y) { return x.first == y.first && x.second == y.second; });
    };
    for (int step = 0; step < 80; ++step) {
      const Location l = random_location(random);
      switch (random.below(8)) {
      case 0: raise(a, oracle_a, l, random.below(6)); break;
      case 1: raise(b, oracle_b, l, random.below(6)); break;
      case 2: join(a, oracle_a, b, oracle_b); break;
      case 3: join(b, oracle_b, a, oracle_a); break;
      case 4: a.share(); break;
      case 5: // a barrier: both get the join, sharing it
        join(a, oracle_a, b, oracle_b);
        a.share();
        b = a;
        oracle_b = oracle_a;
        break;
      case 6: {
        const auto it = oracle_b.find(l.key());
        CHECK(b.get(l) == (it == oracle_b.end() ? 0 : it->second));
        break;
      }
      default: {
        const auto it = oracle_a.find(l.key());
        CHECK(a.get(l) == (it == oracle_a.end() ? 0 : it->second));
      }
      }
      CHECK(a.empty() == oracle_a.empty());
      CHECK(matches(a, oracle_a));
      CHECK(matches(b, oracle_b));
    }
  }
}

TEST_CASE("joining many views at once gives the sequential joins' map", "[models][property]") {
  // View::join_all (a barrier's join of a block's views) against joining one by one, with views
  // that share a base (since their last barrier), have bases of their own, or are empty.
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    SplitMix64 random(seed);
    std::vector<View> views(1 + random.below(6));
    for (int round = 0; round < 6; ++round) {
      for (int step = 0; step < 12; ++step) {
        View& v = views[random.below(static_cast<uint32_t>(views.size()))];
        switch (random.below(6)) {
        case 0: v.share(); break;
        case 1: v.join(views[random.below(static_cast<uint32_t>(views.size()))]); break;
        default: v.raise(random_location(random), random.below(6));
        }
      }
      std::vector<const View*> pointers;
      for (const View& v : views) pointers.push_back(&v);
      View at_once, one_by_one;
      if (random.below(2) == 0) { // into a view that already holds something
        at_once = views.back();
        one_by_one = views.back();
      }
      at_once.join_all(pointers);
      for (const View& v : views) one_by_one.join(v);
      CHECK(at_once.entries() == one_by_one.entries());
      CHECK(at_once.empty() == one_by_one.empty());
      // The barrier: every participant gets the joined view, shared.
      at_once.share();
      for (View& v : views) v = at_once;
    }
  }
}

TEST_CASE("histories keep every location's stores in order from one execution to the next", "[models][property]") {
  // Instance 0 is small (a history per element, the newest inline), instance 1 past
  // Histories' dense limit (histories only for the elements written); each execution starts
  // them afresh with new initial values, as a new block's shared memory does.
  const std::vector<uint32_t> sizes{4, 300};
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    SplitMix64 random(seed);
    Histories histories;
    for (int execution = 0; execution < 3; ++execution) {
      histories.clear();
      std::map<std::pair<uint32_t, uint32_t>, std::vector<HistoryEntry>> oracle;
      for (uint32_t instance = 0; instance < sizes.size(); ++instance) {
        std::vector<Word> initial(sizes[instance]);
        for (uint32_t index = 0; index < sizes[instance]; ++index) {
          initial[index] = random.next() % 1000;
          oracle[{instance, index}] = {HistoryEntry{initial[index], 0, ThreadId{}, true}};
        }
        histories.init_instance(instance, initial);
      }
      for (int step = 0; step < 80; ++step) {
        const uint32_t instance = random.below(2);
        const Location l{instance, random.below(instance == 0 ? 4 : 6) * (instance == 0 ? 1 : 50)};
        std::vector<HistoryEntry>& expected = oracle[{l.instance, l.index}];
        if (random.below(2) == 0) {
          const HistoryEntry e{random.next() % 1000, uint64_t(step + 1), ThreadId{random.below(4), 0, random.below(32)},
                               false, random.below(3)};
          REQUIRE(histories.append(l, e.value, e.id, e.writer, e.commuting_kind) == expected.size());
          expected.push_back(e);
        }
        REQUIRE(histories.size(l) == expected.size());
        for (uint32_t i = 0; i < expected.size(); ++i) {
          const HistoryEntry got = histories.entry(l, i);
          CHECK(got.value == expected[i].value);
          CHECK(got.id == expected[i].id);
          CHECK(got.writer == expected[i].writer);
          CHECK(got.initial == expected[i].initial);
          CHECK(got.commuting_kind == expected[i].commuting_kind);
        }
      }
    }
  }
}
