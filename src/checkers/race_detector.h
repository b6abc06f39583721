// The race detector: happens-before by vector clocks over global and shared memory.
//
// What orders two accesses (DESIGN "Diagnostics"; Programming Guide 10.5, 10.6, 10.14):
//  - program order;
//  - __syncthreads (and __syncwarp): every participant's later accesses follow every
//    participant's earlier ones;
//  - a fence, then a store (or atomic) read by another thread before that thread's own fence:
//    the writer's accesses before its fence precede the reader's after its fence, when both
//    fences' scopes include both threads (a block fence reaches only its own block).
// Two conflicting accesses (same location, at least one writes) not ordered so are a race,
// unless both are atomic or volatile with scopes covering both threads (volatile counts as
// system scope, PTX ISA 8.6). A second set of clocks treats every fence as device scope: a
// race that those clocks order is a *scoped* race (synchronization existed, its scope was too
// narrow), as is a pair of atomics whose scope does not cover both threads.
//
// Memory: clocks are shared per block until they differ (vector_clock.h), and in a grid of more
// than 4,096 threads only the threads of blocks that have started and not ended have a state
// (smaller grids keep a table of all of theirs), so a grid of a million threads is checked in
// memory proportional to its resident threads and the locations it touches.
#pragma once

#include "fencelab/checkers/report.h"
#include "fencelab/checkers/report_catalogue.h"
#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"
#include "fencelab/support/flat_map.h"
#include "fencelab/support/huge_pages.h"
#include "shadow_memory.h"
#include "vector_clock.h"

#include <array>
#include <memory>
#include <unordered_map>
#include <vector>

namespace fencelab {

class RaceDetector {
public:
  /** `track_read_only_buffers`: CheckerOptions::track_read_only_buffers. */
  explicit RaceDetector(const Program& program, bool track_read_only_buffers = false);

  /** Threads are indexed by 32 bits: a grid of more gets no race detection. */
  static constexpr uint64_t kMaxThreads = uint64_t(1) << 32;
  bool enabled() const { return m_enabled; }

