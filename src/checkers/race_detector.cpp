#include "race_detector.h"

#include <algorithm>
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

RaceDetector::RaceDetector(const Program& program) : m_program(program) {
  m_threads_per_block = static_cast<uint32_t>(program.launch.block.total());
  m_enabled = program.launch.grid.total() * program.launch.block.total() < kMaxThreads;
}

void RaceDetector::begin_execution() {
  m_states.clear();
  m_shadow.clear();
  m_shared_keys.clear();
  m_releases.clear();
}

void RaceDetector::forget_findings_from(uint32_t size) {
  std::erase_if(m_known, [size](const auto& item) { return item.second >= size; });
}

size_t RaceDetector::RaceKeyHash::operator()(const RaceKey& k) const noexcept {
  uint64_t h = (uint64_t(k.object) << 9) ^ (uint64_t(k.kind) << 1) ^ uint64_t(k.both_marked);
  for (uint32_t x : {k.first.begin, k.first.end, k.second.begin, k.second.end}) h = (h ^ x) * 0x9e3779b97f4a7c15ull;
  return size_t(h ^ (h >> 29));
}

uint32_t RaceDetector::index_of(ThreadId id) const {
  return id.block * m_threads_per_block + id.warp * kWarpSize + id.lane;
}

RaceDetector::ThreadState& RaceDetector::state(ThreadId id) { return m_states[index_of(id)]; }

void RaceDetector::acquire(VectorClock& into, const VectorClock& from, const Release& release, uint32_t self) const {
  into.join(from);
  if (release.thread == self) return; // its own entry is `own`, already past the fence
  const std::pair<uint32_t, uint32_t> entry{release.thread % m_threads_per_block, release.clocks.own};
  into.raise(release.thread / m_threads_per_block, std::span(&entry, 1), m_threads_per_block);
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
  case EventKind::ThreadExit: m_states.erase(index_of(event.thread)); break;
  case EventKind::BlockStart:
    // A new block's shared memory: nothing it holds was written by this block. Only the
    // locations of its instances are visited (a grid of 4,096 blocks scanned every location
    // at each block start).
    for (uint32_t instance = event.first_instance; instance < event.first_instance + event.instance_count; ++instance) {
      const auto keys = m_shared_keys.find(instance);
      if (keys == m_shared_keys.end()) continue;
      for (const uint64_t key : keys->second) m_shadow.erase(key);
      m_shared_keys.erase(keys);
    }
    break;
  default: break;
  }
}

// Fence: first acquire what was read through stores made after other threads' fences, then
// release: stores made after this fence carry this thread's clocks.
void RaceDetector::on_fence(const Event& event) {
  ThreadState& t = state(event.thread);
  const uint32_t self = index_of(event.thread);
  for (const auto& release : t.pending) {
    if (covers(release->scope, release->block, event.thread.block) && covers(event.scope, event.thread.block, release->block))
      acquire(t.clocks.exact, release->clocks.exact, *release, self);
    acquire(t.clocks.wide, release->clocks.wide, *release, self);
  }
  t.pending.clear();
  t.last_fence = std::make_shared<const Release>(Release{t.clocks, self, event.scope, event.thread.block});
  ++t.clocks.own;
}

// A barrier: every participant's later accesses follow every participant's earlier ones. The
// participants (one block's threads, or a warp's) end with one shared clock and their own
// entries one past what the others now know of them.
void RaceDetector::on_barrier(const Event& event) {
  if (event.waiting.empty()) return;
  Clocks joined = state(event.waiting.front().first).clocks;
  std::vector<std::pair<uint32_t, uint32_t>> owns; // (index in the block, own entry)
  owns.reserve(event.waiting.size());
  for (const auto& [id, range] : event.waiting) {
    const ThreadState& t = state(id);
    joined.exact.join(t.clocks.exact);
    joined.wide.join(t.clocks.wide);
    owns.emplace_back(index_of(id) % m_threads_per_block, t.clocks.own);
  }
  const uint32_t block = event.waiting.front().first.block; // a barrier's threads share a block
  joined.exact.raise(block, owns, m_threads_per_block);
  joined.wide.raise(block, owns, m_threads_per_block);
  for (const auto& [id, range] : event.waiting) {
    ThreadState& t = state(id);
    t.clocks.exact = joined.exact;
    t.clocks.wide = joined.wide;
    ++t.clocks.own;
  }
}

