// Memory accesses (memory_access.h): the checks, the events for observers, atomics, and the
// out-of-line load and store of the AST walker.
#include "memory_access.h"

#include <fmt/format.h>

namespace fencelab {

namespace {

const char* access_verb(EventKind kind) {
  return kind == EventKind::Load ? "read" : kind == EventKind::Store ? "write" : "atomic";
}

/** What the checks of an access into an array of elements say (resolve). */
enum class ElementCheck : uint8_t { Ok, Misaligned, WrongSize, OutOfBounds };

// A location is a naturally aligned element (DESIGN "Memory models"); accesses of another
// size would split or merge locations, which the models do not describe.
// Programming Guide 5.3.2: device memory accesses must be naturally aligned (an access of
// N bytes at an address that is a multiple of N; allocations start 256-byte aligned). This
// holds whatever the elements' size, so it is checked first.
// Every scalar's size is a power of two (types.h), so alignment is a mask and the index a
// shift (an arithmetic shift: exact for the aligned offsets that reach it).
ElementCheck check_element_access(int64_t offset, uint32_t access_size, uint32_t element_size, uint32_t element_count,
                                  int64_t& index) {
  static_assert(scalar_size(ScalarType::Double) == 8 && scalar_size(ScalarType::Half) == 2);
  if ((offset & int64_t(access_size - 1)) != 0 || (offset & int64_t(element_size - 1)) != 0)
    return ElementCheck::Misaligned;
  if (access_size != element_size) return ElementCheck::WrongSize;
  index = offset >> std::countr_zero(element_size);
  return index < 0 || index >= int64_t(element_count) ? ElementCheck::OutOfBounds : ElementCheck::Ok;
}

} // namespace

ResolvedAccess resolve(Machine::Impl& m, SimThread& t, Word pointer, const Type& type, EventKind kind,
                       SourceRange range) {
  const PointerValue p = PointerValue::decode(pointer);
  ResolvedAccess access;
  uint32_t element_count = 0;
  // What the access is into, for fault messages only (built on a fault, not per access).
  const auto name = [&access] { return access.object ? "'" + access.object->name + "'" : std::string("a local array"); };
  if (p.kind == PointerKind::Null) {
    m.fault(t, range, RuntimeErrorKind::NullPointer, fmt::format("{} through a null pointer", access_verb(kind)));
  } else if (p.kind == PointerKind::LocalArray) {
    if (p.object >= t.local_arrays.size()) m.fault(t, range, "access through a dangling pointer");
    access.local = &t.local_arrays[p.object];
    access.element_type = access.local->element_type;
    element_count = static_cast<uint32_t>(access.local->elements.size());
  } else {
    if (p.object >= m.program.memory_objects.size()) m.fault(t, range, "access through an invalid pointer");
    access.object = &m.program.memory_objects[p.object];
    access.element_type = access.object->element_type;
    element_count = access.object->element_count;
  }
  const uint32_t size = access.element_type.size();
  const uint32_t access_size = type.size();
  int64_t index = 0;
  switch (check_element_access(p.offset, access_size, size, element_count, index)) {
  case ElementCheck::Ok: break;
  case ElementCheck::Misaligned:
    m.fault(t, range, RuntimeErrorKind::Misaligned,
            fmt::format("misaligned {}-byte {} of {} at byte offset {}", access_size, access_verb(kind), name(),
                        p.offset));
  case ElementCheck::WrongSize:
    m.fault(t, range, RuntimeErrorKind::Unsupported,
            fmt::format("not supported: {}-byte {} of {}, whose elements are {}-byte {}", access_size,
                        access_verb(kind), name(), size, access.element_type.to_string()));
  case ElementCheck::OutOfBounds:
    m.fault(t, range, RuntimeErrorKind::OutOfBounds,
            fmt::format("out-of-bounds {}: {}[{}], which has {} element{}", access_verb(kind), name(), index,
                        element_count, element_count == 1 ? "" : "s"));
  }
  access.index = static_cast<uint32_t>(index);
  if (access.object != nullptr) {
    access.object_id = p.object;
    access.location = Location{m.layout.instance_of(p.object, t.ref.block_slot), access.index};
  }
  return access;
}

bool Machine::Impl::address_always_valid(Word pointer, const Type& type) const {
  const PointerValue p = PointerValue::decode(pointer);
  if (p.kind != PointerKind::Object || p.object >= program.memory_objects.size()) return false;
  const MemoryObject& object = program.memory_objects[p.object];
  int64_t index = 0;
  return check_element_access(p.offset, type.size(), object.element_type.size(), object.element_count, index) ==
         ElementCheck::Ok;
}

/** The event of a memory access, for observers; text fields only when they are read. Built in
 *  the Machine's access_event_buffer: every field an access event has is set here, those of
 *  an atomic by the caller after; the others (barrier, warp, block fields) are never set in
 *  that buffer and keep their defaults. */
Event& access_event(Machine::Impl& m, EventKind kind, const SimThread& t, SourceRange range, const ResolvedAccess& a,
                    Word value, AccessMode mode) {
  Event& e = m.access_event_buffer;
  e.kind = kind;
  e.thread = t.ref.id;
  e.range = range;
  e.location = a.location;
  e.object = a.object_id;
  e.type = a.element_type;
  e.value = value;
  e.mode = mode;
  e.read_from = kind != EventKind::Store ? m.model->last_read_source(t.ref) : 0;
  e.store_id = kind != EventKind::Load ? m.model->last_store_id(t.ref) : 0;
  e.old_value = 0;
  e.scope = Scope::Device; // Event's defaults
  e.atomic_op = AtomicOp::Add;
  e.commuting_kind = 0;
  e.location_name.clear();
  e.text.clear();
  if (m.observer_wants_text) {
    e.location_name = m.layout.describe(a.location);
    if (kind != EventKind::Store) e.text = m.model->explain_last(t.ref);
  }
  return e;
}

void fault_constant_write(Machine::Impl& m, SimThread& t, SourceRange range, const MemoryObject& object) {
  m.fault(t, range, fmt::format("write to __constant__ variable '{}'", object.name));
}

Word Machine::Impl::load(SimThread& thread, Word pointer, const Type& type, SourceRange range) {
  return load_memory(*this, thread, pointer, type, range, false);
}

void Machine::Impl::store(SimThread& thread, Word pointer, const Type& type, Word value, SourceRange range) {
  store_memory(*this, thread, pointer, type, value, range, false);
}

Word Machine::Impl::atomic(SimThread& thread, Word pointer, const AtomicUpdate& update, Scope scope,
                           SourceRange range) {
  const ResolvedAccess a = resolve_atomic(thread, pointer, update, range);
  before_read_event(thread, EventKind::Atomic, range, a.location);
  return perform_atomic(thread, a, update, scope, range);
}

ResolvedAccess Machine::Impl::resolve_atomic(SimThread& thread, Word pointer, const AtomicUpdate& update,
                                             SourceRange range) {
  ResolvedAccess a = resolve(*this, thread, pointer, update.type, EventKind::Atomic, range);
  if (a.local != nullptr)
    fault(thread, range, RuntimeErrorKind::Unsupported, "not supported: an atomic operation on a thread-local array");
  if (a.object->space == MemorySpace::Constant)
    fault(thread, range, fmt::format("atomic write to __constant__ variable '{}'", a.object->name));
  return a;
}

Word Machine::Impl::perform_atomic(SimThread& thread, const ResolvedAccess& a, const AtomicUpdate& update,
                                   Scope scope, SourceRange range) {
  AtomicUpdate stored = update;
  stored.storage_type = a.element_type;
  const Word old = model->read_modify_write(thread.ref, a.location, scope, stored);
  const uint32_t commuting_kind = observing() ? stored.commuting_kind_found(old) : 0;
  if (observing()) {
    const ObjectId accesses{ObjectKind::Accesses, 0, a.location.key()};
    if (commuting_kind != 0) touch_commuting(accesses, commuting_kind);
    else touch(accesses, true);
  }
  // An atomic that wrote back the value it found (a failed CAS, atomicAdd(p, 0)) changed nothing.
  after_read_event(thread, stored.apply(old) != old);
  if (observing()) {
    Event& e = access_event(*this, EventKind::Atomic, thread, range, a, stored.apply(old), AccessMode::Atomic);
    e.old_value = old;
    e.scope = scope;
    e.atomic_op = update.op;
    e.commuting_kind = commuting_kind;
    emit_event(e);
  }
  return reinterpret_word(old, a.element_type, update.type);
}

} // namespace fencelab
