// Memory accesses: decode the pointer, check it, suspend before the visible event, then ask
// the model. Thread-private arrays and constant memory are not shared mutable state, so their
// accesses are not visible events.
//
// A load's and a store's bodies are here, inline, for the bytecode loop to inline them
// (bytecode_vm.cpp); memory_access.cpp has the same as Machine::Impl::load and store for the
// AST walker, and what runs before the switch or on a fault. A thread that comes back from the
// scheduler inside an access returns through every frame between the switch and the code that
// goes on, and after a fiber switch the CPU mispredicts each of those returns (its return-
// address predictor holds the other side's calls): inlined, the access returns through none.
// (docs/architecture.md, "Few returns after a switch", says what it gained.)
#pragma once

#include "machine_impl.h"

#include <bit>

namespace fencelab {

/** Decodes and checks an access of `type` through `pointer`; a bad one faults the thread. */
ResolvedAccess resolve(Machine::Impl& m, SimThread& t, Word pointer, const Type& type, EventKind kind,
                       SourceRange range);

/** resolve, for a pointer that Machine::Impl::address_always_valid vouched for: its checks
 *  would all pass, so only the location is worked out. */
inline ResolvedAccess resolve_checked(const Machine::Impl& m, const SimThread& t, Word pointer) {
  const PointerValue p = PointerValue::decode(pointer);
  ResolvedAccess access;
  access.object = &m.program.memory_objects[p.object];
  access.element_type = access.object->element_type;
  access.object_id = p.object;
  access.index = static_cast<uint32_t>(p.offset >> std::countr_zero(access.element_type.size()));
  access.location = Location{m.layout.instance_of(p.object, t.ref.block_slot), access.index};
  return access;
}

inline AccessMode mode_of(const Type& type, const MemoryObject* object) {
  if (type.is_volatile || (object != nullptr && object->is_volatile)) return AccessMode::Volatile;
  return AccessMode::Plain;
}

/** The event of a memory access, for observers; text fields only when they are read. */
Event& access_event(Machine::Impl& m, EventKind kind, const SimThread& t, SourceRange range, const ResolvedAccess& a,
                    Word value, AccessMode mode);

/** A store to __constant__ memory: the thread's fault. */
[[noreturn]] void fault_constant_write(Machine::Impl& m, SimThread& t, SourceRange range, const MemoryObject& object);

/** A load's private case: a thread-private array's or constant memory's element is read
 *  without a visible event. True, with `value`, if `a` is one. */
[[gnu::always_inline]] inline bool load_without_event(const Machine::Impl& m, const ResolvedAccess& a, const Type& type,
                                                      Word& value) {
  if (a.local != nullptr) value = reinterpret_word(a.local->elements[a.index], a.element_type, type);
  else if (a.object->space == MemorySpace::Constant)
    value = reinterpret_word(m.layout.initial_contents(a.location.instance)[a.index], a.element_type, type);
  else return false;
  return true;
}

/** A load's visible event once the thread is scheduled: the model's load and the observers. */
[[gnu::always_inline]] inline Word perform_load(Machine::Impl& m, SimThread& thread, const ResolvedAccess& a,
                                                const Type& type, SourceRange range) {
  const AccessMode mode = mode_of(type, a.object);
  const Word raw = m.model->load(thread.ref, a.location, mode);
  m.after_read_event(thread, false);
  if (m.observing()) {
    m.touch(ObjectId{ObjectKind::Accesses, 0, a.location.key()}, false);
    m.emit_event(access_event(m, EventKind::Load, thread, range, a, raw, mode));
  }
  return reinterpret_word(raw, a.element_type, type);
}

/** A store's private case: a thread-private array's element is written without a visible
 *  event (true), a __constant__ one faults; false for shared memory. `raw` is the element's
 *  word. */
[[gnu::always_inline]] inline bool store_without_event(Machine::Impl& m, SimThread& thread, const ResolvedAccess& a,
                                                       Word raw, SourceRange range) {
  if (a.local != nullptr) {
    a.local->elements[a.index] = raw;
    return true;
  }
  if (a.object->space == MemorySpace::Constant) fault_constant_write(m, thread, range, *a.object);
  return false;
}

/** A store's visible event once the thread is scheduled. */
[[gnu::always_inline]] inline void perform_store(Machine::Impl& m, SimThread& thread, const ResolvedAccess& a,
                                                 const Type& type, Word raw, SourceRange range) {
  const AccessMode mode = mode_of(type, a.object);
  m.model->store(thread.ref, a.location, raw, mode);
  thread.last_changed_memory = true;
  if (m.observing()) {
    m.touch(ObjectId{ObjectKind::Accesses, 0, a.location.key()}, true);
    m.emit_event(access_event(m, EventKind::Store, thread, range, a, raw, mode));
  }
}

[[gnu::always_inline]] inline ResolvedAccess resolve_access(Machine::Impl& m, SimThread& thread, Word pointer,
                                                            const Type& type, EventKind kind, SourceRange range,
                                                            bool address_checked) {
  return address_checked ? resolve_checked(m, thread, pointer) : resolve(m, thread, pointer, type, kind, range);
}

[[gnu::always_inline]] inline Word load_memory(Machine::Impl& m, SimThread& thread, Word pointer, const Type& type,
                                               SourceRange range, bool address_checked) {
  const ResolvedAccess a = resolve_access(m, thread, pointer, type, EventKind::Load, range, address_checked);
  Word value;
  if (load_without_event(m, a, type, value)) return value;
  m.before_read_event(thread, EventKind::Load, range, a.location);
  return perform_load(m, thread, a, type, range);
}

[[gnu::always_inline]] inline void store_memory(Machine::Impl& m, SimThread& thread, Word pointer, const Type& type,
                                                Word value, SourceRange range, bool address_checked) {
  const ResolvedAccess a = resolve_access(m, thread, pointer, type, EventKind::Store, range, address_checked);
  const Word raw = reinterpret_word(value, type, a.element_type);
  if (store_without_event(m, thread, a, raw, range)) return;
  m.before_visible_event(thread, EventKind::Store, range);
  perform_store(m, thread, a, type, raw, range);
}

} // namespace fencelab
