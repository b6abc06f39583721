// Source-DPOR with sleep sets: the exhaustive explorer's partial-order reduction (DESIGN
// "Reduction"; Abdulla, Aronis, Jonsson, Sagonas, "Optimal Dynamic Partial Order Reduction",
// POPL 2014, Algorithm 1, in its stateless form with re-execution).
//
// The Machine names, at every scheduling point, the actors of its options, and reports what
// each step touches (machine/footprint.h). After each execution this explorer computes, from
// those footprints, which pairs of steps race (dependent, by different actors, not already
// ordered), and for each race makes sure that some actor that can start the reversed order is
// scheduled at the state before the first step (its backtrack set). Sleep sets keep an order
// that was explored once from being explored again: an actor explored at a state sleeps in
// the states below it until a step dependent with its own wakes it; an execution whose every
// enabled actor sleeps repeats explored ones and is abandoned.
//
// Decisions that are not scheduling (which store a load reads, an undefined value) are
// branched on in full, as by the plain depth-first search.
#pragma once

#include "fencelab/explore/search_control.h"

#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/choice.h"
#include "fencelab/machine/machine.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace fencelab {

class DporChoices final : public InterruptibleChoices {
public:
  uint32_t choose(uint32_t options, ChoiceKind kind, uint32_t common) override;
  bool records_footprints() const override { return true; }
  bool awaits_spins() const override { return true; }
  void awaits_released() override;
  void spin_read_failed() override;
  void schedule_point(std::span<const ActorId> actors) override;
  void at_once_step(const ActorId& actor) override;
  void touch(const ObjectId& object, bool write) override;
  void touch_commuting(const ObjectId& object, uint32_t kind) override;
  void touch_emptied(const ObjectId& lane) override;
  void commuting_order_seen(const ObjectId& object) override;
  void begin_forced_step(const ActorId& actor) override;
  void end_forced_step() override;
  bool abandon() const override { return m_abandoned; }

  void start_execution();
  /** Analyses the execution just run (its races add backtrack points). */
  void finish_execution(const ExecutionResult& result);
  /** Moves to the next unexplored execution; false when there is none. */
  bool advance();
  /** The decisions choose() answered in this execution: its replay token. */
  const std::vector<uint32_t>& taken() const { return m_taken; }
  bool abandoned() const { return m_abandoned; }
  /** Non-empty when the last execution was too long for the reduction's memory: the search
   *  must stop there (it would otherwise run out of memory). */
  const std::string& stop_reason() const { return m_stop_reason; }
  /** Each scheduling point keeps its enabled actors (16 bytes each) and its entry and step
   *  (memory_units): at most this many 16-byte units in one execution's stack (256 MiB). */
  static constexpr uint64_t kMaxEnabledEntries = uint64_t(1) << 24;
  /** Happens-before is a clock per event with one entry per actor: at most this many entries
   *  (4 bytes each, 1 GiB) for one execution. */
  static constexpr uint64_t kMaxClockEntries = uint64_t(1) << 28;

  struct Access {
    ObjectId object;
    bool write = false;
    /** Nonzero: the write is an update that commutes with others of this kind (footprint.h);
     *  on a read of a buffer lane, kEmptied (FootprintSink::touch_emptied). */
    uint32_t commuting = 0;
    static constexpr uint32_t kEmptied = UINT32_MAX;
    friend bool operator<(const Access& a, const Access& b) { return a.object < b.object; }
    /** Whether this and `other`, accesses to one object, are dependent. */
    bool conflicts_with(const Access& other) const {
      return (write || other.write) && !(commuting != 0 && commuting == other.commuting);
    }
    /** Both accesses as one (steps that touch an object twice): commuting only if both are
     *  updates of the same kind, else a write if either writes. */
    Access combined_with(const Access& other) const {
      return Access{object, write || other.write, commuting == other.commuting ? commuting : 0u};
    }
    /** Both accesses of one step as one: as combined_with, except that a plain read with an
     *  update that changes nothing stays that update. Within a step such a read is the spin's
     *  check of the value the update found (a failed poll, then the check that its iteration
     *  is back where it started), which is the same in either order with another such update.
     *  Across steps (a sleeper's footprint) a read may be a load that reads an entry, which
     *  an update's entry does change: there combined_with applies. */
    Access combined_in_step_with(const Access& other) const {
      const auto plain_read = [](const Access& a) { return !a.write && a.commuting == 0; };
      if (commuting == AtomicUpdate::kNoOpKind && plain_read(other)) return *this;
      if (other.commuting == AtomicUpdate::kNoOpKind && plain_read(*this)) return other;
      return combined_with(other);
    }
  };
  using Footprint = std::vector<Access>; ///< sorted by object, one entry per object

private:
  struct Sleeper {
    ActorId actor;
    Footprint footprint;
  };
  /** A decision point of the current execution: a scheduling point or another decision. */
  struct Entry {
    bool schedule = false;
    uint32_t options = 1; ///< value decisions: how many
    uint32_t chosen = 0;  ///< value decisions: the option; scheduling: index into `enabled`
    ChoiceKind kind = ChoiceKind::Schedule;
    /** A read-from decision whose chosen option failed its thread's spin iteration
     *  (spin_read_failed): the first such option explored, else UINT32_MAX. */
    uint32_t failing_option = UINT32_MAX;
    std::vector<ActorId> enabled;
    std::vector<ActorId> backtrack; ///< actors to explore here (source set)
    /** Per backtrack actor: the rest of the reversed race's sequence, to follow after it (a
     *  guide, as optimal DPOR's wakeup trees; any order would be sound, this one avoids
     *  wandering into orders that sleep sets then abandon). */
    std::vector<std::vector<ActorId>> wakeup;
    std::vector<ActorId> done;      ///< explored here
    std::vector<Sleeper> sleep;     ///< asleep on arrival here
    std::vector<Sleeper> explored;  ///< done actors with the footprints their steps had
    Footprint chosen_union;         ///< the chosen actor's step, over every execution so far
  };
  /** Part of a step taken by one actor: the step's own work, or a drain it forced. */
  struct Segment {
    ActorId actor;
    bool forced = false;
    Footprint footprint;
  };
  struct Step {
    size_t entry = 0;
    ActorId actor;
    /** It followed the step before at once (ChoiceSource::at_once_step): a barrier release
     *  that drained nothing, made due by the arrival before it. */
    bool at_once = false;
    Footprint footprint;            ///< everything the step touched (forced drains included)
    std::vector<Segment> segments;  ///< in order, only when the step forced a drain
    /** trigger_of(this step), kept when the step is opened: found by walking back over the
     *  releases before it, a barrier loop's thousands of consecutive releases took time
     *  quadratic in its rounds (issue 68 F: 80,000 rounds, 3 s; 10,000,000, hours). */
    size_t trigger = 0;
  };
  /** One actor's part of a step, as race analysis sees the execution (dpor.cpp). */
  struct Event {
    uint32_t step = 0;
    bool forced = false;
    ActorId actor;
    const Footprint* footprint = nullptr;
  };
  struct SegmentMark {
    size_t begin = 0; ///< index into m_current
    ActorId actor;    ///< the lane, where a forced drain begins
    bool forced = false;
  };

