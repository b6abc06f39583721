// The gpu model's histories (gpu_model.h): every location's stores in coherence order.
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/ids.h"
#include "fencelab/machine/location.h"
#include "fencelab/support/huge_pages.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace fencelab {

/** One store in a location's history. */
struct HistoryEntry {
  Word value = 0;
  uint64_t id = 0; ///< the store's id (store_ids.h); 0 for the initial value
  ThreadId writer;
  bool initial = false; ///< the value the location held at kernel start
  uint32_t commuting_kind = 0; ///< written by a commuting update (AtomicUpdate::commuting_kind)
};

/** Every location's history in coherence order; entry 0 is the initial value. */
class Histories {
public:
  void clear();
  void init_instance(uint32_t instance, std::span<const Word> initial);
  uint32_t size(Location location) const {
    const LocationStores* stores = find(location);
    return 1 + (stores == nullptr ? 0 : stores->count);
  }
  HistoryEntry entry(Location location, uint32_t index) const;
  /** Starts loading what a load of `location` reads first into the caches: its initial value
   *  and, in a small instance, its stores (a large instance's are found by hashing). Inlined
   *  always, like ShadowMemory::prefetch, which says why. */
  [[gnu::always_inline]] void prefetch(Location location) const {
    if (location.instance >= m_initial.size()) return;
    const auto& initial = m_initial[location.instance];
    if (location.index < initial.size()) __builtin_prefetch(&initial[location.index]);
    if (location.instance < m_stores.size() && m_stores[location.instance].dense &&
        location.index < m_stores[location.instance].by_index.size())
      __builtin_prefetch(&m_stores[location.instance].by_index[location.index]);
  }
  /** Appends a store; returns its index. */
  uint32_t append(Location location, Word value, uint64_t id, ThreadId writer, uint32_t commuting_kind = 0);

private:
  /**
   * One location's stores after the initial value. The newest is kept inline, beside the
   * count: a load reads the count and then, nearly always, the newest entry (after a barrier's
   * join a participant can read only the newest of what its block stored before it), and a
   * block's shared locations are cold at a large grid's loads. With every store in a heap vector of its own, a load waited for two
   * misses one after the other, the vector's header and then its entries (8% of the 2^20
   * reduction's time under gpu, in a perf profile); now one line holds both.
   */
  struct alignas(64) LocationStores {
    Word newest_value = 0;
    uint64_t newest_id = 0;
    ThreadId newest_writer;
    uint32_t newest_commuting_kind = 0;
    uint32_t count = 0;                ///< stores, the newest included
    std::vector<HistoryEntry> older;   ///< the stores before the newest, oldest first
    /** The newest store as an entry (meaningful where count > 0). Its fields are kept apart,
     *  not as a HistoryEntry, so that the record fits one line. */
    HistoryEntry newest() const {
      return HistoryEntry{newest_value, newest_id, newest_writer, false, newest_commuting_kind};
    }
    void clear() {
      count = 0;
      older.clear(); // keeps its memory for the next execution
    }
  };
  static_assert(sizeof(LocationStores) == 64, "one cache line per location");
  /** Instances of at most this many elements keep a history per element in a vector; larger
   *  ones only for the elements written, in a hash map (a 2^20-element array would otherwise
   *  hold 64 MiB of empty histories). */
  static constexpr size_t kDenseElements = 256;
  /** One instance's entries after the initial. By instance, so that a new block's shared
   *  memory is reset without visiting every other location's history. */
  struct InstanceStores {
    bool dense = false;
    std::vector<LocationStores> by_index;                  ///< when dense
    std::unordered_map<uint32_t, LocationStores> written;  ///< otherwise
    /** Empties every history, keeping the entries' memory for the next execution (a litmus
     *  run appends to the same few locations hundreds of thousands of times). */
    void empty();
    const LocationStores* find(uint32_t index) const;
    LocationStores& at(uint32_t index) { return dense ? by_index[index] : written[index]; }
  };
  const LocationStores* find(Location location) const {
    return location.instance < m_stores.size() ? m_stores[location.instance].find(location.index) : nullptr;
  }
  /** Per instance; a large input on huge pages (huge_pages.h). */
  std::vector<std::vector<Word, HugePageAllocator<Word>>> m_initial;
  std::vector<InstanceStores> m_stores;
};

} // namespace fencelab