  void begin_execution();
  void on_event(const Event& event, ReportCatalogue& catalogue);
  /** Starts loading the thread's state into the caches (EventObserver::prefetch_thread): at
   *  thousands of resident threads, finding it was a cache miss at nearly every access. */
  void prefetch_thread(ThreadId id) const;
  /** Starts loading a location's shadow cell (EventObserver::prefetch_location): a large
   *  grid's resident blocks touch more than the caches hold, and each access found its cell
   *  cold (a third of on_access's time in a perf profile of the 2^20-thread reduction).
   *  Inlined always, like ShadowMemory::prefetch, which says why. */
  [[gnu::always_inline]] void prefetch_location(Location location) const {
    if (m_enabled) m_shadow.prefetch(location);
  }
  /** The catalogue dropped its findings from `size` on (ReportCatalogue::discard_execution). */
  void forget_findings_from(uint32_t size);

private:
  /** A thread's view of every thread's clock. Its own entry, the same in both, is `own`; the
   *  shared clocks' entry for it is never read. */
  struct Clocks {
    VectorClock exact; ///< happens-before as the scopes allow
    VectorClock wide;  ///< as if every fence were device-scoped
    uint32_t own = 1;
    /** In a ThreadState: the block barrier whose clocks (BarrierClocks) the thread holds in
     *  place of `exact` and `wide`, which are then empty; 0: its own. 0 in a Release. (Here,
     *  in Clocks' padding, so that a ThreadState stays one cache line.) */
    uint32_t barrier_generation = 0;
  };
  /** A block's clocks after its latest __syncthreads. Every participant of a block barrier
   *  leaves it with the same clocks (apart from its own entry), so they are kept once, here,
   *  and each participant only notes the barrier's generation: a release costs no copy of a
   *  clock per participant (two shared-pointer copies each; the checkers' part of a barrier
   *  went from about 108 to 59 instructions a participant, callgrind, 256 x 256 reduction).
   *  A participant takes a copy of its own only where it changes them
   *  (a fence: materialize). A block barrier's participants are all the block's live threads
   *  (Machine::Impl::release_barrier releases when every thread not exited has arrived), so
   *  the next one replaces these clocks for all of their holders at once. */
  struct BarrierClocks {
    VectorClock exact;
    VectorClock wide;
    uint32_t generation = 0; ///< of the barrier that set them; 0: none
    uint32_t holders = 0;    ///< threads holding them (checked in debug builds)
  };
  /** The clocks a thread's accesses are checked against: its own, or its block's barrier's. */
  struct ClockView {
    const VectorClock& exact;
    const VectorClock& wide;
  };
  /** What a fence released: the clocks at the fence, for stores made after it. */
  struct Release {
    Clocks clocks;
    uint32_t thread; ///< dense index of the thread that fenced
    Scope scope;
    uint32_t block;
  };
  /** What an access was, apart from who made it and when: interned, so that shadow memory
   *  keeps an index (shadow_memory.h). The count of sites follows the source; the value a
   *  store wrote is kept in its shadow cell instead (same-value races). */
  struct Site {
    SourceRange range;
    EventKind kind = EventKind::Load;
    AccessMode mode = AccessMode::Plain;
    Scope scope = Scope::System;
    friend bool operator==(const Site&, const Site&) = default;
  };
  struct SiteHash {
    size_t operator()(const Site& s) const noexcept;
  };
  /** One cache line, aligned to one: at thousands of resident threads nearly every access
   *  finds its thread's state cold, and prefetch_thread loads one line. At 80 bytes (the
   *  pending list inline) every state straddled two lines, and for half of them the clock an
   *  access reads lay in the line not prefetched. */
  struct alignas(64) ThreadState {
    Clocks clocks;
    std::shared_ptr<const Release> last_fence;
    /** The fences read through stores since the last fence; made at the first such read (only
     *  kernels with fences have any) and kept, emptied, by reset. */
    std::unique_ptr<std::vector<std::shared_ptr<const Release>>> pending;
    /** As constructed, in place (a thread's first access in an execution). */
    void reset() {
      clocks.exact.clear();
      clocks.wide.clear();
      clocks.own = Clocks{}.own;
      clocks.barrier_generation = 0;
      last_fence.reset();
      if (pending) pending->clear();
    }
  };
  static_assert(sizeof(ThreadState) == 64);

