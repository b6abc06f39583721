// The Machine's event stream. Observers (trace recorder now; race, barrier and deadlock
// checkers later) subscribe to it and never change it (DESIGN "Observers").
#pragma once

#include "fencelab/frontend/types.h"
#include "fencelab/machine/atomic_update.h"
#include "fencelab/machine/ids.h"
#include "fencelab/machine/location.h"
#include "fencelab/support/source.h"

#include <string>

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
  X(Error, "error")

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
  std::string text;      ///< Print: output; ModelStep/Load: the model's explanation; Error: message
};

class EventObserver {
public:
  virtual ~EventObserver() = default;
  virtual void on_event(const Event& event) = 0;
};

} // namespace fencelab
