// The narrow interface between the Machine and a memory model (DESIGN "MemoryModel";
// STYLE 2). The Machine calls these and never sees a store buffer or a view; a model is the
// only place that knows about them. One class per model (models/).
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/choice.h"
#include "fencelab/machine/footprint.h"
#include "fencelab/machine/ids.h"
#include "fencelab/machine/location.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

class MemoryModel {
public:
  virtual ~MemoryModel() = default;

  virtual const char* name() const = 0;

  /** Starts a fresh execution. `choices` answers the model's own decisions (which store a
   *  load reads, which buffered store drains); it outlives the execution. */
  virtual void begin_execution(ChoiceSource& choices) = 0;

  /** Sets an instance's contents to `initial` (canonical words): at execution start for every
   *  global and constant object, and for a block's shared copy when the block becomes resident.
   *  Any history the instance had is discarded. */
  virtual void init_instance(uint32_t instance, std::span<const Word> initial) = 0;

  /** A block is becoming resident in `block_slot` (its block-scope state starts fresh). */
  virtual void begin_block(uint32_t block_slot) {}

  /** A thread is starting in slot `t.slot`; anything an earlier thread of the slot left
   *  buffered drains first. */
  virtual void thread_start(const ThreadRef& t) {}

  /** Whether thread `t` loading `location` again now must return what it returned last time,
   *  provided no memory changes meanwhile (the Machine's spin-loop recognition relies on it). */
  virtual bool repeat_load_is_determined(const ThreadRef& t, Location location) const { return true; }

  /** Which store thread `t`'s last load or atomic read: 0 for a location's initial value, else
   *  the id the model gave that store (ids count stores in the order they were performed).
   *  Observers use it to pair writers with readers (reads-from). */
  virtual uint64_t last_read_source(const ThreadRef& t) const = 0;
  /** The id of the store thread `t`'s last store or atomic made. */
  virtual uint64_t last_store_id(const ThreadRef& t) const = 0;
  /** A hint: the Machine expects to resume the thread in `slot` soon (it predicted the next
   *  pick), so the model may start loading what it keeps for that slot into the caches. It
   *  changes nothing. */
  virtual void prefetch_thread(ThreadSlot slot) const {}
  /** A hint: that thread's pending event accesses `location`, whose value the model may start
   *  loading into the caches (a large grid's input is read once per element, each read a
   *  miss). It changes nothing. */
  virtual void prefetch_location(Location location) const {}

  /** The Machine's stutter rule, set before each load. On: thread `t` repeats its last load
   *  from the same state with no memory changed since, so reading the value it read last time
   *  again would only repeat a loop iteration. The load then returns a newer store than last
   *  time (the Machine sets this only when one exists, see repeat_load_is_determined). No
   *  outcome is lost: any execution that re-reads the stale value k times is the same as one
   *  that reads it once. Without the rule an exhaustive search never leaves a spin loop on a
   *  stale value (DESIGN "Machine", spin loops). */
  void require_newer_read(bool on) { m_newer_read_required = on; }
  bool newer_read_required() const { return m_newer_read_required; }

  /** With explanations on, the model describes its last operation for traces. */
  void set_explaining(bool on) { m_explaining = on; }
  bool explaining() const { return m_explaining; }

  /** A load by thread `t`; returns the canonical word read. */
  virtual Word load(const ThreadRef& t, Location location, AccessMode mode) = 0;

  /** A store by thread `t`. */
  virtual void store(const ThreadRef& t, Location location, Word value, AccessMode mode) = 0;

  /** An atomic read-modify-write; returns the old value. */
  virtual Word read_modify_write(const ThreadRef& t, Location location, Scope scope,
                                 const AtomicUpdate& update) = 0;

  /** `__threadfence_block`, `__threadfence`, `__threadfence_system`. */
  virtual void fence(const ThreadRef& t, Scope scope) = 0;

  /** A barrier completing: every participant has arrived (`__syncthreads`, `__syncwarp`). */
  virtual void barrier(std::span<const ThreadRef> participants) = 0;

  /** Whether barrier(participants) would drain a buffered store. Where it would not, the
   *  release touches only what the participants alone read (their views, their control), so it
   *  commutes with every other step and may follow the last arrival at once; where it would,
   *  other threads and drains may run between the last arrival and the release, which the
   *  Machine then offers to the scheduler as a step of its own (docs/architecture.md,
   *  "Barrier releases"). */
  virtual bool barrier_drains(std::span<const ThreadRef> participants) const { return false; }

  /** A thread has finished its kernel; what it buffered stays until drained. */
  virtual void thread_exit(const ThreadRef& t) = 0;

