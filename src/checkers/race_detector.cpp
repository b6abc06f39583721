#include "race_detector.h"

#include <algorithm>
#include <cassert>
#include <fmt/format.h>

namespace fencelab {

namespace {

/** Whether an operation of `scope` by a thread of block `a` reaches a thread of block `b`. */
bool covers(Scope scope, uint32_t a, uint32_t b) { return scope != Scope::Block || a == b; }

const char* access_role(EventKind kind) {
  return kind == EventKind::Load ? "read" : kind == EventKind::Store ? "write" : "atomic";
}

bool writes(EventKind kind) { return kind != EventKind::Load; }

/** The scope a non-plain access synchronizes at: an atomic's own; volatile counts as system
 *  (PTX ISA 8.6: volatile is relaxed with .sys scope). */
Scope effective_scope(AccessMode mode, Scope scope) { return mode == AccessMode::Atomic ? scope : Scope::System; }

} // namespace

RaceDetector::RaceDetector(const Program& program, bool track_read_only_buffers) : m_program(program) {
  m_threads_per_block = static_cast<uint32_t>(program.launch.block.total());
  const uint64_t threads = program.launch.grid.total() * program.launch.block.total();
  m_enabled = threads < kMaxThreads;
  m_dense = threads <= kDenseThreads;
  if (m_dense) {
    m_dense_states.resize(threads);
    m_dense_epochs.assign(threads, 0);
    m_dense_barrier_clocks.resize(program.launch.grid.total());
  }
  // A buffer reached only through a `const T*` parameter is never written: sema refuses every
  // store, atomic and implicit conversion that would write through a pointer to const, each
  // buffer is bound to one parameter, and only a cast can make such a pointer writable (the
  // unit says whether one does). No access to it can be half of a race, and its reads need no
  // shadow memory (a 2^20-element input spent 36 MiB on it, and a cache miss at every read).
  // An uninitialized one is still watched, for its reads of uninitialized elements.
  m_read_only.assign(program.memory_objects.size(), false);
  if (!program.unit.casts_away_const && !track_read_only_buffers) {
    for (const KernelArgument& argument : program.arguments) {
      const Type& type = argument.parameter->type;
      if (argument.buffer_object && type.pointer_depth == 1 && type.pointee_const &&
          program.memory_objects[*argument.buffer_object].initialized)
        m_read_only[*argument.buffer_object] = true;
    }
  }
}

void RaceDetector::begin_execution() {
  m_next_generation = 1;
  if (m_dense) {
    ++m_epoch; // every state reads as new
    for (BarrierClocks& clocks : m_dense_barrier_clocks) clocks = BarrierClocks{};
  } else {
    // Every chunk is free again; start_block resets a chunk's states when it is taken.
    m_block_chunks.clear();
    m_free_chunks.clear();
    for (uint32_t chunk = static_cast<uint32_t>(m_chunk_live.size()); chunk-- > 0;) m_free_chunks.push_back(chunk);
    m_chunk_cache.fill(CachedChunk{});
  }
  m_shadow.begin_execution();
  if (!m_releases.empty()) m_releases.clear(); // clear() zeroes every bucket even when empty
}

void RaceDetector::forget_findings_from(uint32_t size) {
  std::erase_if(m_known, [size](const auto& item) { return item.second >= size; });
  for (RecentRace& recent : m_recent_races)
    if (recent.catalogue_index > size) recent.catalogue_index = 0;
}

size_t RaceDetector::RaceKeyHash::operator()(const RaceKey& k) const noexcept {
  uint64_t h = (uint64_t(k.object) << 9) ^ (uint64_t(k.kind) << 1) ^ uint64_t(k.both_marked);
  for (uint32_t x : {k.first.begin, k.first.end, k.second.begin, k.second.end}) h = (h ^ x) * 0x9e3779b97f4a7c15ull;
  return size_t(h ^ (h >> 29));
}

size_t RaceDetector::SiteHash::operator()(const Site& s) const noexcept {
  uint64_t h = (uint64_t(s.range.begin) << 32 | s.range.end) * 0x9e3779b97f4a7c15ull;
  h = (h ^ (uint64_t(s.kind) | uint64_t(s.mode) << 8 | uint64_t(s.scope) << 16)) * 0x9e3779b97f4a7c15ull;
  return size_t(h ^ (h >> 29));
}

uint32_t RaceDetector::index_of(ThreadId id) const {
  return id.block * m_threads_per_block + id.index_in_block();
}

ThreadId RaceDetector::thread_of(uint32_t index) const {
  const auto [block, in_block] = split_thread_index(index, m_threads_per_block);
  return ThreadId{block, in_block / kWarpSize, in_block % kWarpSize};
}

uint32_t RaceDetector::site_of(const Event& event) {
  // A direct-mapped cache in front of the table: a kernel's accesses come from a few sites.
  // Compared field by field: building a Site to compare cost a quarter of the lookup. The
  // mode and the scope are not compared one right after the other: GCC then reads the two
  // bytes as one 16-bit load, which the Machine has just written as two byte stores
  // (access_event); a load that spans two stores is not forwarded from them and waits for
  // both to reach the cache (a sixth of the detector's time in the 2^20 reduction, perf).
  auto& cached = m_recent_sites[(event.range.begin * 7 + event.range.end + uint32_t(event.kind)) % kRecentSites];
  if (cached != 0) {
    const Site& s = m_sites[cached - 1];
    if (s.mode == event.mode && s.range == event.range && s.scope == event.scope && s.kind == event.kind)
      return cached - 1;
  }
  cached = 1 + intern_site(Site{event.range, event.kind, event.mode, event.scope});
  return cached - 1;
}

uint32_t RaceDetector::intern_site(const Site& site) {
  const auto [it, inserted] = m_site_index.try_emplace(site, static_cast<uint32_t>(m_sites.size()));
  if (inserted) m_sites.push_back(site);
  return it->second;
}

void RaceDetector::prefetch_thread(ThreadId id) const {
  if (!m_enabled) return;
  if (m_dense) {
    const uint32_t index = index_of(id);
    __builtin_prefetch(&m_dense_states[index]);
    __builtin_prefetch(&m_dense_epochs[index]);
  } else {
    const uint32_t* chunk = find_chunk(id.block);
    if (chunk) __builtin_prefetch(&m_block_states[size_t(*chunk) * m_threads_per_block + id.index_in_block()]);
  }
}

RaceDetector::ThreadState& RaceDetector::dense_state(uint32_t index) {
  ThreadState& state = m_dense_states[index];
  if (m_dense_epochs[index] != m_epoch) {
    state.reset();
    m_dense_epochs[index] = m_epoch;
  }
  return state;
}

uint32_t RaceDetector::chunk_of_uncached(uint32_t block) {
  const uint32_t* found = m_block_chunks.find(block);
  // A block's start makes its chunk (on_event, BlockStart); a thread acting without one gets
  // it here.
  const uint32_t chunk = found ? *found : start_block(block);
  m_chunk_cache[block % kCachedChunks] = CachedChunk{block, chunk};
  return chunk;
}

uint32_t RaceDetector::start_block(uint32_t block) {
  uint32_t chunk;
  if (!m_free_chunks.empty()) {
    chunk = m_free_chunks.back();
    m_free_chunks.pop_back();
  } else {
    chunk = static_cast<uint32_t>(m_chunk_live.size());
    m_chunk_live.push_back(0);
    m_block_states.resize(m_chunk_live.size() * m_threads_per_block);
    m_chunk_barrier_clocks.resize(m_chunk_live.size());
  }
  for (uint32_t i = 0; i < m_threads_per_block; ++i) m_block_states[size_t(chunk) * m_threads_per_block + i].reset();
  m_chunk_barrier_clocks[chunk] = BarrierClocks{};
  m_chunk_live[chunk] = m_threads_per_block;
  m_block_chunks[block] = chunk;
  m_chunk_cache[block % kCachedChunks] = CachedChunk{block, chunk};
  return chunk;
}

void RaceDetector::forget_thread(ThreadId id) {
#ifndef NDEBUG
  if (ThreadState& t = state(id); t.clocks.barrier_generation != 0) --barrier_clocks(id.block).holders;
#endif
  const uint32_t index = index_of(id);
  if (m_dense) {
    m_dense_epochs[index] = 0; // a thread index does not come back within an execution
    return;
  }
  const uint32_t* chunk = find_chunk(id.block);
  if (!chunk || --m_chunk_live[*chunk] != 0) return;
  // The block's last thread: its chunk is free (its states are reset when it is taken again).
  m_free_chunks.push_back(*chunk);
  m_block_chunks.erase(id.block);
  if (m_chunk_cache[id.block % kCachedChunks].block == id.block) m_chunk_cache[id.block % kCachedChunks] = CachedChunk{};
}

void RaceDetector::acquire(VectorClock& into, const VectorClock& from, const Release& release, uint32_t self) const {
  into.join(from);
  if (release.thread == self) return; // its own entry is `own`, already past the fence
  const auto [block, in_block] = split_thread_index(release.thread, m_threads_per_block);
  const std::pair<uint32_t, uint32_t> entry{in_block, release.clocks.own};
  into.raise(block, std::span(&entry, 1), m_threads_per_block);
}

RaceDetector::ClockView RaceDetector::clocks_of(const ThreadState& t, uint32_t block) {
  if (t.clocks.barrier_generation == 0) return {t.clocks.exact, t.clocks.wide};
  const BarrierClocks& shared = barrier_clocks(block);
  assert(shared.generation == t.clocks.barrier_generation && "a block barrier left out a live thread");
  return {shared.exact, shared.wide};
}

void RaceDetector::materialize(ThreadState& t, uint32_t block) {
  if (t.clocks.barrier_generation == 0) return;
  BarrierClocks& shared = barrier_clocks(block);
  assert(shared.generation == t.clocks.barrier_generation && "a block barrier left out a live thread");
  t.clocks.exact = shared.exact;
  t.clocks.wide = shared.wide;
  t.clocks.barrier_generation = 0;
#ifndef NDEBUG
  --shared.holders;
#endif
}

std::string RaceDetector::location_name(uint32_t object, uint32_t index) const {
  const MemoryObject& o = m_program.memory_objects[object];
  return o.is_array ? fmt::format("{}[{}]", o.name, index) : o.name;
}

void RaceDetector::on_event(const Event& event, ReportCatalogue& catalogue) {
  if (!m_enabled) return;
  switch (event.kind) {
  case EventKind::Load:
  case EventKind::Store:
  case EventKind::Atomic: on_access(event, catalogue); break;
  case EventKind::Fence: on_fence(event); break;
  case EventKind::BarrierRelease: on_barrier(event); break;
  case EventKind::ThreadExit: forget_thread(event.thread); break;
  case EventKind::BlockStart:
    if (!m_dense && !m_block_chunks.find(event.thread.block)) start_block(event.thread.block);
    // A new block's shared memory: nothing it holds was written by this block. Only the
    // locations of its instances are visited (a grid of 4,096 blocks scanned every location
    // at each block start).
    for (uint32_t instance = event.first_instance; instance < event.first_instance + event.instance_count; ++instance) {
      m_shadow.reset_instance(instance);
    }
    break;
  default: break;
  }
}

// Fence: first acquire what was read through stores made after other threads' fences, then
// release: stores made after this fence carry this thread's clocks.
void RaceDetector::on_fence(const Event& event) {
  ThreadState& t = state(event.thread);
  materialize(t, event.thread.block); // it changes its clocks, and its Release copies them
  const uint32_t self = index_of(event.thread);
  if (t.pending) {
    for (const auto& release : *t.pending) {
      if (covers(release->scope, release->block, event.thread.block) &&
          covers(event.scope, event.thread.block, release->block))
        acquire(t.clocks.exact, release->clocks.exact, *release, self);
      acquire(t.clocks.wide, release->clocks.wide, *release, self);
    }
    t.pending->clear();
  }
  t.last_fence = std::make_shared<const Release>(Release{t.clocks, self, event.scope, event.thread.block});
  ++t.clocks.own;
}

void RaceDetector::prefetch_participants_ahead(const ThreadState* block_states, const Event& event, size_t count,
                                               size_t i) const {
  const auto prefetch = [&](size_t j) {
    const ThreadId id = event.waiting[j].first;
    if (block_states) __builtin_prefetch(&block_states[id.index_in_block()]);
    else prefetch_thread(id);
  };
  if (i == 0)
    for (size_t j = 0; j < std::min(kBarrierPrefetchAhead, count); ++j) prefetch(j);
  if (i + kBarrierPrefetchAhead < count) prefetch(i + kBarrierPrefetchAhead);
}

// A barrier: every participant's later accesses follow every participant's earlier ones. The
// participants (one block's threads, or a warp's) end with one shared clock and their own
// entries one past what the others now know of them. A block's barrier keeps that clock once,
// for all of them (on_block_barrier); a warp's gives each participant a copy.
void RaceDetector::on_barrier(const Event& event) {
  if (event.waiting.empty()) return;
  if (event.warp_mask == 0 && m_next_generation != ~0u) return on_block_barrier(event);
  // Each participant's state is looked up once. The participants share a block, so only the
  // first lookup can make room (a chunk for a block that has none), before any pointer is
  // kept; the table of a small grid never moves.
  m_barrier_states.clear();
  m_barrier_owns.clear(); // (index in the block, own entry)
  ThreadState* const block_states = block_states_of(event.waiting.front().first.block);
  const size_t count = event.waiting.size(); // once: an entry is 20 bytes (see release_barrier)
  for (size_t i = 0; i < count; ++i) {
    prefetch_participants_ahead(block_states, event, count, i);
    const ThreadId id = event.waiting[i].first;
    m_barrier_states.push_back(&participant_state(block_states, id));
    materialize(*m_barrier_states.back(), id.block); // a warp's participants leave their block's clocks
    m_barrier_owns.emplace_back(id.index_in_block(), m_barrier_states.back()->clocks.own);
  }
  Clocks joined = m_barrier_states.front()->clocks;
  for (const ThreadState* t : m_barrier_states) {
    joined.exact.join(t->clocks.exact);
    joined.wide.join(t->clocks.wide);
  }
  const uint32_t block = event.waiting.front().first.block; // a barrier's threads share a block
  // Without fences the two clocks are one (shared chunks): raised once, still shared.
  const bool one_clock = joined.exact.shares_chunks(joined.wide);
  joined.exact.raise(block, m_barrier_owns, m_threads_per_block);
  if (one_clock) joined.wide = joined.exact;
  else joined.wide.raise(block, m_barrier_owns, m_threads_per_block);
  for (ThreadState* state : m_barrier_states) {
    ThreadState& t = *state;
    t.clocks.exact = joined.exact;
    t.clocks.wide = joined.wide;
    ++t.clocks.own;
  }
}

void RaceDetector::on_block_barrier(const Event& event) {
  const uint32_t block = event.waiting.front().first.block; // a barrier's threads share a block
  // Found first: in a large grid this may make the block's chunk, before any state is looked up.
  BarrierClocks& shared = barrier_clocks(block);
  ThreadState* const block_states = block_states_of(block);
  // The participants' own entries, and how many hold the block's clocks rather than their own
  // (a block's first barrier, or a fence since).
  const size_t count = event.waiting.size();
  m_barrier_owns.clear(); // (index in the block, own entry)
  uint32_t holding = 0;
  for (size_t i = 0; i < count; ++i) {
    prefetch_participants_ahead(block_states, event, count, i);
    const ThreadId id = event.waiting[i].first;
    const ThreadState& t = participant_state(block_states, id);
    m_barrier_owns.emplace_back(id.index_in_block(), t.clocks.own);
    if (t.clocks.barrier_generation != 0) ++holding;
  }
  assert(holding == shared.holders && "a block barrier left out a live thread holding its block's clocks");
  // The join: the block's clocks where any participant holds them (no other thread can: every
  // live thread of the block participates), and the others' own. Held by no thread and no
  // Release, the block's clocks are raised in place, without a copy.
  if (holding == 0) {
    shared.exact.clear();
    shared.wide.clear();
  }
  if (holding < count) {
    for (const auto& [id, range] : event.waiting) {
      const ThreadState& t = participant_state(block_states, id);
      if (t.clocks.barrier_generation != 0) continue;
      shared.exact.join(t.clocks.exact);
      shared.wide.join(t.clocks.wide);
    }
  }
  // Without fences the two clocks are one (shared chunks): raised once, still shared.
  if (shared.exact.shares_chunks(shared.wide)) {
    shared.wide.clear();
    shared.exact.raise(block, m_barrier_owns, m_threads_per_block);
    shared.wide = shared.exact;
  } else {
    shared.exact.raise(block, m_barrier_owns, m_threads_per_block);
    shared.wide.raise(block, m_barrier_owns, m_threads_per_block);
  }
  shared.generation = m_next_generation++;
  shared.holders = static_cast<uint32_t>(count);
  for (const auto& [id, range] : event.waiting) {
    ThreadState& t = participant_state(block_states, id);
    if (t.clocks.barrier_generation == 0) { // its own, joined above: no longer needed
      t.clocks.exact.clear();
      t.clocks.wide.clear();
    }
    t.clocks.barrier_generation = shared.generation;
    ++t.clocks.own;
  }
}

void RaceDetector::on_access(const Event& event, ReportCatalogue& catalogue) {
  assert(!(writes(event.kind) && m_read_only[event.object]) && "a write to a buffer sema keeps read-only");
  if (m_read_only[event.object]) return;
  ThreadState& t = state(event.thread);
  const uint32_t self = index_of(event.thread);
  // Reads-from: reading a store made after a fence lets this thread's next fence acquire.
  const Releases* read_releases = nullptr;
  if (event.kind != EventKind::Store && event.read_from != 0 && !m_releases.empty()) {
    const auto it = m_releases.find(event.read_from);
    if (it != m_releases.end()) {
      read_releases = &it->second;
      if (!t.pending) t.pending = std::make_unique<Releases>();
      Releases& pending = *t.pending;
      for (const auto& release : it->second) // a spin loop reads the same store again and again
        if (std::find(pending.begin(), pending.end(), release) == pending.end()) pending.push_back(release);
    }
  }
  if (writes(event.kind) && (t.last_fence || (event.kind == EventKind::Atomic && read_releases))) {
    Releases carried;
    if (event.kind == EventKind::Atomic && read_releases) carried = *read_releases;
    if (t.last_fence) {
      // The thread's own latest fence replaces any earlier one of its at that scope.
      std::erase_if(carried, [&](const auto& r) { return r->thread == self && r->scope == t.last_fence->scope; });
      carried.push_back(t.last_fence);
    }
    if (!carried.empty()) m_releases[event.store_id] = std::move(carried);
  }

  const ShadowAccess now{self, t.clocks.own, site_of(event)};
  const MemoryObject& object = m_program.memory_objects[event.object];
  ShadowCell& cell = m_shadow.cell(event.location, object.element_count);
  const ShadowExtra* extra = m_shadow.find_extra(cell);
  const bool commuting = event.commuting_kind != 0 &&
                         (!extra || extra->updates.empty() || cell.update_kind == event.commuting_kind);
  // A commuting update is reported at its own site whichever of them came first (their order
  // is explored once), so it is not held back by the once-per-location flag.
  if (event.kind != EventKind::Store && !object.initialized && !cell.has_write &&
      (commuting || !cell.uninitialized_reported)) {
    cell.uninitialized_reported = true;
    CheckReport r;
    r.kind = DiagnosticKind::UninitializedRead;
    r.message = fmt::format("read of uninitialized {}", location_name(event.object, event.location.index));
    r.sites.push_back({access_role(event.kind), event.range, event.thread.to_string()});
    catalogue.add(std::move(r));
  }
  const auto check_other = [&](const ShadowAccess& earlier, bool same_value) {
    if (earlier.thread != self)
      check_pair(clocks_of(t, event.thread.block), earlier, now, event.object, event.location.index, same_value,
                 catalogue);
  };
  // Two plain stores that wrote equal values (the value, not how the source spells it: `= 2`,
  // `= two` and `= src[t] + 1` storing 2 alike).
  if (cell.has_write)
    check_other(cell.write, event.kind == EventKind::Store && m_sites[cell.write.site].kind == EventKind::Store &&
                                cell.write_value == event.value);
  if (writes(event.kind)) {
    // The reads since the last write, in the order they were first made.
    if (cell.has_read) check_other(cell.first_read, false);
    if (extra)
      for (const ShadowAccess& read : extra->reads) check_other(read, false);
  }
  if (extra)
    for (const ShadowAccess& update : extra->updates) check_other(update, false);

  if (commuting) {
    ShadowExtra& e = m_shadow.extra(cell);
    const auto same_site = [&](const ShadowAccess& a) {
      return a.thread == now.thread && m_sites[a.site].range == event.range;
    };
    if (auto it = std::find_if(e.updates.begin(), e.updates.end(), same_site); it != e.updates.end()) *it = now;
    else e.updates.push_back(now);
    cell.update_kind = static_cast<uint16_t>(event.commuting_kind);
    return;
  }
  if (writes(event.kind)) {
    cell.write = now;
    cell.write_value = event.value;
    cell.has_write = true;
    cell.has_read = false;
    if (ShadowExtra* e = m_shadow.find_extra(cell)) {
      e->reads.clear();
      e->updates.clear();
    }
  }
  if (event.kind != EventKind::Store) {
    // Each thread's latest read, in the place of its first.
    if (!cell.has_read || cell.first_read.thread == self) {
      cell.first_read = now;
      cell.has_read = true;
      return;
    }
    ShadowExtra& e = m_shadow.extra(cell);
    auto it = std::find_if(e.reads.begin(), e.reads.end(), [self](const ShadowAccess& a) { return a.thread == self; });
    if (it != e.reads.end()) *it = now;
    else e.reads.push_back(now);
  }
}

void RaceDetector::check_pair(const ClockView& clocks, const ShadowAccess& earlier_access, const ShadowAccess& now_access,
                              uint32_t object, uint32_t index, bool same_value, ReportCatalogue& catalogue) {
  const uint32_t earlier_thread = earlier_access.thread;
  const Site& earlier = m_sites[earlier_access.site];
  const Site& now = m_sites[now_access.site];
  const uint32_t earlier_block = split_thread_index(earlier_thread, m_threads_per_block).block;
  const uint32_t now_block = split_thread_index(now_access.thread, m_threads_per_block).block;
  // Callers pass accesses of other threads only: `earlier.thread` is never the checking
  // thread's own entry (its `own`).
  if (earlier_access.clock <= clocks.exact.get(earlier_thread, m_threads_per_block)) return; // happens-before
  const bool both_marked = earlier.mode != AccessMode::Plain && now.mode != AccessMode::Plain;
  DiagnosticKind kind;
  if (both_marked) {
    const Scope a = effective_scope(earlier.mode, earlier.scope), b = effective_scope(now.mode, now.scope);
    if (covers(a, earlier_block, now_block) && covers(b, now_block, earlier_block)) return;
    kind = DiagnosticKind::ScopedRace; // e.g. atomicAdd_block from two blocks
  } else {
    kind = earlier_access.clock <= clocks.wide.get(earlier_thread, m_threads_per_block) ? DiagnosticKind::ScopedRace
                                                                                   : DiagnosticKind::DataRace;
    // Two plain stores of the same value (every thread setting a flag to 1): whichever lands
    // last, memory holds that value, so the race changes no outcome on hardware. Still a data
    // race in the PTX memory model (PTX ISA 8.6, "Data races"): a warning. Graded by the
    // values this execution stored, however the source computes them; an execution where the
    // two stores write different values reports the pair as a data race (a finding of its own).
    if (kind == DiagnosticKind::DataRace && same_value) kind = DiagnosticKind::SameValueRace;
  }
  // The pair met lately (the sites decide the ranges, and whether both accesses are marked).
  RecentRace& recent = m_recent_races[(earlier_access.site * 31 + now_access.site * 17 + object * 7 + uint32_t(kind)) %
                                      kRecentRaces];
  if (recent.catalogue_index != 0 && recent.earlier_site == earlier_access.site && recent.now_site == now_access.site &&
      recent.object == object && recent.kind == kind)
    return catalogue.note(recent.catalogue_index - 1);
  RaceKey key{kind, both_marked, object, earlier.range, now.range};
  if (key.second.begin < key.first.begin || (key.second.begin == key.first.begin && key.second.end < key.first.end))
    std::swap(key.first, key.second);
  uint32_t at;
  if (const auto known = m_known.find(key); known != m_known.end()) {
    at = known->second;
    catalogue.note(at);
  } else {
    at = report_race(key, earlier_access, now_access, object, index, catalogue);
  }
  recent = RecentRace{earlier_access.site, now_access.site, object, kind, at + 1};
}

uint32_t RaceDetector::report_race(const RaceKey& key, const ShadowAccess& earlier_access, const ShadowAccess& now_access,
                               uint32_t object, uint32_t index, ReportCatalogue& catalogue) {
  const Site& earlier = m_sites[earlier_access.site];
  const Site& now = m_sites[now_access.site];
  const DiagnosticKind kind = key.kind;
  const bool both_marked = key.both_marked;
  const char* hazard = !writes(now.kind) ? "RAW" : !writes(earlier.kind) ? "WAR" : "WAW";
  CheckReport r;
  r.kind = kind;
  r.message = fmt::format("{} ({}) on {}", kind == DiagnosticKind::ScopedRace ? "scoped race" : "data race", hazard,
                          location_name(object, index));
  if (kind == DiagnosticKind::SameValueRace)
    r.message += ": both stores write the same value, so no outcome depends on their order; under the PTX "
                 "memory model it is still a data race";
  if (kind == DiagnosticKind::ScopedRace)
    r.message += both_marked ? ": the atomics' scope does not include both threads"
                             : ": the fences' scope does not include both threads";
  r.sites.push_back({access_role(earlier.kind), earlier.range, thread_of(earlier_access.thread).to_string()});
  r.sites.push_back({access_role(now.kind), now.range, thread_of(now_access.thread).to_string()});
  const uint32_t at = catalogue.add(std::move(r));
  m_known.emplace(key, at);
  return at;
}

} // namespace fencelab
