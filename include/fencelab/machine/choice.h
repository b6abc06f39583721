// The one interface for every nondeterministic decision (STYLE 3; DESIGN "Choices").
//
// The Machine and the memory models ask "which of these N?" and nothing else. The random
// explorer answers from a seeded generator, the exhaustive explorer from a depth-first search
// over choice sequences, replay from a recorded token. A decision with one option is never
// asked, so a replay token lists only real decisions.
#pragma once

#include "fencelab/machine/footprint.h"

#include <cstdint>
#include <span>

namespace fencelab {

#define FENCELAB_CHOICE_KINDS(X)                                                                   \
  X(Schedule, "schedule")   /* which enabled thread (or model step) goes next */                   \
  X(ReadFrom, "read-from")  /* which store in a location's history a load reads */                 \
  X(Drain, "drain")         /* which buffered store drains to memory */                            \
  X(Value, "value")         /* an arbitrary value (undefined results) */

enum class ChoiceKind : uint8_t {
#define X(name, spelling) name,
  FENCELAB_CHOICE_KINDS(X)
#undef X
};

const char* choice_kind_name(ChoiceKind kind);

class ChoiceSource {
public:
  virtual ~ChoiceSource() = default;
  /** Returns a number in [0, options); `options` is at least 2. The first `common` options
   *  are the usual case (the newest value; draining a buffered store promptly): a biased
   *  random explorer favours them, the others ignore the hint. */
  virtual uint32_t choose(uint32_t options, ChoiceKind kind, uint32_t common = 0) = 0;
  /** A hint for prefetching, never a decision: fills `ahead[k]` with what the (k+1)-th next
   *  choose(options, Schedule, common) would return if every one of them had these arguments,
   *  and returns true; false where the source cannot tell (the default). It draws nothing:
   *  what choose returns is the same whether or not this was asked. */
  virtual bool predict(uint32_t options, uint32_t common, std::span<uint32_t> ahead) const { return false; }

  // Partial-order reduction (footprint.h; DESIGN "Reduction"). A source that records
  // footprints is told, before every scheduling decision (also one with a single option, which
  // choose() never sees), who the options' actors are; and between two such points, every
  // object the step taken touched.
  virtual bool records_footprints() const { return false; }
  /** Whether spins are awaited (not under --warp lockstep). A thread whose spin iteration
   *  failed (it is about to repeat a read with its private state unchanged, no memory written)
   *  is then not woken by a change to what it read. The failed read races with that change, so
   *  the explorer also runs the order where the read comes after it: each spin costs one read
   *  per execution, not one per value it fails on. Only when nothing else can run are waiting
   *  threads that could read something new resumed (awaits_released(); ExecutionResult::
   *  awaits_released): the execution stays one of the kernel's, with those threads slow
   *  (docs/architecture.md, "Awaiting spins"). */
  virtual bool awaits_spins() const { return false; }
  /** The Machine resumed awaiting threads: from here on it records no footprints. */
  virtual void awaits_released() {}
  /** Under awaits_spins: the thread taking the current step has failed a spin iteration of
   *  one read, a load made in this step. Its read-from decision, if it had one, picked a
   *  failing value; another failing value there leads to the same awaiting thread
   *  (docs/architecture.md, "Failing values"). */
  virtual void spin_read_failed() {}
  virtual void schedule_point(std::span<const ActorId> actors) {}
  /** A step of `actor` that follows the step before it at once, no decision between them: a
   *  barrier release whose participants have nothing buffered (MemoryModel::barrier_drains).
   *  A step of its own for the reduction, so that the order of arrivals does not matter, but
   *  one that no other actor can precede: a race with it reverses before the step that made it
   *  due. */
  virtual void at_once_step(const ActorId& actor) { schedule_point(std::span<const ActorId>(&actor, 1)); }
  virtual void touch(const ObjectId& object, bool write) {}
  /** A commuting update (FootprintSink::touch_commuting); by default a write. */
  virtual void touch_commuting(const ObjectId& object, uint32_t kind) { touch(object, true); }
  /** A lane the step needs empty (FootprintSink::touch_emptied); by default a read. */
  virtual void touch_emptied(const ObjectId& lane) { touch(lane, false); }
  virtual void commuting_order_seen(const ObjectId& object) {}
  /** A step of another actor taken inside the current one (FootprintSink::begin_forced_step). */
  virtual void begin_forced_step(const ActorId& actor) {}
  virtual void end_forced_step() {}
  /** Checked after each scheduling decision: true ends the execution at once (its result is
   *  then meaningless and must be discarded): the explorer knows it repeats explored ones. */
  virtual bool abandon() const { return false; }
  /** Asked now and then within an execution (every Machine::kInterruptInterval passes of its
   *  scheduling loop): true ends the execution at once, unfinished, to be discarded. A search
   *  ends so on its time limit or a signal although one execution (a large grid) takes long. */
  virtual bool interrupted() { return false; }
};

} // namespace fencelab