  void close_step();
  /** The step an at-once step (a release that drained nothing) was made due by: the arrival
   *  before it, past the at-once releases that came in a row; else `step`. */
  size_t trigger_of(size_t step) const;
  /** trigger_of for the step just opened, from its predecessor's (dpor_barrier_loops.cpp). */
  size_t trigger_of_new_step() const;
  /** What a scheduling point of `enabled` actors keeps, in 16-byte units (dpor_barrier_loops.cpp). */
  static uint64_t memory_units(size_t enabled);
  void add_backtrack(Entry& entry, const ActorId& actor, std::vector<ActorId> wakeup);
  std::vector<Sleeper> sleep_after(const Entry& parent, const Step& step) const;
  void analyse_races();
  void order_commuting_updates();
  void collect_events();
  /** Two events of the execution that race (first < second); `past`: what happens before the
   *  second other than through the first, where reverse_race needs it (else empty). */
  struct Race {
    uint32_t first = 0, second = 0;
    std::vector<uint32_t> past;
  };
  void reverse_race(const Race& race, const std::vector<std::vector<uint32_t>>& clocks,
                    const std::vector<uint32_t>& actor_index);
  static bool independent(const Footprint& a, const ActorId& actor_a, const Footprint& b, const ActorId& actor_b);
  static void merge_into(Footprint& into, const Footprint& from);

  std::vector<Entry> m_stack;
  size_t m_position = 0;
  std::vector<Step> m_steps;   ///< the scheduling steps of the current execution
  Footprint m_current;         ///< touches of the step in progress (unsorted)
  std::vector<SegmentMark> m_marks; ///< where forced drains begin and end in m_current
  std::vector<Event> m_events; ///< the current execution's steps, split at forced drains
  std::vector<uint32_t> m_first_event; ///< by step: its first event (and one past the last)
  bool m_in_step = false;
  /** The current step's value decisions: how many, the last one's index into m_stack, and
   *  whether a read in it told the order of commuting updates (spin_read_failed). */
  uint32_t m_step_decisions = 0;
  size_t m_step_decision = 0;
  bool m_step_order_seen = false;
  bool m_schedule_pending = false; ///< a scheduling point whose choose() is still to come
  bool m_abandoned = false;
  /** The Machine resumed awaiting threads (awaits_released): the rest of the execution is not
   *  analysed, and its decisions take their first option. */
  bool m_released = false;
  std::vector<uint32_t> m_taken;
  std::vector<ActorId> m_guide; ///< actors to prefer at the next new scheduling points, in order
  /** Objects whose commuting updates a read told apart in this execution: writes here. */
  std::vector<ObjectId> m_order_seen;
  std::string m_stop_reason;
  uint64_t m_enabled_entries = 0; ///< summed over m_stack's scheduling points
  void stop_too_long(uint64_t steps, uint64_t actors);
};

/** Helpers that dpor.cpp and dpor_races.cpp share. */
namespace dpor_detail {

inline bool contains(const std::vector<ActorId>& actors, const ActorId& actor) {
  return std::find(actors.begin(), actors.end(), actor) != actors.end();
}

/** Whether `step` arrives at the barrier whose release has footprint `release` (writes an
 *  arrival the release reads). */
inline bool arrives_at(const DporChoices::Footprint& step, const DporChoices::Footprint& release) {
  return std::any_of(step.begin(), step.end(), [&release](const DporChoices::Access& a) {
    return a.write && a.object.kind == ObjectKind::Arrival &&
           std::binary_search(release.begin(), release.end(), DporChoices::Access{a.object, false});
  });
}

template <typename Sleepers> bool listed(const Sleepers& sleepers, const ActorId& actor) {
  return std::any_of(sleepers.begin(), sleepers.end(), [&actor](const auto& s) { return s.actor == actor; });
}

} // namespace dpor_detail

} // namespace fencelab
