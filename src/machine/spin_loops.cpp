// Spin-loop recognition (DESIGN "Machine"; docs/architecture.md, "Spin loops"): a read that
// repeats a no-op iteration waits until its location changes, and the stutter rule. Also the
// private-state snapshots that recognition, and that of loops touching no memory at all
// (count_local_step), compare.
#include "machine_impl.h"

#include <algorithm>
#include <cassert>
#include <fmt/format.h>
#include <span>

namespace fencelab {

void Machine::Impl::location_changed(Location location) {
  if (location.instance >= change_stamps.size()) change_stamps.resize(location.instance + 1);
  std::vector<uint64_t>& stamps = change_stamps[location.instance];
  if (stamps.empty())
    stamps.assign(program.memory_objects[layout.object_of_instance(location.instance)].element_count, 0);
  assert(location.index < stamps.size());
  stamps[location.index] = ++changes_seen;
  // Threads spinning on this location may read something new: they run again, enabled by
  // the step that changed it (a dependence the reduction must see).
  size_t kept = 0;
  for (uint32_t slot : spinning) {
    SimThread& t = threads[slot];
    if (t.snapshot.location != location) {
      spinning[kept++] = slot;
    } else if (awaiting_spins) {
      // Awaiting: it stays suspended until the release (release_awaits), now as a thread that
      // could pass. The order with its failed read after this change is another execution,
      // reached by reversing their race (the read touched the location's history, this
      // change writes it).
      t.await_would_retry = true;
      spinning[kept++] = slot;
    } else {
      t.spinning = false;
      ready.push_back(slot);
      touch(ObjectId::thread(slot), true);
    }
  }
  spinning.resize(kept);
}

uint64_t Machine::Impl::location_epoch(Location location) const {
  if (location.instance >= change_stamps.size()) return 0;
  const std::vector<uint64_t>& stamps = change_stamps[location.instance];
  return stamps.empty() ? 0 : stamps[location.index];
}

namespace {

/** The frames a snapshot holds: all but the bottom one, the kernel's, which every frame of the
 *  thread's life sits on unchanged (Machine::Impl::thread_main, run_stackless), so it cannot tell
 *  two of the thread's states apart; a stackless thread has no other, and its frames' buffer is
 *  not read. */
std::span<const Frame> frames_above_kernel(const SimThread& thread) {
  return std::span<const Frame>(thread.frames).subspan(std::min<size_t>(thread.frames.size(), 1));
}

/** Visits a thread's private state word by word, in the order of ThreadSnapshot::words: the
 *  function and call site of each frame above the kernel's, then the slots, then every local
 *  array's elements. */
template <class Visit> void for_each_state_word(const SimThread& thread, Visit&& visit) {
  for (const Frame& f : frames_above_kernel(thread)) {
    visit(reinterpret_cast<uintptr_t>(f.function));
    visit(reinterpret_cast<uintptr_t>(f.call_site));
  }
  for (const Word w : thread.slots) visit(w);
  for (const LocalArray& a : thread.local_arrays)
    for (const Word w : a.elements) visit(w);
}

size_t state_word_count(const SimThread& thread) {
  size_t size = frames_above_kernel(thread).size() * 2 + thread.slots.size();
  for (const LocalArray& a : thread.local_arrays) size += a.elements.size();
  return size;
}

/**
 * The fingerprint of a private state of `size` words. Any function of the words would do, as
 * equal fingerprints are confirmed by comparing the words. Each word is mixed with its position
 * on its own (an odd multiplier, 2^64 over the golden ratio, makes the mix one-to-one, so states
 * that differ in one word always differ here) and the mixes are summed: no chain of
 * multiplications from word to word, which made hashing a state cost more than copying it.
 */
class StateHash {
public:
  explicit StateHash(size_t size) : hash_(size * 0x9e3779b97f4a7c15ull) {}
  void add(Word w) { hash_ += (w ^ (position_ += 0xbf58476d1ce4e5b9ull)) * 0x9e3779b97f4a7c15ull; }
  uint64_t value() const { return hash_ ^ (hash_ >> 31); }

private:
  uint64_t hash_;
  uint64_t position_ = 0;
};

} // namespace

bool Machine::Impl::read_may_repeat(const SimThread& thread) const {
  // A read from which every path back to its expression passes a barrier or a fence
  // (Instr::read_repeatable) is never the same place as the thread's next read after it with
  // no visible event between, so its snapshot could equal none compared with it.
  if (!thread.read_site_repeatable) return false;
  // The bottom frame is the kernel's (kernel_has_loop): a stackless thread has only that one,
  // and its frames' buffer, cold at a large grid's resumption, is not read for it.
  if (kernel_has_loop) return true;
  const std::span<const Frame> frames = frames_above_kernel(thread);
  return std::any_of(frames.begin(), frames.end(), [](const Frame& f) { return f.function->contains_loop; });
}

void Machine::Impl::take_snapshot(SimThread& thread, SourceRange range, Location location, const void* site,
                                  ThreadSnapshot& s) const {
  thread.spin_state_clean = false;
  s.valid = true;
  s.range = range;
  s.site = site;
  s.location = location;
  // The buffer is resized only when the state's size changed (a call, a return): a thread's
  // successive snapshots, which swap buffers (after_read_event), mostly have the same size.
  const size_t size = state_word_count(thread);
  if (s.words.size() != size) s.words.resize(size);
  Word* out = s.words.data();
  StateHash hash(size);
  for_each_state_word(thread, [&](Word w) {
    *out++ = w;
    hash.add(w);
  });
  s.frame_words = static_cast<uint32_t>(frames_above_kernel(thread).size() * 2);
  s.slot_words = static_cast<uint32_t>(thread.slots.size());
  s.fingerprint = hash.value();
}

bool Machine::Impl::same_private_state(const SimThread& thread, const ThreadSnapshot& s) {
  const std::span<const Frame> frames = frames_above_kernel(thread);
  if (frames.size() * 2 != s.frame_words || thread.slots.size() != s.slot_words) return false;
  const Word* word = s.words.data();
  for (const Frame& f : frames) {
    if (word[0] != reinterpret_cast<uintptr_t>(f.function) || word[1] != reinterpret_cast<uintptr_t>(f.call_site))
      return false;
    word += 2;
  }
  if (!std::equal(thread.slots.begin(), thread.slots.end(), word)) return false;
  size_t at = s.frame_words + s.slot_words;
  for (const LocalArray& a : thread.local_arrays) {
    if (at + a.elements.size() > s.words.size() ||
        !std::equal(a.elements.begin(), a.elements.end(), s.words.begin() + at))
      return false;
    at += a.elements.size();
  }
  return at == s.words.size();
}

bool Machine::Impl::prepare_read_event(SimThread& thread, SourceRange range, Location location) {
  // Where spin_state_clean, both snapshots are invalid already: their lines are left alone.
  if (read_may_repeat(thread)) take_snapshot(thread, range, location, thread.read_site, thread.snapshot);
  else if (!thread.spin_state_clean) thread.snapshot.reset(); // equal to no other (valid false)
  // The same private state as before the previous read, which changed no memory, with no other
  // visible event since: the iteration between them was a no-op unless `location` changed.
  const bool follows_read_only = !thread.last_changed_memory && thread.visible_events == thread.events_after_last;
  const bool same_state = follows_read_only && !thread.spin_state_clean && thread.snapshot == thread.last_snapshot;
  // Whether it spins then depends on what `location` holds (only then: otherwise it does not).
  if (same_state) touch(ObjectId::history(location), false);
  thread.spinning = same_state && thread.epoch_after_last == location_epoch(location) &&
                    model->repeat_load_is_determined(thread.ref, location);
  // Awaiting spins (ChoiceSource::awaits_spins; Kokologiannakis, Ren and Vafeiadis, "Dynamic
  // Partial Order Reductions for Spinloops", FMCAD 2021): a failed iteration ends the thread's
  // part in this execution. Where the read could return something else, another execution
  // has the failed read return it, or come after the change: this one only repeats that.
  if (awaiting_spins && same_state) {
    thread.await_would_retry = !thread.spinning;
    thread.spinning = true;
    choices->spin_read_failed();
  } else if (awaiting_spins) {
    thread.in_read_chain = follows_read_only;
    await_longer_iteration(thread);
  }
  return same_state;
}

// An iteration of several reads, none writing, with no other visible event (a test-and-test-
// and-set lock's read and failed atomicCAS) that brought the thread back to the state before
// its first read did nothing either. Awaited like a one-read iteration, but always as one that
// would read again: outside awaiting such loops are not recognised (they run on to the step
// limit if they never pass), so resuming them at the release keeps the executions the same.
void Machine::Impl::await_longer_iteration(SimThread& thread) {
  if (!thread.in_read_chain) return;
  for (const ThreadSnapshot& earlier : thread.read_chain) {
    if (earlier == thread.snapshot) {
      thread.spinning = true;
      thread.await_would_retry = true;
      return;
    }
  }
}

void Machine::Impl::extend_read_chain(SimThread& thread, bool changed_memory) {
  if (!thread.in_read_chain || changed_memory) thread.read_chain.clear();
  if (changed_memory) return;
  thread.spin_state_clean = false;
  if (thread.read_chain.size() == SimThread::kReadChainLength) thread.read_chain.erase(thread.read_chain.begin());
  thread.read_chain.push_back(thread.snapshot); // the state before this read
}

void Machine::Impl::after_read_event(SimThread& thread, bool changed_memory) {
  model->require_newer_read(false);
  if (awaiting_spins) extend_read_chain(thread, changed_memory);
  // The epoch matters only to a next read in the same state (before_read_event). A snapshot
  // that equals nothing is not moved: only that it equals nothing is kept.
  if (!thread.spin_state_clean) { // else both are invalid already
    if (thread.snapshot.valid) {
      std::swap(thread.last_snapshot, thread.snapshot);
      thread.epoch_after_last = location_epoch(thread.last_snapshot.location);
    } else {
      thread.last_snapshot.valid = false;
    }
  }
  thread.events_after_last = thread.visible_events;
  thread.last_changed_memory = changed_memory;
  thread.spinning = false;
  thread.await_would_retry = false;
  thread.in_read_chain = false;
}

} // namespace fencelab
