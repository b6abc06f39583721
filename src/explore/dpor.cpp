// Source-DPOR with sleep sets (see dpor.h).
#include "dpor.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace fencelab {

namespace {

bool contains(const std::vector<ActorId>& actors, const ActorId& actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

/** Steps of one execution ordered by happens-before: clock[x] is one more than the index of
 *  the latest step of actor x at or before this one in that order (0: none). */
using Clock = std::vector<uint32_t>;

bool happens_before(const Clock& later, uint32_t actor, size_t step) { return later[actor] > step; }

/** Whether `step` arrives at the barrier whose release has footprint `release` (writes an
 *  arrival the release reads). */
bool arrives_at(const DporChoices::Footprint& step, const DporChoices::Footprint& release) {
  return std::any_of(step.begin(), step.end(), [&release](const DporChoices::Access& a) {
    return a.write && a.object.kind == ObjectKind::Arrival &&
           std::binary_search(release.begin(), release.end(), DporChoices::Access{a.object, false});
  });
}

template <typename Sleepers>
bool listed(const Sleepers& sleepers, const ActorId& actor) {
  return std::any_of(sleepers.begin(), sleepers.end(), [&actor](const auto& s) { return s.actor == actor; });
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Following the Machine

void DporChoices::start_execution() {
  m_enabled_entries = 0;
  for (const Entry& entry : m_stack) m_enabled_entries += entry.enabled.size();
  m_position = 0;
  m_steps.clear();
  m_current.clear();
  m_marks.clear();
  m_in_step = false;
  m_schedule_pending = false;
  m_abandoned = false;
  m_released = false;
  m_step_decisions = 0;
  m_step_order_seen = false;
  m_taken.clear();
  m_order_seen.clear();
}

void DporChoices::stop_too_long(uint64_t steps, uint64_t actors) {
  m_stop_reason = fmt::format("an execution of {}{} steps by {} threads and buffer lanes is too long for the "
                              "partial-order reduction to keep in memory (--reduction none searches without it; "
                              "a smaller launch, --grid/--block, needs less)",
                              m_abandoned ? "over " : "", steps, actors);
}

void DporChoices::add_backtrack(Entry& entry, const ActorId& actor, std::vector<ActorId> wakeup) {
  entry.backtrack.push_back(actor);
  entry.wakeup.push_back(std::move(wakeup));
}

void DporChoices::schedule_point(std::span<const ActorId> actors) {
  close_step();
  m_step_decisions = 0;
  m_step_order_seen = false;
  m_schedule_pending = actors.size() > 1;
  if (m_abandoned) return;
  if (m_position == m_stack.size()) {
    m_enabled_entries += actors.size();
    if (m_enabled_entries > kMaxEnabledEntries) {
      m_abandoned = true;
      return stop_too_long(m_steps.size(), actors.size());
    }
    Entry entry;
    entry.schedule = true;
    entry.enabled.assign(actors.begin(), actors.end());
    if (!m_steps.empty()) entry.sleep = sleep_after(m_stack[m_steps.back().entry], m_steps.back());
    // The first actor that does not sleep; if every one sleeps, this execution only repeats
    // explored ones (sleep-set blocked) and is abandoned.
    auto asleep = [&entry](const ActorId& a) { return listed(entry.sleep, a); };
    auto first = std::find_if_not(entry.enabled.begin(), entry.enabled.end(), asleep);
    if (first == entry.enabled.end()) {
      m_abandoned = true;
      return;
    }
    // Threads before drains: a buffered store then mostly drains at the fence, barrier or
    // atomic that forces it, and an early drain is explored only where a race asks for one
    // (any first choice is sound; this one makes far fewer executions of barrier code).
    const auto thread = std::find_if(first, entry.enabled.end(), [&asleep](const ActorId& a) {
      return a.kind == ObjectKind::Thread && !asleep(a);
    });
    if (thread != entry.enabled.end()) first = thread;
    // Follow the guide of the race being reversed while it fits.
    if (!m_guide.empty()) {
      const auto guided = std::find(entry.enabled.begin(), entry.enabled.end(), m_guide.front());
      if (guided != entry.enabled.end() && !asleep(*guided)) {
        first = guided;
        m_guide.erase(m_guide.begin());
      } else {
        m_guide.clear();
      }
    }
    entry.chosen = static_cast<uint32_t>(first - entry.enabled.begin());
    add_backtrack(entry, *first, {});
    m_stack.push_back(std::move(entry));
  }
  const Entry& entry = m_stack[m_position];
  m_steps.push_back(Step{m_position, entry.enabled[entry.chosen], {}, {}});
  ++m_position;
  m_in_step = true;
}

void DporChoices::awaits_released() {
  close_step();
  m_schedule_pending = false;
  m_released = true;
}

// Failing values (docs/architecture.md). A spin read that fails ends its thread's part in the
// execution (awaits_spins), with the thread's private state as before the read: which failing
// store it read changes nothing another thread sees. The thread's view of the location, and
// what the read's store carries to its next fence, stay with it, and it takes no further step
// unless released, where its resumed reads are the ones of the execution in which it was
// slow. So at a read-from decision the first failing option explored stands for all of them:
// an execution that reaches the same awaiting thread with another option repeats it and is
// abandoned there, before any other step. Not where the read told the order of commuting
// updates (order_commuting_updates), or where the step made other decisions.
void DporChoices::spin_read_failed() {
  if (m_released || m_abandoned || !m_in_step || m_step_decisions != 1 || m_step_order_seen) return;
  Entry& entry = m_stack[m_step_decision];
  if (entry.schedule || entry.kind != ChoiceKind::ReadFrom) return;
  if (entry.failing_option == UINT32_MAX) entry.failing_option = entry.chosen;
  else if (entry.failing_option != entry.chosen) m_abandoned = true;
}

uint32_t DporChoices::choose(uint32_t options, ChoiceKind kind, uint32_t) {
  // Past the release every decision takes its first option: the tail only finishes an
  // execution whose analysed part ended at the release (ChoiceSource::awaits_spins).
  if (m_released) {
    m_taken.push_back(0);
    return 0;
  }
  if (kind == ChoiceKind::Schedule && m_schedule_pending) {
    m_schedule_pending = false;
    const uint32_t c = m_abandoned ? 0 : std::min(m_stack[m_position - 1].chosen, options - 1);
    m_taken.push_back(c);
    return c;
  }
  uint32_t c = 0;
  if (m_position < m_stack.size()) {
    Entry& entry = m_stack[m_position];
    entry.options = options;
    c = std::min(entry.chosen, options - 1);
  } else {
    Entry entry;
    entry.options = options;
    entry.kind = kind;
    m_stack.push_back(std::move(entry));
  }
  ++m_step_decisions;
  m_step_decision = m_position;
  ++m_position;
  m_taken.push_back(c);
  return c;
}

void DporChoices::touch(const ObjectId& object, bool write) {
  if (m_in_step) m_current.push_back(Access{object, write, 0});
}

void DporChoices::touch_commuting(const ObjectId& object, uint32_t kind) {
  if (m_in_step) m_current.push_back(Access{object, true, kind});
}

void DporChoices::touch_emptied(const ObjectId& lane) {
  if (m_in_step) m_current.push_back(Access{lane, false, Access::kEmptied});
}

void DporChoices::commuting_order_seen(const ObjectId& object) {
  m_step_order_seen = true;
  if (std::find(m_order_seen.begin(), m_order_seen.end(), object) == m_order_seen.end()) m_order_seen.push_back(object);
}

void DporChoices::begin_forced_step(const ActorId& actor) {
  if (m_in_step) m_marks.push_back(SegmentMark{m_current.size(), actor, true});
}

void DporChoices::end_forced_step() {
  if (m_in_step) m_marks.push_back(SegmentMark{m_current.size(), {}, false});
}

namespace {
/** One step's touches as a footprint: sorted by object, one entry per object
 *  (Access::combined_in_step_with). */
DporChoices::Footprint normalised(DporChoices::Footprint::iterator begin, DporChoices::Footprint::iterator end) {
  std::sort(begin, end);
  DporChoices::Footprint footprint;
  for (auto it = begin; it != end; ++it) {
    const DporChoices::Access& a = *it;
    if (!footprint.empty() && footprint.back().object == a.object) footprint.back() = footprint.back().combined_in_step_with(a);
    else footprint.push_back(a);
  }
  return footprint;
}
} // namespace

void DporChoices::close_step() {
  if (!m_in_step) return;
  m_in_step = false;
  Step& step = m_steps.back();
  if (!m_marks.empty()) {
    // Split at the forced drains. An own part with no touches is kept only at the end, where
    // it stands for the step's own work after the drains (ordered after them: analyse_races).
    for (size_t k = 0; k <= m_marks.size(); ++k) {
      const size_t begin = k == 0 ? 0 : m_marks[k - 1].begin;
      const size_t end = k < m_marks.size() ? m_marks[k].begin : m_current.size();
      const bool forced = k > 0 && m_marks[k - 1].forced;
      if (begin == end && !forced && k < m_marks.size()) continue;
      step.segments.push_back(Segment{forced ? m_marks[k - 1].actor : step.actor, forced,
                                      normalised(m_current.begin() + begin, m_current.begin() + end)});
    }
    m_marks.clear();
  }
  Footprint footprint = normalised(m_current.begin(), m_current.end());
  m_current.clear();
  merge_into(m_stack[step.entry].chosen_union, footprint);
  // A barrier release is part of what the arrival that made it due does: an actor put to
  // sleep after that arrival must be woken by whatever conflicts with the release too. So is
  // it of every other arrival of the round, which in another order is the last one (and then
  // releases the barrier, draining what the release drains).
  const size_t here = m_steps.size() - 1;
  const size_t trigger = trigger_of(here);
  if (trigger != here) {
    for (size_t k = trigger + 1; k-- > 0;) {
      const Step& earlier = m_steps[k];
      if (k < trigger && earlier.actor == step.actor) break; // the barrier's previous release
      if (k == trigger || arrives_at(earlier.footprint, footprint))
        merge_into(m_stack[earlier.entry].chosen_union, footprint);
    }
  }
  step.footprint = std::move(footprint);
}

size_t DporChoices::trigger_of(size_t step) const {
  while (step > 0 && m_steps[step].actor.kind == ObjectKind::Barrier) --step;
  return step;
}

void DporChoices::finish_execution(const ExecutionResult& result) {
  close_step();
  analyse_races();
  if (!m_order_seen.empty()) order_commuting_updates();
  // A step that ends the execution (a runtime error, the step limit) disables every other
  // actor: whatever they would have done first is explored by scheduling each of them there.
  const ExecutionStatus status = result.outcome.status;
  if (!m_abandoned && !m_released && !m_steps.empty() &&
      (status == ExecutionStatus::RuntimeError || status == ExecutionStatus::StepLimit)) {
    Entry& last = m_stack[m_steps.back().entry];
    for (const ActorId& actor : last.enabled)
      if (!contains(last.backtrack, actor)) add_backtrack(last, actor, {});
  }
}

// ---------------------------------------------------------------------------------------------
// Dependence and sleep sets

// A read told the order of some commuting updates (commuting_order_seen): their order matters
// below the states this execution passed through, so the footprints kept there for sleep sets
// (an explored actor's, a sleeper's) treat those updates as writes from now on. Otherwise an
// actor put to sleep after its update would stay asleep across the other update, and the
// order that the read needs would never be explored.
void DporChoices::order_commuting_updates() {
  auto void_in = [this](Footprint& footprint) {
    for (Access& a : footprint)
      if (a.commuting != 0 && std::find(m_order_seen.begin(), m_order_seen.end(), a.object) != m_order_seen.end())
        a.commuting = 0;
  };
  for (Entry& entry : m_stack) {
    void_in(entry.chosen_union);
    for (Sleeper& s : entry.sleep) void_in(s.footprint);
    for (Sleeper& s : entry.explored) void_in(s.footprint);
  }
}

void DporChoices::merge_into(Footprint& into, const Footprint& from) {
  Footprint merged;
  merged.reserve(into.size() + from.size());
  size_t i = 0, j = 0;
  while (i < into.size() || j < from.size()) {
    if (j == from.size() || (i < into.size() && into[i].object < from[j].object)) merged.push_back(into[i++]);
    else if (i == into.size() || from[j].object < into[i].object) merged.push_back(from[j++]);
    else {
      merged.push_back(into[i].combined_with(from[j]));
      ++i;
      ++j;
    }
  }
  into = std::move(merged);
}

// Dependent: the same actor, or a common object that one of them writes (other than two
// updates that commute: Access::conflicts_with). A step also reads
// its own actor's object (a thread's control, a buffer lane), so whatever enables it (writes
// that object) is dependent with it.
bool DporChoices::independent(const Footprint& a, const ActorId& actor_a, const Footprint& b, const ActorId& actor_b) {
  if (actor_a == actor_b) return false;
  auto writes = [](const Footprint& f, const ObjectId& o) {
    const auto it = std::lower_bound(f.begin(), f.end(), Access{o, false});
    return it != f.end() && it->object == o && it->write;
  };
  if (writes(a, actor_b) || writes(b, actor_a)) return false;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].object < b[j].object) ++i;
    else if (b[j].object < a[i].object) ++j;
    else {
      if (a[i].conflicts_with(b[j])) return false;
      ++i;
      ++j;
    }
  }
  return true;
}

