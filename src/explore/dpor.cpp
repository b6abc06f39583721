// Source-DPOR with sleep sets (see dpor.h).
#include "dpor.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

using namespace dpor_detail;


// ---------------------------------------------------------------------------------------------
// Following the Machine

void DporChoices::start_execution() {
  m_enabled_entries = 0;
  for (const Entry& entry : m_stack) m_enabled_entries += memory_units(entry.enabled.size());
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
    m_enabled_entries += memory_units(actors.size());
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
    // Releases, then threads, before drains: a buffered store then mostly drains at the
    // barrier, fence or atomic that forces it, and an early drain is explored only where a
    // race asks for one (any first choice is sound; this one makes far fewer executions of
    // barrier code). A due barrier release goes first, as it would at once were nothing
    // buffered; other orders are explored where a race asks for them.
    const auto preferred = [&](ObjectKind kind) {
      return std::find_if(first, entry.enabled.end(), [&](const ActorId& a) { return a.kind == kind && !asleep(a); });
    };
    if (const auto release = preferred(ObjectKind::Barrier); release != entry.enabled.end()) first = release;
    else if (const auto thread = preferred(ObjectKind::Thread); thread != entry.enabled.end()) first = thread;
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
  m_steps.push_back(Step{m_position, entry.enabled[entry.chosen], false, {}, {}});
  m_steps.back().trigger = trigger_of_new_step();
  ++m_position;
  m_in_step = true;
}

void DporChoices::at_once_step(const ActorId& actor) {
  schedule_point(std::span<const ActorId>(&actor, 1));
  if (m_abandoned || m_steps.empty() || !(m_steps.back().actor == actor)) return;
  m_steps.back().at_once = true;
  m_steps.back().trigger = trigger_of_new_step();
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
  // A release at once (one that drained nothing) is part of what the arrival that made it due
  // does: an actor put to sleep after that arrival must be woken by whatever conflicts with the
  // release too. So is it of every other arrival of the round, which in another order is the
  // last one (and then releases the barrier). A scheduled release is a step of its own.
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

size_t DporChoices::trigger_of(size_t step) const { return m_steps[step].trigger; }

void DporChoices::finish_execution(const ExecutionResult& result) {
  close_step();
  analyse_races();
  if (!m_order_seen.empty()) order_commuting_updates();
  // A step that ends the execution (a runtime error, a livelock found, the step limit) disables
  // every other actor: whatever they would have done first is explored by scheduling each of
  // them there.
  const ExecutionStatus status = result.outcome.status;
  if (!m_abandoned && !m_released && !m_steps.empty() &&
      (status == ExecutionStatus::RuntimeError || status == ExecutionStatus::StepLimit ||
       status == ExecutionStatus::Livelock)) {
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