  uint32_t index_of(ThreadId id) const;
  /** The thread's state, made when it first acts (small grids) or when its block starts.
   *  Valid until the next block starts. */
  ThreadState& state(ThreadId id) {
    if (!m_dense) return block_state(id.block, id.index_in_block());
    return dense_state(index_of(id));
  }
  /** A small grid's state of the thread with dense index `index` (made anew in a new execution). */
  ThreadState& dense_state(uint32_t index);
  /** A large grid's state of thread `in_block` of `block` (no division of a thread index). */
  ThreadState& block_state(uint32_t block, uint32_t in_block) {
    return m_block_states[size_t(chunk_of(block)) * m_threads_per_block + in_block];
  }
  /** A large grid's block: where its threads' states lie in m_block_states (the chunk is
   *  made by start_block if the block has none). */
  uint32_t chunk_of(uint32_t block) {
    const CachedChunk& cached = m_chunk_cache[block % kCachedChunks];
    return cached.block == block ? cached.chunk : chunk_of_uncached(block);
  }
  /** chunk_of where the cache does not hold the block (out of line: the cache nearly always does). */
  [[gnu::noinline]] uint32_t chunk_of_uncached(uint32_t block);
  /** A large grid's block starts: its threads get a chunk of fresh states. */
  uint32_t start_block(uint32_t block);
  /** An exited thread: its state goes (with its block's last thread, in a large grid). */
  void forget_thread(ThreadId id);
  /** `into` learns what `release` knew (joined, and the releasing thread's own entry). */
  void acquire(VectorClock& into, const VectorClock& from, const Release& release, uint32_t self) const;
  void on_access(const Event& event, ReportCatalogue& catalogue);
  void on_fence(const Event& event);
  void on_barrier(const Event& event);
  /** A block's __syncthreads: the participants' clocks joined into the block's BarrierClocks. */
  void on_block_barrier(const Event& event);
  /** A barrier's participants share a block. In a large grid their states lie side by side in
   *  its chunk, found once (this, which may make the chunk, is asked before any state is kept);
   *  a small grid's are looked up by thread (null). */
  ThreadState* block_states_of(uint32_t block) { return m_dense ? nullptr : &block_state(block, 0); }
  ThreadState& participant_state(ThreadState* block_states, ThreadId id) {
    return block_states ? block_states[id.index_in_block()] : state(id);
  }
  /** Their states lie apart (one cache miss each at thousands of resident threads): before the
   *  i-th of `count` participants is read, the one kBarrierPrefetchAhead later is prefetched
   *  (and at the first, the first ones), so that the misses overlap. */
  static constexpr size_t kBarrierPrefetchAhead = 8;
  void prefetch_participants_ahead(const ThreadState* block_states, const Event& event, size_t count, size_t i) const;
  /** The barrier clocks of `block` (a large grid's: of its chunk, made if it has none). */
  BarrierClocks& barrier_clocks(uint32_t block) {
    return m_dense ? m_dense_barrier_clocks[block] : m_chunk_barrier_clocks[chunk_of(block)];
  }
  /** The clocks thread `t` of `block` is checked against. */
  ClockView clocks_of(const ThreadState& t, uint32_t block);
  /** A thread holding its block's barrier clocks takes a copy of its own (to change them). */
  void materialize(ThreadState& t, uint32_t block);
  /** `same_value`: both accesses are stores that wrote the same value (a same-value race if
   *  they race). */
  void check_pair(const ClockView& clocks, const ShadowAccess& earlier, const ShadowAccess& now, uint32_t object,
                  uint32_t index, bool same_value, ReportCatalogue& catalogue);
  uint32_t site_of(const Event& event);
  /** The site's index in m_sites, added if new (site_of's slow path). */
  [[gnu::noinline]] uint32_t intern_site(const Site& site);
  ThreadId thread_of(uint32_t index) const;
  /** What decides a race report's identity (CheckReport::identity): its kind, whether both
   *  accesses were marked (the message's reason), the object, and the two sites. Met again, a
   *  race is only noted in the catalogue, not rendered. */
  struct RaceKey {
    DiagnosticKind kind;
    bool both_marked;
    uint32_t object;
    SourceRange first, second; ///< ordered by position
    friend bool operator==(const RaceKey&, const RaceKey&) = default;
  };
  struct RaceKeyHash {
    size_t operator()(const RaceKey& k) const noexcept;
  };
  std::string location_name(uint32_t object, uint32_t index) const;
  /** A race met for the first time: its report is rendered and added to the catalogue. Out of
   *  line, so that check_pair, run for every pair, stays small. */
  [[gnu::noinline]] uint32_t report_race(const RaceKey& key, const ShadowAccess& earlier, const ShadowAccess& now,
                                     uint32_t object, uint32_t index, ReportCatalogue& catalogue);