std::vector<DporChoices::Sleeper> DporChoices::sleep_after(const Entry& parent, const Step& step) const {
  std::vector<Sleeper> out;
  for (const std::vector<Sleeper>* list : {&parent.sleep, &parent.explored})
    for (const Sleeper& s : *list)
      if (independent(s.footprint, s.actor, step.footprint, step.actor)) out.push_back(s);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Races

// A step that forces drains is, for race analysis, the drains (each by its lane, in the order
// they happened) and the step's own parts. A fence, atomic or barrier could only have run once
// the lanes it drains were empty, so its own part after the drains follows them; the drains
// are not ordered among themselves: each is a step its lane could have taken by itself, and
// when another actor touches the drained location before, that race reverses to drain the
// lane earlier (as Nidhugg does with TSO buffers as threads of their own).
void DporChoices::collect_events() {
  m_events.clear();
  m_first_event.clear();
  for (uint32_t k = 0; k < m_steps.size(); ++k) {
    const Step& step = m_steps[k];
    m_first_event.push_back(uint32_t(m_events.size()));
    if (step.segments.empty()) m_events.push_back(Event{k, false, step.actor, &step.footprint});
    for (const Segment& s : step.segments) m_events.push_back(Event{k, s.forced, s.actor, &s.footprint});
  }
  m_first_event.push_back(uint32_t(m_events.size()));
}

void DporChoices::analyse_races() {
  collect_events();
  const size_t n = m_events.size();
  if (n < 2) return;
  std::unordered_map<ActorId, uint32_t> index_of;
  std::vector<uint32_t> actor_index(n);
  for (size_t k = 0; k < n; ++k)
    actor_index[k] = index_of.try_emplace(m_events[k].actor, uint32_t(index_of.size())).first->second;
  const size_t actors = index_of.size();
  if (uint64_t(n) * actors > kMaxClockEntries) return stop_too_long(n, actors);

  struct ObjectState {
    int64_t last_write = -1;
    std::vector<uint32_t> reads;  ///< since the last write
    std::vector<uint32_t> updates; ///< commuting updates since the last write, all of one kind
    uint32_t update_kind = 0;
    std::vector<uint32_t> stores; ///< a buffer lane: the stores put in it, in order
    uint32_t drained = 0;         ///< a buffer lane: how many of them drained
  };
  std::unordered_map<ObjectId, ObjectState> objects;
  std::vector<Clock> clocks(n);
  std::vector<int64_t> previous_of_actor(actors, -1);
  std::vector<std::pair<uint32_t, bool>> candidates; // (earlier event, reversible)
  std::vector<Race> races;

  for (size_t j = 0; j < n; ++j) {
    const uint32_t a = actor_index[j];
    const Event& event = m_events[j];
    auto own_past = [&] { return previous_of_actor[a] >= 0 ? clocks[previous_of_actor[a]] : Clock(actors, 0); };
    auto join = [&](Clock& into, uint32_t i) {
      for (size_t x = 0; x < actors; ++x) into[x] = std::max(into[x], clocks[i][x]);
    };
    Clock clock = own_past();
    candidates.clear();
    auto access = [&](const ObjectId& object, bool write, uint32_t commuting) {
      ObjectState& state = objects[object];
      if (object.kind == ObjectKind::BufferLane) {
        // A buffer lane is a FIFO (per location under gpu, the whole buffer under tso). A store
        // appends and a drain takes the oldest entry: they commute, except that the k-th drain
        // needs the k-th store (ordered, never reversed). A load by the lane's thread that read
        // its own lane before a drain would, after it, read memory instead (a race).
        if (write && event.actor == object) {
          if (state.drained < state.stores.size()) candidates.emplace_back(state.stores[state.drained++], false);
          for (uint32_t r : state.reads) candidates.emplace_back(r, true);
          state.reads.clear();
          state.last_write = int64_t(j);
        } else if (write) {
          state.stores.push_back(uint32_t(j));
        } else if (commuting == Access::kEmptied) {
          // A step that needs the lane empty follows its drains, which in the other order it
          // would have forced at the same point: ordered, never reversed (touch_emptied).
          if (state.last_write >= 0) candidates.emplace_back(uint32_t(state.last_write), false);
        } else {
          if (state.last_write >= 0) candidates.emplace_back(uint32_t(state.last_write), true);
          state.reads.push_back(uint32_t(j));
        }
        return;
      }
      // Enabling (a thread's control written by a barrier release or a wake-up, an arrival
      // read by the release), then the enabled step: ordered, but never reversible, as the
      // enabled step could not have run first. The other way round (a thread's step, then a
      // write of its control) can be, and so can two writes other than barrier releases (two
      // stores each waking a spinner; a release needs the arrivals after the previous one).
      if (state.last_write >= 0) {
        const bool releases = event.actor.kind == ObjectKind::Barrier ||
                              m_events[state.last_write].actor.kind == ObjectKind::Barrier;
        candidates.emplace_back(uint32_t(state.last_write), !object.enables() || (write && !releases));
      }
      if (commuting != 0 && (state.updates.empty() || state.update_kind == commuting)) {
        // A commuting update: dependent with the reads since the last write (which a later
        // update of its kind is dependent with too, so they stay), not with its kind's updates.
        for (uint32_t r : state.reads) candidates.emplace_back(r, true);
        state.updates.push_back(uint32_t(j));
        state.update_kind = commuting;
      } else if (write) {
        for (uint32_t r : state.reads) candidates.emplace_back(r, true);
        for (uint32_t u : state.updates) candidates.emplace_back(u, true);
        state.last_write = int64_t(j);
        state.reads.clear();
        state.updates.clear();
      } else {
        for (uint32_t u : state.updates) candidates.emplace_back(u, true);
        state.reads.push_back(uint32_t(j));
      }
    };
    const Footprint& footprint = *event.footprint;
    const auto own = std::lower_bound(footprint.begin(), footprint.end(), Access{event.actor, false});
    if (own == footprint.end() || !(own->object == event.actor)) access(event.actor, false, 0);
    for (const Access& x : footprint) {
      const bool seen = x.commuting != 0 && std::find(m_order_seen.begin(), m_order_seen.end(), x.object) != m_order_seen.end();
      access(x.object, x.write, seen ? 0 : x.commuting);
    }
    // A step's own part follows the drains it forced before it (see collect_events).
    if (!event.forced)
      for (uint32_t k = m_first_event[event.step]; k < j; ++k)
        if (m_events[k].forced) candidates.emplace_back(k, false);

    // Latest first (and, for one event met through several objects, enabling first: an event
    // that enabled j can never follow it): an earlier event that happens before a later direct
    // predecessor of j is ordered with j through it, so it is no race.
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& x, const auto& y) { return x.first > y.first || (x.first == y.first && x.second < y.second); });
    const size_t races_before = races.size();
    uint32_t last = UINT32_MAX;
    for (const auto& [i, reversible] : candidates) {
      if (i == last || i == j) continue;
      last = i;
      const uint32_t b = actor_index[i];
      if (b == a) continue;
      if (!happens_before(clock, b, i) && reversible) races.push_back(Race{i, uint32_t(j), {}});
      join(clock, i);
    }
    // Where i has events of its step before it (reverse_race reverses them together), j's past
    // must leave out its direct edges from them: once reversed, those no longer hold. Edges j
    // cannot do without stay (a drain needs its store, an enabled step what enabled it).
    for (size_t r = races_before; r < races.size(); ++r) {
      Race& race = races[r];
      const uint32_t block = m_first_event[trigger_of(m_events[race.first].step)];
      if (block == race.first) continue;
      race.past = own_past();
      for (const auto& [i, reversible] : candidates)
        if ((i < block || i > race.first || !reversible) && i != j && actor_index[i] != a) join(race.past, i);
    }
    clock[a] = uint32_t(j + 1);
    clocks[j] = std::move(clock);
    previous_of_actor[a] = int64_t(j);
  }
  for (const Race& race : races) reverse_race(race, clocks, actor_index);
}

