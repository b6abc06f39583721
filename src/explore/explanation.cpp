// Turning a recorded execution into a few plain sentences: which access read a stale value or
// passed a buffered store, and which fence (or wider scope) would forbid it.
//
// The events are replayed against a small shadow of memory: the newest drained value of each
// location and each thread's still-buffered stores. A load that returns neither the newest
// value nor its own buffered store read stale; a load that returns the newest value while
// another thread's store to the location is still buffered passed that store.
#include "fencelab/explore/explanation.h"

#include <fmt/format.h>
#include <map>
#include <optional>

namespace fencelab {

namespace {

struct StoreRecord {
  ThreadId writer;
  Word value = 0;
  const Event* store = nullptr; ///< the Store (or Atomic) event, when the trace has it
};

struct Shadow {
  std::map<uint64_t, StoreRecord> newest;                 ///< drained, by location key
  std::map<ThreadId, std::vector<const Event*>> buffered; ///< stores not yet drained, per thread
};

uint32_t line_of(const Program& program, const Event& e) { return program.source->position(e.range.begin).line; }

bool same_block(ThreadId a, ThreadId b) { return a.block == b.block; }

/** The fences `thread` performed between two of its events (by sequence). */
std::vector<const Event*> fences_between(const std::vector<Event>& events, ThreadId thread, uint64_t after,
                                         uint64_t before) {
  std::vector<const Event*> out;
  for (const Event& e : events)
    if (e.kind == EventKind::Fence && e.thread == thread && e.sequence > after && e.sequence < before)
      out.push_back(&e);
  return out;
}

/** Advice on fences: what is there, and what would forbid the outcome. */
std::string fence_advice(const std::vector<const Event*>& writer_fences, const std::vector<const Event*>& reader_fences,
                         ThreadId writer, ThreadId reader) {
  const bool same = same_block(writer, reader);
  auto weakest = [](const std::vector<const Event*>& fences) -> std::optional<Scope> {
    std::optional<Scope> best;
    for (const Event* f : fences)
      if (!best || f->scope > *best) best = f->scope;
    return best;
  };
  const auto w = weakest(writer_fences), r = weakest(reader_fences);
  const char* needed = same ? "__threadfence_block() (or a wider fence)" : "__threadfence()";
  if (w && r && !same && (*w == Scope::Block || *r == Scope::Block))
    return fmt::format("The threads are in different blocks (blocks {} and {}), and a __threadfence_block() "
                       "orders accesses only for threads of its own block: use __threadfence() in both "
                       "threads to forbid this outcome.",
                       writer.block, reader.block);
  if (!w && !r)
    return fmt::format("Neither thread has a fence between its two accesses: a {} in both threads, between "
                       "the accesses, forbids this outcome.",
                       needed);
  if (!w)
    return fmt::format("The writer {} has no fence between its two stores: with a {} there as well as the "
                       "reader's, this outcome is forbidden.",
                       writer.to_string(), needed);
  return fmt::format("The reader {} has no fence between its two loads: with a {} there as well as the "
                     "writer's, this outcome is forbidden (a fence in one thread alone does not order the other).",
                     reader.to_string(), needed);
}

} // namespace

std::vector<std::string> explain_execution(const Program& program, const std::vector<Event>& events,
                                           const ExplanationContext& context) {
  std::vector<std::string> sentences;
  Shadow shadow;
  auto record_drain = [&shadow](Location l, ThreadId writer, Word value, const Event* store) {
    shadow.newest[l.key()] = StoreRecord{writer, value, store};
  };
  const bool buffered_model = context.model != "sc";
  // Fences, barriers and atomics drain buffered stores inside the thread's own step, with no
  // event of their own: the shadow drains them there (tso: the whole buffer; gpu: a fence or
  // barrier the whole buffer, an atomic its location's stores).
  auto drain_thread = [&](ThreadId thread, const Location* only) {
    auto& pending = shadow.buffered[thread];
    for (auto it = pending.begin(); it != pending.end();) {
      if (only != nullptr && !((*it)->location == *only)) {
        ++it;
        continue;
      }
      record_drain((*it)->location, thread, (*it)->value, *it);
      it = pending.erase(it);
    }
  };
  for (const Event& e : events) {
    switch (e.kind) {
    case EventKind::Fence: drain_thread(e.thread, nullptr); break;
    case EventKind::BarrierRelease:
      for (const auto& [thread, range] : e.waiting) drain_thread(thread, nullptr);
      break;
    case EventKind::Store:
      if (buffered_model) shadow.buffered[e.thread].push_back(&e);
      else record_drain(e.location, e.thread, e.value, &e);
      break;
    case EventKind::ModelStep: {
      auto& pending = shadow.buffered[e.thread];
      for (auto it = pending.begin(); it != pending.end(); ++it) {
        if ((*it)->location == e.location && (*it)->value == e.value) {
          record_drain(e.location, e.thread, e.value, *it);
          pending.erase(it);
          break;
        }
      }
      break;
    }
    case EventKind::Atomic:
      drain_thread(e.thread, context.model == "tso" ? nullptr : &e.location);
      record_drain(e.location, e.thread, e.value, &e);
      break;
    case EventKind::Load: {
      // Its own buffered store?
      const auto& own = shadow.buffered[e.thread];
      bool from_own = false;
      for (auto it = own.rbegin(); it != own.rend(); ++it)
        if ((*it)->location == e.location) {
          from_own = (*it)->value == e.value;
          break;
        }
      if (from_own) break;
      const auto newest = shadow.newest.find(e.location.key());
      if (newest != shadow.newest.end() && newest->second.value != e.value && !(newest->second.writer == e.thread)) {
        // A stale read. Find what made the reader expect better: an earlier load by the reader
        // of a value the same writer stored after this location's newer store.
        const StoreRecord& newer = newest->second;
        std::string text = fmt::format(
            "Thread {} read {} (line {}) although {} had already been written by thread {}{}: the read was "
            "stale. Thread {} had not synchronized with thread {}, so its view of {} still allowed the older "
            "value.",
            e.thread.to_string(), fmt::format("{}={}", e.location_name, format_word(e.value, e.type)), line_of(program, e),
            fmt::format("{}={}", e.location_name, format_word(newer.value, e.type)), newer.writer.to_string(),
            newer.store ? fmt::format(" (line {})", line_of(program, *newer.store)) : "", e.thread.to_string(),
            newer.writer.to_string(), e.location_name);
        const Event* flag_load = nullptr;
        const Event* flag_store = nullptr;
        for (const Event& earlier : events) {
          if (earlier.sequence >= e.sequence) break;
          if (earlier.kind != EventKind::Load || !(earlier.thread == e.thread) || earlier.location == e.location) continue;
          // Did the writer store this value to that location after its store to e.location?
          for (const Event& s : events)
            if ((s.kind == EventKind::Store || s.kind == EventKind::Atomic) && s.thread == newer.writer &&
                s.location == earlier.location && s.value == earlier.value && newer.store &&
                s.sequence > newer.store->sequence) {
              flag_load = &earlier;
              flag_store = &s;
            }
        }
        if (flag_load && flag_store) {
          text += fmt::format(" It had already read {} (line {}), which thread {} wrote after {}: the two stores "
                              "were observed out of order.",
                              fmt::format("{}={}", flag_load->location_name, format_word(flag_load->value, flag_load->type)),
                              line_of(program, *flag_load), newer.writer.to_string(),
                              fmt::format("{}={}", e.location_name, format_word(newer.value, e.type)));
          sentences.push_back(text);
          sentences.push_back(fence_advice(fences_between(events, newer.writer, newer.store->sequence, flag_store->sequence),
                                           fences_between(events, e.thread, flag_load->sequence, e.sequence),
                                           newer.writer, e.thread));
        } else {
          sentences.push_back(text);
        }
        return sentences;
      }
      // Read memory while another thread's store to the location was still buffered.
      for (const auto& [thread, pending] : shadow.buffered) {
        if (thread == e.thread) continue;
        for (const Event* s : pending) {
          if (!(s->location == e.location)) continue;
          sentences.push_back(fmt::format(
              "Thread {} read {} (line {}) while thread {}'s store {} (line {}) still sat in its store buffer: "
              "a store waits in the buffer and later loads can pass it. A fence between the store and the "
              "following load in each thread ({} if they share a block, else __threadfence()) drains the "
              "buffer first and forbids this outcome.",
              e.thread.to_string(), fmt::format("{}={}", e.location_name, format_word(e.value, e.type)),
              line_of(program, e), thread.to_string(), fmt::format("{}={}", s->location_name, format_word(s->value, s->type)),
              line_of(program, *s), "__threadfence_block()"));
          return sentences;
        }
      }
      break;
    }
    default: break;
    }
  }
  // No stale read: stores that drained out of program order (2+2W) show in the final values.
  std::map<ThreadId, std::vector<const Event*>> drains;
  for (const Event& e : events)
    if (e.kind == EventKind::ModelStep) drains[e.thread].push_back(&e);
  for (const auto& [thread, list] : drains) {
    for (size_t i = 0; i + 1 < list.size(); ++i) {
      const Event* later = nullptr;
      // A store written earlier in program order but drained later than list[i+1]?
      for (const Event& s : events)
        if (s.kind == EventKind::Store && s.thread == thread && s.location == list[i + 1]->location &&
            s.value == list[i + 1]->value)
          later = &s;
      const Event* first = nullptr;
      for (const Event& s : events)
        if (s.kind == EventKind::Store && s.thread == thread && s.location == list[i]->location && s.value == list[i]->value)
          first = &s;
      if (later && first && later->sequence < first->sequence) {
        sentences.push_back(fmt::format(
            "Thread {}'s stores drained out of program order: {} (line {}) reached memory before {} (line {}). "
            "Stores to different locations may drain in any order; a fence between them drains the first one "
            "before the second is made.",
            thread.to_string(), fmt::format("{}={}", first->location_name, format_word(first->value, first->type)),
            line_of(program, *first), fmt::format("{}={}", later->location_name, format_word(later->value, later->type)),
            line_of(program, *later)));
        return sentences;
      }
    }
  }
  if (context.reachable_under_sc)
    sentences.push_back("This outcome needs no weak-memory behaviour: sequential consistency allows it too; it comes "
                        "from the interleaving of the threads alone.");
  else
    sentences.push_back("No single stale read or reordered pair explains this outcome; read the trace "
                        "(replay --trace) step by step.");
  return sentences;
}

} // namespace fencelab