void RaceDetector::on_access(const Event& event, ReportCatalogue& catalogue) {
  ThreadState& t = state(event.thread);
  const uint32_t self = index_of(event.thread);
  // Reads-from: reading a store made after a fence lets this thread's next fence acquire.
  const Releases* read_releases = nullptr;
  if (event.kind != EventKind::Store && event.read_from != 0) {
    const auto it = m_releases.find(event.read_from);
    if (it != m_releases.end()) {
      read_releases = &it->second;
      for (const auto& release : it->second) // a spin loop reads the same store again and again
        if (std::find(t.pending.begin(), t.pending.end(), release) == t.pending.end()) t.pending.push_back(release);
    }
  }
  if (writes(event.kind)) {
    Releases carried;
    if (event.kind == EventKind::Atomic && read_releases) carried = *read_releases;
    if (t.last_fence) {
      // The thread's own latest fence replaces any earlier one of its at that scope.
      std::erase_if(carried, [&](const auto& r) { return r->thread == self && r->scope == t.last_fence->scope; });
      carried.push_back(t.last_fence);
    }
    if (!carried.empty()) m_releases[event.store_id] = std::move(carried);
  }

  const Access now{self,        t.clocks.own,         event.kind,   event.mode,
                   event.value, event.constant_value,  event.scope, event.thread, event.range};
  const MemoryObject& object = m_program.memory_objects[event.object];
  const auto [entry, inserted] = m_shadow.try_emplace(event.location.key());
  if (inserted && object.space == MemorySpace::Shared) m_shared_keys[event.location.instance].push_back(entry->first);
  Shadow& shadow = entry->second;
  const bool commuting =
      event.commuting_kind != 0 && (shadow.updates.empty() || shadow.update_kind == event.commuting_kind);
  // A commuting update is reported at its own site whichever of them came first (their order
  // is explored once), so it is not held back by the once-per-location flag.
  if (event.kind != EventKind::Store && !object.initialized && !shadow.written &&
      (commuting || !shadow.uninitialized_reported)) {
    shadow.uninitialized_reported = true;
    CheckReport r;
    r.kind = DiagnosticKind::UninitializedRead;
    r.message = fmt::format("read of uninitialized {}", location_name(event.object, event.location.index));
    r.sites.push_back({access_role(event.kind), event.range, event.thread.to_string()});
    catalogue.add(std::move(r));
  }
  if (shadow.write && shadow.write->thread != self) check_pair(t, *shadow.write, now, event.object, event.location.index, catalogue);
  if (writes(event.kind))
    for (const Access& read : shadow.reads)
      if (read.thread != self) check_pair(t, read, now, event.object, event.location.index, catalogue);
  for (const Access& update : shadow.updates)
    if (update.thread != self) check_pair(t, update, now, event.object, event.location.index, catalogue);

  if (commuting) {
    const auto same_site = [&now](const Access& a) { return a.thread == now.thread && a.range == now.range; };
    if (auto it = std::find_if(shadow.updates.begin(), shadow.updates.end(), same_site); it != shadow.updates.end()) *it = now;
    else shadow.updates.push_back(now);
    shadow.update_kind = event.commuting_kind;
    return;
  }
  if (writes(event.kind)) {
    shadow.write = now;
    shadow.written = true;
    shadow.reads.clear();
    shadow.updates.clear();
  }
  if (event.kind != EventKind::Store) {
    auto it = std::find_if(shadow.reads.begin(), shadow.reads.end(), [self](const Access& a) { return a.thread == self; });
    if (it != shadow.reads.end()) *it = now;
    else shadow.reads.push_back(now);
  }
}

void RaceDetector::check_pair(const ThreadState& t, const Access& earlier, const Access& now, uint32_t object,
                              uint32_t index, ReportCatalogue& catalogue) {
  // Callers pass accesses of other threads only: `earlier.thread` is never `t`'s own entry.
  if (earlier.clock <= t.clocks.exact.get(earlier.thread, m_threads_per_block)) return; // happens-before
  const bool both_marked = earlier.mode != AccessMode::Plain && now.mode != AccessMode::Plain;
  DiagnosticKind kind;
  if (both_marked) {
    const Scope a = effective_scope(earlier.mode, earlier.scope), b = effective_scope(now.mode, now.scope);
    if (covers(a, earlier.id.block, now.id.block) && covers(b, now.id.block, earlier.id.block)) return;
    kind = DiagnosticKind::ScopedRace; // e.g. atomicAdd_block from two blocks
  } else {
    kind = earlier.clock <= t.clocks.wide.get(earlier.thread, m_threads_per_block) ? DiagnosticKind::ScopedRace
                                                                                   : DiagnosticKind::DataRace;
    // Two plain stores of one constant of the source (`flag = 1;` in every thread): whichever
    // lands last, memory holds that value, so the race changes no outcome on hardware. Still a
    // data race in the PTX memory model (PTX ISA 8.6, "Data races"): a warning. Only constants
    // qualify: that two computed values happened to be equal in one execution says nothing
    // of the next (`x += tid` from two threads), and a site pair's kind must not depend on it.
    if (kind == DiagnosticKind::DataRace && earlier.kind == EventKind::Store && now.kind == EventKind::Store &&
        earlier.constant_value && now.constant_value && earlier.value == now.value)
      kind = DiagnosticKind::SameValueRace;
  }
  RaceKey key{kind, both_marked, object, earlier.range, now.range};
  if (key.second.begin < key.first.begin || (key.second.begin == key.first.begin && key.second.end < key.first.end))
    std::swap(key.first, key.second);
  if (const auto known = m_known.find(key); known != m_known.end()) return catalogue.note(known->second);
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
  r.sites.push_back({access_role(earlier.kind), earlier.range, earlier.id.to_string()});
  r.sites.push_back({access_role(now.kind), now.range, now.id.to_string()});
  m_known.emplace(key, catalogue.add(std::move(r)));
}

} // namespace fencelab
