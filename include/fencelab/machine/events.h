// The Machine's event stream. Observers (trace recorder now; race, barrier and deadlock
// checkers later) subscribe to it and never change it (DESIGN "Observers").
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/ids.h"
#include "fencelab/machine/location.h"
#include "fencelab/support/source.h"

#include <string>
#include <utility>
#include <vector>

namespace fencelab {

#define FENCELAB_EVENT_KINDS(X)                                                                    \
  X(Load, "load")                                                                                  \
  X(Store, "store")                                                                                \
  X(Atomic, "atomic")                                                                              \
  X(Fence, "fence")                                                                                \
  X(BarrierArrive, "barrier arrive")                                                               \
  X(BarrierRelease, "barrier release")                                                             \
  X(ThreadExit, "exit")                                                                            \
  X(Print, "printf")                                                                               \
  X(ModelStep, "model step")                                                                       \
  X(Warp, "warp operation")                                                                        \
  X(BlockStart, "block start")                                                                     \
  X(Error, "error")                                                                                \
  X(AwaitsReleased, "waiting threads resumed") /* ChoiceSource::awaits_spins; text names them */

enum class EventKind : uint8_t {
#define X(name, spelling) name,
  FENCELAB_EVENT_KINDS(X)
#undef X
};

const char* event_kind_name(EventKind kind);

/** One event, as observers see it. Fields that do not apply to a kind keep their defaults. */
struct Event {
  uint64_t sequence = 0; ///< position in the execution, from 0
  EventKind kind = EventKind::Load;
  ThreadId thread;       ///< the thread (for ModelStep: the thread whose buffer it concerns)
  SourceRange range;     ///< the source of the operation
  Location location;     ///< Load, Store, Atomic
  std::string location_name; ///< e.g. "X", "shared_data[17]" (filled only for observers)
  Type type;             ///< of the value
  Word value = 0;        ///< Load: read; Store: written; Atomic: new value
  Word old_value = 0;    ///< Atomic: the value replaced
  AccessMode mode = AccessMode::Plain;
  Scope scope = Scope::Device; ///< Fence, Atomic
  AtomicOp atomic_op = AtomicOp::Add;
  uint32_t commuting_kind = 0; ///< Atomic: AtomicUpdate::commuting_kind
  std::string text;      ///< Print: output; ModelStep/Load: the model's explanation; Error: message;
                         ///< Warp: the operation and the values exchanged, lane by lane
  uint32_t warp_mask = 0; ///< Warp: the lanes that performed it together (the active mask)
  bool warp_undefined = false; ///< Warp: some lane shuffled from a lane outside the mask
  uint32_t object = 0;    ///< Load, Store, Atomic: Program::memory_objects index
  uint64_t read_from = 0; ///< Load, Atomic: id of the store read (0: the initial value)
  uint64_t store_id = 0;  ///< Store, Atomic: id of the store made; ModelStep: of the store drained
  /** BarrierRelease: the threads that waited and where; the block's threads that had exited. */
  std::vector<std::pair<ThreadId, SourceRange>> waiting;
  std::vector<ThreadId> exited;
  /** BlockStart: the block's shared-memory instances are [first_instance, first_instance + instance_count). */
  uint32_t first_instance = 0;
  uint32_t instance_count = 0;
};

struct ExecutionResult;

class EventObserver {
public:
  virtual ~EventObserver() = default;
  virtual void on_event(const Event& event) = 0;
  /** Whether the observer reads the text fields (location names, explanations); building them
   *  costs time, so checkers say no. */
  virtual bool wants_text() const { return true; }
  /** Whether the observer reads ModelStep events (a buffered store reaching memory); the
   *  checkers do not, and describing each drain costs time. */
  virtual bool wants_model_steps() const { return true; }
  /** Whether the observer reads BarrierArrive events; the checkers do not (the release lists
   *  the participants), and a tree reduction arrives about twice for each of its other events.
   *  Declined events of either kind still take their place in the sequence (Event::sequence). */
  virtual bool wants_barrier_arrivals() const { return true; }
  virtual void begin_execution() {}
  virtual void end_execution(const ExecutionResult& result) {}
  /** A hint, never an event: `thread` is likely to act soon (the Machine predicts the random
   *  scheduler's next pick), so an observer may start loading what it keeps for that thread
   *  into the caches. It must change nothing an observer reports. */
  virtual void prefetch_thread(const ThreadId& thread) {}
  /** A hint like prefetch_thread: the thread predicted to act next is about to access
   *  `location`. */
  virtual void prefetch_location(Location location) {}
};

} // namespace fencelab
