// Spin-loop recognition (DESIGN "Machine"; docs/architecture.md, "Spin loops"): a read that
// repeats a no-op iteration waits until its location changes, and the stutter rule. Also the
// private-state snapshots that recognition, and that of loops touching no memory at all
// (count_local_step), compare.
#include "machine_impl.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

void Machine::Impl::location_changed(Location location) {
  if (LocationWatch* watch = watched_locations.find(location.key())) ++watch->changes;
  // Threads spinning on this location may read something new: they run again, enabled by
  // the step that changed it (a dependence the reduction must see).
  size_t kept = 0;
  for (uint32_t slot : spinning) {
    SimThread& t = threads[slot];
    if (t.snapshot.location == location) {
      t.spinning = false;
      ready.push_back(slot);
      touch(ObjectId::thread(slot), true);
    } else {
      spinning[kept++] = slot;
    }
  }
  spinning.resize(kept);
}

uint64_t Machine::Impl::location_epoch(Location location) const {
  // Asked only where the thread watches `location` (its previous read's, same_state below);
  // elsewhere the answer is never equal to epoch_after_last.
  const LocationWatch* watch = watched_locations.find(location.key());
  return watch ? watch->changes : ~0ull - 1;
}

uint64_t Machine::Impl::watch(SimThread& thread, Location location) {
  if (thread.watching && thread.watched == location) return watched_locations.find(location.key())->changes;
  unwatch(thread);
  LocationWatch& watch = watched_locations[location.key()];
  ++watch.watchers;
  thread.watching = true;
  thread.watched = location;
  return watch.changes;
}

void Machine::Impl::unwatch(SimThread& thread) {
  if (!thread.watching) return;
  thread.watching = false;
  if (--watched_locations.find(thread.watched.key())->watchers == 0) watched_locations.erase(thread.watched.key());
}

void Machine::Impl::take_snapshot(const SimThread& thread, SourceRange range, Location location, const void* site,
                                  ThreadSnapshot& s) const {
  s.valid = true;
  s.range = range;
  s.site = site;
  s.location = location;
  s.frames.clear();
  for (const Frame& f : thread.frames) {
    s.frames.push_back(f.function);
    s.frames.push_back(f.call_site);
  }
  s.slots.assign(thread.slots.begin(), thread.slots.end());
  s.local_arrays.clear();
  for (const LocalArray& a : thread.local_arrays)
    s.local_arrays.insert(s.local_arrays.end(), a.elements.begin(), a.elements.end());
}

bool Machine::Impl::same_private_state(const SimThread& thread, const ThreadSnapshot& s) {
  if (thread.slots.size() != s.slots.size() || !std::equal(thread.slots.begin(), thread.slots.end(), s.slots.begin()))
    return false;
  if (thread.frames.size() * 2 != s.frames.size()) return false;
  for (size_t i = 0; i < thread.frames.size(); ++i)
    if (thread.frames[i].function != s.frames[2 * i] || thread.frames[i].call_site != s.frames[2 * i + 1]) return false;
  size_t at = 0;
  for (const LocalArray& a : thread.local_arrays) {
    if (at + a.elements.size() > s.local_arrays.size() ||
        !std::equal(a.elements.begin(), a.elements.end(), s.local_arrays.begin() + at))
      return false;
    at += a.elements.size();
  }
  return at == s.local_arrays.size();
}

void Machine::Impl::before_read_event(SimThread& thread, EventKind kind, SourceRange range,
                                      Location location) {
  take_snapshot(thread, range, location, thread.read_site, thread.snapshot);
  // The same private state as before the previous read, which changed no memory, with no other
  // visible event since: the iteration between them was a no-op unless `location` changed.
  const bool same_state = !thread.last_changed_memory && thread.snapshot == thread.last_snapshot &&
                          thread.visible_events == thread.events_after_last;
  // Whether it spins then depends on what `location` holds (only then: otherwise it does not).
  if (same_state) touch(ObjectId::history(location), false);
  thread.spinning = same_state && thread.epoch_after_last == location_epoch(location) &&
                    model->repeat_load_is_determined(thread.ref, location);
  before_visible_event(thread, kind, range);
  // Scheduled again: if still nothing changed, this read repeats the last one (stutter rule).
  model->require_newer_read(same_state && thread.epoch_after_last == location_epoch(location));
}

void Machine::Impl::after_read_event(SimThread& thread, bool changed_memory) {
  model->require_newer_read(false);
  std::swap(thread.last_snapshot, thread.snapshot);
  thread.epoch_after_last = watch(thread, thread.last_snapshot.location);
  thread.events_after_last = thread.visible_events;
  thread.last_changed_memory = changed_memory;
  thread.spinning = false;
}

} // namespace fencelab