  /** Steps the model can take by itself at this point (e.g. draining a buffered store). The
   *  Machine offers them to the scheduler beside the threads' next events. */
  virtual uint32_t internal_step_count() const { return 0; }
  virtual void internal_step(uint32_t index) {}
  /** What internal step `index` would do, for traces: the store it makes visible. */
  struct InternalStep {
    ThreadId thread;   ///< whose buffered store
    Location location;
    Word value = 0;
    uint64_t store_id = 0; ///< the id the store got when it was made (last_store_id)
    std::string text;  ///< e.g. "X=10 drains from thread (0,0,0)'s store buffer to memory"
  };
  /** What internal step `index` would do; `text` only when `with_text` (observers that
   *  render nothing, the checkers, must not pay for it in every execution). */
  virtual InternalStep describe_internal_step(uint32_t index, bool with_text) const { return {}; }

  /** Appends the actor of each internal step (the buffer lane it drains), in step order, for
   *  partial-order reduction: steps of one actor are always dependent. All at once, as a
   *  model finds step i only by walking its buffers up to it (a step at a time, a launch with
   *  thousands of buffered lanes took quadratic time at every schedule point). */
  virtual void internal_step_actors(std::vector<ActorId>& out) const {
    out.insert(out.end(), internal_step_count(), ActorId{});
  }

  /** Where the model reports which locations' newest values change, and, when `footprints`
   *  is on (an explorer reduces by partial order), what each operation touches (footprint.h).
   *  The Machine sets it; every operation of every model reports. */
  void set_footprint_sink(FootprintSink* sink, bool footprints) {
    m_sink = sink;
    m_footprints = sink != nullptr && footprints;
  }

  /** After the kernel ends: every buffer has drained; the value the host reads. */
  virtual void finish_execution() {}
  virtual Word final_value(Location location) const = 0;

  /** For traces (with explanations on): why thread `t`'s last load read what it did, or what
   *  its last fence or atomic drained and joined. Empty when there is nothing to say. */
  virtual std::string explain_last(const ThreadRef& t) const { return {}; }
  /** For traces: what the last barrier drained and joined. */
  virtual std::string explain_last_barrier() const { return {}; }

  /** Describes a location for explanations: "X", or with a value "X=10". */
  using LocationDescriber = std::function<std::string(Location, const Word*)>;
  void set_location_describer(LocationDescriber describer) { m_describer = std::move(describer); }

protected:
  void touch(const ObjectId& object, bool write) const {
    if (m_footprints) m_sink->touch(object, write); // off the hot path unless an explorer asks
  }
  /** Whether an explorer asks what each operation touches: work done only for it can wait. */
  bool recording_footprints() const { return m_footprints; }
  void touch_history(Location location, bool write) const { touch(ObjectId::history(location), write); }
  /** What a read-modify-write of `location` that finds `old` touches in its history: a
   *  write, or a commuting update where it commutes with others of its kind
   *  (AtomicUpdate::commuting_kind_found). */
  void touch_history_update(Location location, const AtomicUpdate& update, Word old) const {
    if (!m_footprints) return;
    if (const uint32_t kind = update.commuting_kind_found(old)) m_sink->touch_commuting(ObjectId::history(location), kind);
    else m_sink->touch(ObjectId::history(location), true);
  }
  /** FootprintSink::touch_emptied. */
  void touch_emptied(const ObjectId& lane) const {
    if (m_footprints) m_sink->touch_emptied(lane);
  }
  void commuting_order_seen(Location location) const {
    if (m_footprints) m_sink->commuting_order_seen(ObjectId::history(location));
  }
  /** Brackets the touches of a step of `actor` (a buffer lane's drain) that the current
   *  operation forces (FootprintSink::begin_forced_step). */
  void begin_forced_step(const ActorId& actor) const {
    if (m_footprints) m_sink->begin_forced_step(actor);
  }
  void end_forced_step() const {
    if (m_footprints) m_sink->end_forced_step();
  }
  /** A store reached `location`'s history (or an atomic changed it): spinners may wake. */
  void changed(Location location) const {
    if (m_sink) m_sink->location_changed(location);
  }

  std::string describe(Location location, const Word* value = nullptr) const {
    return m_describer ? m_describer(location, value) : "?";
  }

private:
  bool m_explaining = false;
  bool m_newer_read_required = false;
  LocationDescriber m_describer;
  FootprintSink* m_sink = nullptr;
  bool m_footprints = false;
};

/** The models this build has, by name (kModelNames order). */
bool model_is_implemented(std::string_view name);
/** Creates a model by name; null when unknown or not implemented. */
std::unique_ptr<MemoryModel> create_model(std::string_view name);

} // namespace fencelab