// For the race i < j (events): the events after i that do not happen after it, then j
// (notdep(i).j). An actor whose first event there has no predecessor there can start that
// sequence at the state before i (an initial). Unless one already is to be explored there,
// schedule one. When i is not the first event of its step (a forced drain, the step's own part
// after one, a barrier release), the state before i is inside a step, where no choice is made:
// the choice is made before the step, and the step's events up to i are reversed as one block.
void DporChoices::reverse_race(const Race& race, const std::vector<Clock>& clocks,
                               const std::vector<uint32_t>& actor_index, uint32_t held_step, bool hold_arrivals) {
  const size_t i = race.first;
  const size_t j = race.second;
  // The choice is made before i's step, or, for a barrier release (no choice: it follows the
  // last arrival at once), before the arrival that made it due. What that step did before i
  // (the arrival, drains it forced) cannot be separated from i there: they are reversed with
  // it, as one block. (Where only part of it should be, a race in the reversed execution, with
  // the forced drain now a step of its own, puts it back.)
  const size_t at = trigger_of(m_events[i].step);
  const size_t block = m_first_event[at];
  Entry& entry = m_stack[m_steps[at].entry];
  // What the block did before i and cannot be separated from it: its drains before i lead the
  // reversed sequence (below), so following one of them is no obstacle.
  auto after_block = [&](const Clock& past) {
    for (size_t b = block; b <= i; ++b)
      if ((b == i || !m_events[b].forced) && happens_before(past, actor_index[b], b)) return true;
    return false;
  };
  const Clock& j_past = race.past.empty() ? clocks[j] : race.past;
  // Where i is a drain forced by a barrier release, j can also come after the last arrival's
  // own work and before the release, if another arrival at that barrier comes after j: that
  // reversal is made with the latest such arrival j does not need (the release left out of its
  // sequence, as its events wait for that arrival). It is the only one where j needs the
  // block's start (a buffered store of the last arrival's own step, drained by the release
  // after another thread's), and one more where the last arrival's work should precede j (a
  // CAS that must read the value before j's store lands).
  auto reverse_with_an_arrival = [&] {
    if (!m_events[i].forced || m_steps[m_events[i].step].actor.kind != ObjectKind::Barrier) return;
    const Footprint& release = m_steps[m_events[i].step].footprint;
    for (size_t e = block; e-- > 0;) {
      if (m_events[e].forced || happens_before(j_past, actor_index[e], e)) continue;
      if (arrives_at(*m_events[e].footprint, release))
        return reverse_race(Race{uint32_t(e), uint32_t(j), race.past}, clocks, actor_index, m_events[i].step);
    }
  };
  reverse_with_an_arrival();
  if (block != i && after_block(j_past)) return; // j needs the block's start: no reversal here
  std::vector<std::pair<uint32_t, size_t>> earliest; // actor -> its first event in the sequence
  std::vector<size_t> initials, sequence;
  auto visit = [&](size_t k) {
    sequence.push_back(k);
    const auto same_actor = [&](const auto& e) { return e.first == actor_index[k]; };
    if (std::any_of(earliest.begin(), earliest.end(), same_actor)) return; // not its actor's first
    const Clock& past = k == j ? j_past : clocks[k];
    const bool preceded = std::any_of(earliest.begin(), earliest.end(),
                                      [&](const auto& e) { return happens_before(past, e.first, e.second); });
    if (!preceded) initials.push_back(k);
    earliest.emplace_back(actor_index[k], k);
  };
  // Drains the block forced before i come first, each as a step its lane could take alone: the
  // reversed order needs the state between them and i, which the block offers no choice in
  // (seed 141 of the updates flavour: a barrier release drains two stores to x0, and only
  // draining the first by itself lets the exchange come between them).
  for (size_t k = block; k < i; ++k)
    if (m_events[k].forced) visit(k);
  // A barrier release follows the arrival that makes it due at once, and drains every buffered
  // store of the block's threads. Where i is a drain of such a thread's lane, the arrival cannot
  // be moved before i: there the release would drain i's store with the rest (generator seed
  // 60,001,091: a last arrival taken as an initial, already explored, whose subtree never
  // left the other thread's store after i's). Such an arrival, and what follows it, wait.
  std::vector<size_t> waiting;
  const ActorId& lane = m_events[i].actor; // i drains it: the release would drain it too
  auto waits = [&](size_t k, const Clock& past) {
    if (!hold_arrivals || lane.kind != ObjectKind::BufferLane) return false;
    for (size_t w : waiting)
      if (happens_before(past, actor_index[w], w)) return true;
    const size_t step = m_events[k].step;
    if (m_first_event[step] != k || step + 1 >= m_steps.size()) return false;
    const size_t release = step + 1;
    if (m_steps[release].actor.kind != ObjectKind::Barrier || trigger_of(release) != step) return false;
    const Footprint& released = m_steps[release].footprint;
    const auto arrival = std::lower_bound(released.begin(), released.end(), Access{ObjectId::arrival(lane.owner), false});
    return arrival != released.end() && arrival->object == ObjectId::arrival(lane.owner);
  };
  for (size_t k = i + 1; k < j; ++k) {
    if (after_block(clocks[k]) || m_events[k].step == held_step) continue;
    if (waits(k, clocks[k])) {
      waiting.push_back(k);
      continue;
    }
    visit(k);
  }
  // j itself needs such an arrival: then the arrival is reversed with the rest, as before.
  if (!waiting.empty() && waits(j, j_past)) return reverse_race(race, clocks, actor_index, held_step, false);
  visit(j);

  for (size_t k : initials) {
    const ActorId& actor = m_events[k].actor;
    if (contains(entry.backtrack, actor)) return; // every explored actor came from the backtrack set
  }
  auto schedulable = [&entry](const ActorId& actor) {
    return contains(entry.enabled, actor) && !listed(entry.sleep, actor);
  };
  // Prefer j's own actor, as the race's reversal names it; the rest of the sequence guides.
  auto schedule = [&](size_t k) {
    std::vector<ActorId> wakeup;
    for (size_t m : sequence)
      if (m != k) wakeup.push_back(m_events[m].actor);
    add_backtrack(entry, m_events[k].actor, std::move(wakeup));
  };
  if (std::find(initials.begin(), initials.end(), j) != initials.end() && schedulable(m_events[j].actor))
    return schedule(j);
  for (size_t k : initials)
    if (schedulable(m_events[k].actor)) return schedule(k);
}

// ---------------------------------------------------------------------------------------------
// Backtracking

bool DporChoices::advance() {
  m_stack.resize(m_position);
  m_guide.clear();
  while (!m_stack.empty()) {
    Entry& entry = m_stack.back();
    if (!entry.schedule) {
      if (entry.chosen + 1 < entry.options) {
        ++entry.chosen;
        return true;
      }
      m_stack.pop_back();
      continue;
    }
    // Its subtree is done: the chosen actor sleeps for the siblings still to come.
    entry.explored.push_back(Sleeper{entry.enabled[entry.chosen], std::move(entry.chosen_union)});
    entry.chosen_union.clear();
    for (size_t b = 0; b < entry.backtrack.size(); ++b) {
      const ActorId& actor = entry.backtrack[b];
      if (listed(entry.explored, actor) || listed(entry.sleep, actor)) continue;
      const auto it = std::find(entry.enabled.begin(), entry.enabled.end(), actor);
      if (it == entry.enabled.end()) continue;
      entry.chosen = static_cast<uint32_t>(it - entry.enabled.begin());
      m_guide = entry.wakeup[b];
      return true;
    }
    m_stack.pop_back();
  }
  return false;
}

} // namespace fencelab
