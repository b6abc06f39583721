#include "race_detector.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

namespace {

/** Whether an operation of `scope` by a thread of block `a` reaches a thread of block `b`. */
bool covers(Scope scope, uint32_t a, uint32_t b) { return scope != Scope::Block || a == b; }

void join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  for (size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

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
  const uint64_t total = program.launch.grid.total() * program.launch.block.total();
  m_enabled = total <= kMaxThreads;
  m_thread_count = m_enabled ? static_cast<uint32_t>(total) : 0;
}

void RaceDetector::begin_execution() {
  m_states.assign(m_thread_count, ThreadState{});
  for (uint32_t i = 0; i < m_thread_count; ++i) {
    m_states[i].clocks.exact.assign(m_thread_count, 0);
    m_states[i].clocks.wide.assign(m_thread_count, 0);
    m_states[i].clocks.exact[i] = m_states[i].clocks.wide[i] = 1;
  }
  m_shadow.clear();
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
  case EventKind::BlockStart:
    // A new block's shared memory: nothing it holds was written by this block.
    std::erase_if(m_shadow, [&event](const auto& item) {
      const uint32_t instance = uint32_t(item.first >> 32);
      return instance >= event.first_instance && instance < event.first_instance + event.instance_count;
    });
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
      join(t.clocks.exact, release->clocks.exact);
    join(t.clocks.wide, release->clocks.wide);
  }
  t.pending.clear();
  t.last_fence = std::make_shared<const Release>(Release{t.clocks, event.scope, event.thread.block});
  ++t.clocks.exact[self];
  ++t.clocks.wide[self];
}

// A barrier: every participant's later accesses follow every participant's earlier ones.
void RaceDetector::on_barrier(const Event& event) {
  if (event.waiting.empty()) return;
  Clocks joined{std::vector<uint32_t>(m_thread_count, 0), std::vector<uint32_t>(m_thread_count, 0)};
  for (const auto& [id, range] : event.waiting) {
    join(joined.exact, state(id).clocks.exact);
    join(joined.wide, state(id).clocks.wide);
  }
  for (const auto& [id, range] : event.waiting) {
    ThreadState& t = state(id);
    t.clocks = joined;
    ++t.clocks.exact[index_of(id)];
    ++t.clocks.wide[index_of(id)];
  }
}

void RaceDetector::on_access(const Event& event, ReportCatalogue& catalogue) {
  ThreadState& t = state(event.thread);
  const uint32_t self = index_of(event.thread);
  // Reads-from: reading a store made after a fence lets this thread's next fence acquire.
  if (event.kind != EventKind::Store && event.read_from != 0) {
    const auto it = m_releases.find(event.read_from);
    if (it != m_releases.end()) t.pending.push_back(it->second);
  }
  if (writes(event.kind) && t.last_fence) m_releases[event.store_id] = t.last_fence;

  const Access now{self,        t.clocks.exact[self], event.kind,   event.mode,
                   event.value, event.constant_value,  event.scope, event.thread, event.range};
  Shadow& shadow = m_shadow[event.location.key()];
  const MemoryObject& object = m_program.memory_objects[event.object];
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
  if (shadow.write && shadow.write->thread != self) check_pair(*shadow.write, now, event.object, event.location.index, catalogue);
  if (writes(event.kind))
    for (const Access& read : shadow.reads)
      if (read.thread != self) check_pair(read, now, event.object, event.location.index, catalogue);
  for (const Access& update : shadow.updates)
    if (update.thread != self) check_pair(update, now, event.object, event.location.index, catalogue);

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

void RaceDetector::check_pair(const Access& earlier, const Access& now, uint32_t object, uint32_t index,
                              ReportCatalogue& catalogue) {
  const ThreadState& t = m_states[now.thread];
  if (earlier.clock <= t.clocks.exact[earlier.thread]) return; // ordered by happens-before
  const bool both_marked = earlier.mode != AccessMode::Plain && now.mode != AccessMode::Plain;
  DiagnosticKind kind;
  if (both_marked) {
    const Scope a = effective_scope(earlier.mode, earlier.scope), b = effective_scope(now.mode, now.scope);
    if (covers(a, earlier.id.block, now.id.block) && covers(b, now.id.block, earlier.id.block)) return;
    kind = DiagnosticKind::ScopedRace; // e.g. atomicAdd_block from two blocks
  } else {
    kind = earlier.clock <= t.clocks.wide[earlier.thread] ? DiagnosticKind::ScopedRace : DiagnosticKind::DataRace;
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
