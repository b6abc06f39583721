// Source-DPOR's race analysis (see dpor.h; Abdulla, Aronis, Jonsson and Sagonas, "Optimal
// Dynamic Partial Order Reduction", POPL 2014): the events of the execution just finished,
// ordered by happens-before, and for each race the backtrack point that reverses it.
#include "dpor.h"

#include <algorithm>
#include <unordered_map>

namespace fencelab {

using namespace dpor_detail;

namespace {

/** Steps of one execution ordered by happens-before: clock[x] is one more than the index of
 *  the latest step of actor x at or before this one in that order (0: none). */
using Clock = std::vector<uint32_t>;

bool happens_before(const Clock& later, uint32_t actor, size_t step) { return later[actor] > step; }

} // namespace

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
                               const std::vector<uint32_t>& actor_index) {
  const size_t i = race.first;
  const size_t j = race.second;
  // The choice is made before i's step, or, for a release at once (no choice: it follows the
  // last arrival), before the arrival that made it due. What that step did before i (the
  // arrival, drains it forced) cannot be separated from i there: they are reversed with it, as
  // one block. (Where only part of it should be, a race in the reversed execution, with the
  // forced drain now a step of its own, puts it back.)
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
  for (size_t k = i + 1; k < j; ++k)
    if (!after_block(clocks[k])) visit(k);
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

} // namespace fencelab