  const Program& m_program;
  bool m_enabled = true;
  /** By memory object: a buffer no kernel code can write (see the constructor), whose
   *  accesses are not tracked. */
  std::vector<bool> m_read_only;
  uint32_t m_threads_per_block = 1;
  /** Threads' states. A grid of up to kDenseThreads threads keeps one per thread in a table,
   *  stamped with the execution it belongs to, so that a thread's first event and its exit
   *  cost no hashing. A larger one keeps a chunk of states per block that has started and not
   *  ended (memory bounded by the resident blocks): a block's threads' states lie side by
   *  side, as its barriers visit them, and finding one is a lookup of its block (cached: the
   *  resident blocks are few) rather than of the thread. */
  static constexpr uint64_t kDenseThreads = 4096;
  bool m_dense = false;
  std::vector<ThreadState> m_dense_states;
  std::vector<uint64_t> m_dense_epochs; ///< the execution each state is of (0: none)
  uint64_t m_epoch = 1;
  std::vector<BarrierClocks> m_dense_barrier_clocks; ///< a small grid's, by block
  std::vector<ThreadState, HugePageAllocator<ThreadState>> m_block_states; ///< chunks of m_threads_per_block states
  std::vector<BarrierClocks> m_chunk_barrier_clocks; ///< a large grid's, by chunk
  /** The next block barrier's generation (unique within an execution; threads' states and
   *  their blocks' barrier clocks begin each execution anew). */
  uint32_t m_next_generation = 1;
  FlatMap<uint32_t, uint32_t> m_block_chunks; ///< block (linear index) -> its chunk
  std::vector<uint32_t> m_chunk_live;         ///< by chunk: its block's threads not exited
  std::vector<uint32_t> m_free_chunks;
  /** Blocks' chunks by block % kCachedChunks, in front of m_block_chunks (chunk_of): the
   *  resident blocks, whose events come in random order, are few and have nearby indexes, so
   *  nearly every lookup is answered here; the one-entry cache it replaced missed at most
   *  events of a large grid, and the hash lookup cost 49 instructions an access (callgrind). */
  static constexpr uint32_t kNoBlock = ~0u;
  static constexpr uint32_t kCachedChunks = 256;
  struct CachedChunk {
    uint32_t block = kNoBlock;
    uint32_t chunk = 0;
  };
  std::array<CachedChunk, kCachedChunks> m_chunk_cache{};
  /** The chunk of a block that has one, or null. */
  const uint32_t* find_chunk(uint32_t block) const {
    const CachedChunk& cached = m_chunk_cache[block % kCachedChunks];
    return cached.block == block ? &cached.chunk : m_block_chunks.find(block);
  }
  /** on_barrier's buffers, kept between barriers. */
  std::vector<ThreadState*> m_barrier_states;
  std::vector<std::pair<uint32_t, uint32_t>> m_barrier_owns;
  ShadowMemory m_shadow;
  std::vector<Site> m_sites;
  std::unordered_map<Site, uint32_t, SiteHash> m_site_index;
  static constexpr size_t kRecentSites = 64;
  /** By a hash of range and kind: 1 + a site index met there lately (0: none). */
  std::array<uint32_t, kRecentSites> m_recent_sites{};
  /** By store id: the fences a reader of that store can acquire. A store made after a fence
   *  carries that fence; an atomic read-modify-write also carries those of the store it read,
   *  so a chain of atomics on a counter passes every release along (the release sequence:
   *  PTX ISA, Memory Consistency Model, "Release and acquire patterns"; C++ [intro.races]).
   *  At most one per thread and scope, its latest (a thread's clocks only grow). */
  using Releases = std::vector<std::shared_ptr<const Release>>;
  std::unordered_map<uint64_t, Releases> m_releases;
  std::unordered_map<RaceKey, uint32_t, RaceKeyHash> m_known; ///< rendered races: catalogue index
  /** A direct-mapped cache in front of m_known, by the two accesses' sites: a kernel races at
   *  a few site pairs, met again in every execution. */
  struct RecentRace {
    uint32_t earlier_site = 0, now_site = 0, object = 0;
    DiagnosticKind kind = DiagnosticKind::DataRace;
    uint32_t catalogue_index = 0; ///< 1 + the catalogue index (0: empty)
  };
  static constexpr size_t kRecentRaces = 64;
  std::array<RecentRace, kRecentRaces> m_recent_races{};
};

} // namespace fencelab
