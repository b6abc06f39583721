// Warp operations as rendezvous of their mask's lanes, and the lockstep scheduler
// (warp_schedule.h has the rules; warp_operations.h the values).
#include "warp_schedule.h"

#include "machine_impl.h"
#include "warp_operations.h"

#include <algorithm>
#include <cassert>
#include <compare>
#include <fmt/format.h>
#include <map>
#include <optional>

namespace fencelab {

std::string mode_name(std::string_view model, WarpMode warp) {
  return warp == WarpMode::Lockstep ? std::string(model) + ".lockstep" : std::string(model);
}

bool split_mode_name(std::string_view name, std::string& model, WarpMode& warp) {
  const size_t dot = name.find('.');
  model = std::string(name.substr(0, dot));
  warp = WarpMode::Its;
  if (dot == std::string_view::npos) return true;
  const std::string_view suffix = name.substr(dot + 1);
  if (suffix == "lockstep") warp = WarpMode::Lockstep;
  else if (suffix != "its") return false;
  return true;
}

namespace {

using warp::in_mask;
using warp::lane_bit;

/** The thread slot of `lane` of warp `warp_index` in the block of `block_slot`, if it exists. */
std::optional<uint32_t> lane_slot(const Machine::Impl& m, uint32_t block_slot, uint32_t warp_index, uint32_t lane) {
  const uint32_t index = warp_index * kWarpSize + lane;
  if (index >= m.threads_per_block) return std::nullopt;
  return m.blocks[block_slot].thread_slots[index];
}

/**
 * The lanes of warp `warp_index` that exist: all 32, except in a block's last, partial warp.
 * Lanes that do not exist are left out of every mask, as the hardware treats the inactive lanes
 * of a partial warp (a full mask works in a block of 4 threads); shuffling from one of them
 * is undefined like shuffling from any lane outside the mask.
 */
uint32_t existing_lanes(const Machine::Impl& m, uint32_t warp_index) {
  const uint64_t first = uint64_t(warp_index) * kWarpSize;
  const uint64_t count = std::min<uint64_t>(kWarpSize, m.threads_per_block - first);
  return count >= kWarpSize ? 0xffffffffu : (1u << count) - 1;
}

bool same_stack(const SimThread& a, const SimThread& b) {
  if (a.frames.size() != b.frames.size()) return false;
  for (size_t i = 0; i < a.frames.size(); ++i)
    if (a.frames[i].function != b.frames[i].function || a.frames[i].call_site != b.frames[i].call_site) return false;
  return true;
}

uint32_t line_of(const Machine::Impl& m, SourceRange range) { return m.program.source->position(range.begin).line; }

const char* spelling(Builtin op) { return builtin_info(op).spelling; }

std::optional<warp::ShuffleKind> shuffle_kind(Builtin op) {
  switch (op) {
  case Builtin::ShflSync: return warp::ShuffleKind::Index;
  case Builtin::ShflUpSync: return warp::ShuffleKind::Up;
  case Builtin::ShflDownSync: return warp::ShuffleKind::Down;
  case Builtin::ShflXorSync: return warp::ShuffleKind::Xor;
  default: return std::nullopt;
  }
}

/** A runtime error found by the scheduler (not on a fiber): ends the execution. */
void scheduler_fault(Machine::Impl& m, const SimThread& thread, SourceRange range, std::string message,
                     RuntimeErrorKind kind = RuntimeErrorKind::Other) {
  m.stop_execution(thread, range, std::move(message), ExecutionStatus::RuntimeError, kind);
}

/** The participants drain and join views (__syncwarp; a lockstep step). */
void synchronize(Machine::Impl& m, const std::vector<ThreadRef>& participants) {
  if (participants.empty()) return;
  m.model->barrier(participants);
  if (m.observing()) {
    // Observers see a warp-level barrier: the participants' accesses before it happen before
    // their accesses after it (the race detector's rule for __syncwarp and lockstep steps).
    Event e;
    e.kind = EventKind::BarrierRelease;
    e.thread = participants.front().id;
    e.text = "warp synchronization";
    for (const ThreadRef& t : participants) {
      e.waiting.emplace_back(t.id, SourceRange{});
      e.warp_mask |= 1u << t.id.lane;
    }
    m.emit(std::move(e));
  }
}

/** Every lane of the mask waits at an operation with that mask: perform it. `scheduled`: the
 *  scheduler picked this __syncwarp (a DueRelease); otherwise one whose lanes have stores
 *  buffered becomes a DueRelease instead. */
void complete(Machine::Impl& m, const std::vector<uint32_t>& slots, bool scheduled = false) {
  SimThread& first = m.threads[slots.front()];
  const Builtin op = first.warp.op;
  const uint32_t mask = first.warp.mask & existing_lanes(m, first.ref.id.warp);
  const ActorId actor = ObjectId::warp_barrier(first.ref.block_slot, first.ref.id.warp, mask);
  std::vector<ThreadRef> participants;
  if (op == Builtin::Syncwarp) {
    for (uint32_t slot : slots) participants.push_back(m.threads[slot].ref);
    if (!scheduled && m.model->barrier_drains(participants)) {
      m.due_releases.push_back(DueRelease{actor, first.ref.block_slot, slots});
      return;
    }
  }
  // Where a lane arrived in an earlier step, the completion is a step of its own for the
  // reduction, by the warp's barrier of this mask, as a block barrier's release is (at once
  // here; a scheduled one is the step chosen). Attributed to the lane that arrived last, its
  // touches (the other lanes' control, a __syncwarp's views) would order that lane's own event
  // after whatever had enabled them (a barrier release before it), and that event's races
  // would be lost (reference soak, seed 5,017,211: an exchange before a __syncwarp whose other
  // lane a release let through). Where every lane arrived in this step, the step has run each
  // of them already, so the completion orders it after nothing more, and stays in it: a grid of
  // blocks whose lanes all meet at their first event needs no step per warp.
  if (m.recording_footprints && !scheduled) {
    const bool earlier = std::any_of(slots.begin(), slots.end(), [&m](uint32_t slot) {
      return slot >= m.warp_arrival_step.size() || m.warp_arrival_step[slot] != m.step_number;
    });
    if (earlier) m.announce_at_once_step(actor);
  }
  for (uint32_t slot : slots) m.touch(ObjectId::arrival(slot), false);
  ++m.events;
  Event e;
  e.kind = EventKind::Warp;
  e.thread = first.ref.id;
  e.range = first.warp.range;
  e.warp_mask = mask;
  std::string detail;
  std::array<Word, kWarpSize> results{};

  if (op == Builtin::Syncwarp) {
    synchronize(m, participants);
    if (m.observing()) {
      detail = m.model->explain_last_barrier();
      if (!detail.empty()) detail = "; " + detail;
    }
  } else if (const auto kind = shuffle_kind(op)) {
    std::array<warp::ShuffleInput, kWarpSize> inputs{};
    for (uint32_t slot : slots) {
      const SimThread& t = m.threads[slot];
      inputs[t.ref.id.lane] = warp::ShuffleInput{t.warp.value, t.warp.lane_arg, t.warp.width};
    }
    const auto outputs = warp::shuffle(*kind, mask, inputs);
    std::string undefined_lanes;
    for (uint32_t slot : slots) {
      const SimThread& t = m.threads[slot];
      const uint32_t lane = t.ref.id.lane;
      const warp::ShuffleOutput& o = outputs[lane];
      Word value = o.value;
      if (!o.defined) {
        // Undefined (Guide 10.22): 0 or the lane's own var, as a decision of its own.
        const Word own = inputs[lane].value;
        value = own == 0 ? 0 : (m.choices->choose(2, ChoiceKind::Value, 0) == 0 ? 0 : own);
        undefined_lanes += fmt::format("{}{} reads lane {}", undefined_lanes.empty() ? "" : ", ", lane, o.source);
      }
      results[lane] = value;
      if (m.observing())
        detail += fmt::format("{}{}<-{}={}{}", detail.empty() ? ": " : " ", lane, o.source,
                              format_word(value, t.warp.value_type), o.defined ? "" : "?");
    }
    if (!undefined_lanes.empty()) {
      e.warp_undefined = true;
      RuntimeErrorReport report;
      report.diagnostic = Diagnostic{
          Severity::Warning, first.warp.range,
          fmt::format("shuffle from an inactive lane: {} with mask {}: lane {}, outside the mask, so the "
                      "value is undefined (Programming Guide 10.22); fencelab picks 0 or the reading "
                      "lane's own value",
                      spelling(op), warp::format_mask(mask), undefined_lanes)};
      report.thread = first.ref.id;
      report.kind = RuntimeErrorKind::InactiveLaneShuffle;
      m.warp_runtime.warnings.push_back(std::move(report));
      if (m.observing()) detail += fmt::format(" (undefined: lane {})", undefined_lanes);
    }
  } else { // votes
    std::array<bool, kWarpSize> predicates{};
    for (uint32_t slot : slots) predicates[m.threads[slot].ref.id.lane] = m.threads[slot].warp.value != 0;
    const uint32_t ballot = warp::ballot(mask, predicates);
    Word result = ballot;
    if (op == Builtin::AnySync) result = warp::any(mask, predicates) ? 1 : 0;
    if (op == Builtin::AllSync) result = warp::all(mask, predicates) ? 1 : 0;
    for (uint32_t slot : slots) results[m.threads[slot].ref.id.lane] = result;
    if (m.observing())
      detail = fmt::format(": predicates true in lanes {} -> {}", warp::format_lanes(ballot),
                           op == Builtin::BallotSync ? warp::format_mask(ballot) : fmt::format("{}", result));
  }

  if (m.observing()) {
    e.text = fmt::format("{} mask {} (lanes {}){}", spelling(op), warp::format_mask(mask), warp::format_lanes(mask),
                         detail);
    m.emit(std::move(e));
  }
  for (uint32_t slot : slots) {
    SimThread& t = m.threads[slot];
    t.warp.result = results[t.ref.id.lane];
    t.status = ThreadStatus::AtEvent;
    m.warp_runtime.released.push_back(slot);
    m.touch(ObjectId::thread(slot), true); // enabled by the lane that completed the operation
  }
}

/** The program point of a lane suspended before an event, in source order: the call sites of
 *  its frames below the kernel's, then its pending event's position, compared as sequences
 *  (lexicographically). Compared in place: no sequence is built per decision (issue 12). */
uint32_t point_element(const SimThread& t, size_t i) {
  if (i + 1 < t.frames.size()) return t.frames[i + 1].call_site ? t.frames[i + 1].call_site->range.begin : 0;
  return t.pending.range.begin;
}
std::strong_ordering compare_points(const SimThread& a, const SimThread& b) {
  const size_t length_a = std::max<size_t>(a.frames.size(), 1), length_b = std::max<size_t>(b.frames.size(), 1);
  for (size_t i = 0; i < length_a && i < length_b; ++i)
    if (const auto order = point_element(a, i) <=> point_element(b, i); order != 0) return order;
  return length_a <=> length_b;
}

} // namespace

Word perform_warp_builtin(Machine::Impl& m, SimThread& t, const Call& call, std::span<const Word> args) {
  const Builtin op = *call.builtin;
  const uint32_t lane = t.ref.id.lane;
  WarpLaneState& w = t.warp;
  w = WarpLaneState{};
  w.op = op;
  w.range = call.range;

  if (op == Builtin::Activemask) {
    // __activemask reads which warp-mates wait at it; arriving there and performing it change
    // that (footprint.h, LanePoint).
    m.touch(ObjectId{ObjectKind::LanePoint, t.ref.slot.value, 0}, true);
    m.before_visible_event(t, EventKind::Warp, call.range);
    for (uint32_t l = 0; l < kWarpSize; ++l)
      if (const auto slot = lane_slot(m, t.ref.block_slot, t.ref.id.warp, l))
        m.touch(ObjectId{ObjectKind::LanePoint, *slot, 0}, true);
    if (w.activemask_given) { // performed together with a lane scheduled earlier
      w.activemask_given = false;
      return w.result;
    }
    uint32_t mask = lane_bit(lane);
    std::vector<SimThread*> mates;
    for (uint32_t l = 0; l < kWarpSize; ++l) {
      const auto slot = lane_slot(m, t.ref.block_slot, t.ref.id.warp, l);
      if (!slot || l == lane) continue;
      SimThread& u = m.threads[*slot];
      if (u.status == ThreadStatus::AtEvent && u.pending.kind == EventKind::Warp && u.warp.op == Builtin::Activemask &&
          u.pending.range == call.range && !u.warp.activemask_given && same_stack(u, t)) {
        mask |= lane_bit(l);
        mates.push_back(&u);
      }
    }
    for (SimThread* u : mates) {
      u->warp.result = mask;
      u->warp.activemask_given = true;
    }
    if (m.observing()) {
      Event e;
      e.kind = EventKind::Warp;
      e.thread = t.ref.id;
      e.range = call.range;
      e.warp_mask = mask;
      e.text = fmt::format("__activemask() = {} (lanes {} perform it together)", warp::format_mask(mask),
                           warp::format_lanes(mask));
      m.emit(std::move(e));
    }
    return mask;
  }

  const uint32_t mask = args.empty() ? 0xffffffffu : uint32_t(args[0]);
  const SourceRange mask_range = call.args.empty() ? call.range : call.args[0]->range;
  if (!in_mask(mask, lane))
    m.fault(t, mask_range, RuntimeErrorKind::InvalidWarpMask,
            fmt::format("invalid warp mask: {} with mask {} does not include the calling lane {} (Programming "
                        "Guide 10.22: each calling thread must have its own bit set in the mask)",
                        call.callee, warp::format_mask(mask), lane));
  w.mask = mask;
  w.value_type = call.type;
  if (shuffle_kind(op)) {
    w.value = args[1];
    w.lane_arg = word_to_int(args[2], call.args[2]->type);
    const int64_t width = args.size() == 4 ? word_to_int(args[3], call.args[3]->type) : int64_t(kWarpSize);
    if (!warp::valid_width(width))
      m.fault(t, call.args[3]->range,
              fmt::format("invalid width {} for {}: it must be a power of two from 1 to 32 (Programming Guide "
                          "10.22)",
                          width, call.callee));
    w.width = uint32_t(width);
  } else if (op != Builtin::Syncwarp) {
    w.value = word_is_true(args[1], call.args[1]->type) ? 1 : 0;
  }
  t.pending = PendingEvent{EventKind::Warp, call.range};
  t.status = ThreadStatus::AtWarp;
  t.reset_local_steps();
  ++t.visible_events;
  m.switch_to_scheduler(t);
  return w.result;
}

void warp_lane_arrived(Machine::Impl& m, SimThread& t) {
  m.touch(ObjectId::arrival(t.ref.slot.value), true); // the completion reads it (complete)
  if (m.recording_footprints) {
    if (m.warp_arrival_step.size() <= t.ref.slot.value) m.warp_arrival_step.resize(t.ref.slot.value + 1);
    m.warp_arrival_step[t.ref.slot.value] = m.step_number;
  }
  const uint32_t mask = t.warp.mask;
  std::vector<uint32_t> slots;
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    if (!in_mask(mask, l)) continue;
    const auto slot = lane_slot(m, t.ref.block_slot, t.ref.id.warp, l);
    if (!slot) break; // lanes past the block's last thread do not exist (existing_lanes)
    const SimThread& u = m.threads[*slot];
    if (u.status != ThreadStatus::AtWarp || u.warp.mask != mask) return; // not yet, or never
    slots.push_back(*slot);
  }
  for (uint32_t slot : slots) {
    const SimThread& u = m.threads[slot];
    if (u.warp.op != t.warp.op) {
      const SimThread& first = m.threads[slots.front()];
      return scheduler_fault(
          m, t, t.warp.range,
          fmt::format("lanes of warp {} of block {} perform different warp operations with mask {}: lane {} "
                      "{} (line {}), lane {} {} (line {}) (Programming Guide 10.22: all threads named in "
                      "the mask must execute the same intrinsic)",
                      t.ref.id.warp, t.ref.id.block, warp::format_mask(mask), first.ref.id.lane,
                      spelling(first.warp.op), line_of(m, first.warp.range), u.ref.id.lane, spelling(u.warp.op),
                      line_of(m, u.warp.range)),
          RuntimeErrorKind::WarpMismatch);
    }
  }
  complete(m, slots);
}

void complete_due_warp_release(Machine::Impl& m, const std::vector<uint32_t>& slots) { complete(m, slots, true); }

void run_released_lanes(Machine::Impl& m) {
  std::vector<uint32_t>& released = m.warp_runtime.released;
  while (!released.empty()) {
    std::vector<uint32_t> batch;
    batch.swap(released);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (m.execution_fault) return;
      if (m.events >= m.options.max_steps) {
        // The scheduler stops at the step limit; leave these lanes to it.
        m.ready.insert(m.ready.end(), batch.begin() + ptrdiff_t(i), batch.end());
        m.ready.insert(m.ready.end(), released.begin(), released.end());
        released.clear();
        return;
      }
      m.resume_and_settle(m.threads[batch[i]]);
    }
  }
}

uint32_t lockstep_units(Machine::Impl& m) {
  // Every suspended lane (ready, then spinning, each in its list's order), grouped by warp in
  // (block slot, warp) order; the buffers are kept across decisions.
  std::vector<WarpRuntime::Candidate>& candidates = m.warp_runtime.candidates;
  candidates.clear();
  for (const bool spinning : {false, true}) {
    for (uint32_t slot : spinning ? m.spinning : m.ready) {
      const SimThread& t = m.threads[slot];
      candidates.push_back({(uint64_t(t.ref.block_slot) << 32) | t.ref.id.warp,
                            static_cast<uint32_t>(candidates.size()), slot, spinning});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.warp_key != b.warp_key ? a.warp_key < b.warp_key : a.order < b.order;
  });
  std::vector<WarpRuntime::Unit>& units = m.warp_runtime.units;
  size_t count = 0;
  for (size_t first = 0, end; first < candidates.size(); first = end) {
    end = first;
    while (end < candidates.size() && candidates[end].warp_key == candidates[first].warp_key) ++end;
    // The warp's lanes at its earliest program point step together.
    const SimThread* earliest = &m.threads[candidates[first].slot];
    for (size_t i = first + 1; i < end; ++i)
      if (compare_points(m.threads[candidates[i].slot], *earliest) < 0) earliest = &m.threads[candidates[i].slot];
    if (count == units.size()) units.emplace_back();
    WarpRuntime::Unit& unit = units[count];
    unit.block_slot = static_cast<uint32_t>(candidates[first].warp_key >> 32);
    unit.block_index = m.blocks[unit.block_slot].linear_index;
    unit.warp = static_cast<uint32_t>(candidates[first].warp_key);
    unit.lanes.clear();
    bool any_ready = false;
    for (size_t i = first; i < end; ++i) {
      if (compare_points(m.threads[candidates[i].slot], *earliest) != 0) continue;
      unit.lanes.push_back(candidates[i].slot);
      any_ready = any_ready || !candidates[i].spinning;
    }
    // A group all of whose lanes repeat a no-op spin iteration waits for memory to change.
    if (!any_ready) continue;
    std::sort(unit.lanes.begin(), unit.lanes.end(),
              [&m](uint32_t a, uint32_t b) { return m.threads[a].ref.id.lane < m.threads[b].ref.id.lane; });
    ++count;
  }
  m.warp_runtime.unit_count = static_cast<uint32_t>(count);
  return m.warp_runtime.unit_count;
}

void step_warp(Machine::Impl& m, uint32_t index) {
  assert(index < m.warp_runtime.unit_count);
  // Only the scheduler's loop computes the units (lockstep_units), never a step: the reference
  // stays valid while the lanes below run.
  const WarpRuntime::Unit& unit = m.warp_runtime.units[index];
  auto in_unit = [&unit](uint32_t slot) {
    return std::find(unit.lanes.begin(), unit.lanes.end(), slot) != unit.lanes.end();
  };
  std::erase_if(m.ready, in_unit);
  std::erase_if(m.spinning, in_unit);
  // The group performs its event together, in lane order, each lane running on to its next.
  for (uint32_t slot : unit.lanes) {
    if (m.execution_fault) return;
    SimThread& t = m.threads[slot];
    if (t.status == ThreadStatus::AtEvent) m.resume_and_settle(t);
  }
  run_released_lanes(m);
  if (m.execution_fault) return;
  // The step's memory operations become visible within the warp before its next step. Lanes
  // that exited in this step take part too (their stores are part of the step), unless a new
  // block already took the slots (reusing a slot drains what the old thread left).
  const ResidentBlock& block = m.blocks[unit.block_slot];
  if (block.active && block.linear_index != unit.block_index) return;
  std::vector<ThreadRef>& lanes = m.warp_runtime.step_lanes;
  lanes.clear();
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    const auto slot = lane_slot(m, unit.block_slot, unit.warp, l);
    if (!slot) break;
    lanes.push_back(m.threads[*slot].ref);
  }
  synchronize(m, lanes);
}

std::string warp_deadlock_message(const Machine::Impl& m) {
  std::vector<std::string> parts;
  for (uint32_t b = 0; b < m.blocks.size(); ++b) {
    const ResidentBlock& block = m.blocks[b];
    if (!block.active) continue;
    const uint32_t warps = (m.threads_per_block + kWarpSize - 1) / kWarpSize;
    for (uint32_t w = 0; w < warps; ++w) {
      // Waiting lanes, by the mask they wait with.
      std::map<uint32_t, uint32_t> waiting; // mask -> lanes waiting with it
      std::map<uint32_t, const SimThread*> example;
      for (uint32_t l = 0; l < kWarpSize; ++l) {
        const auto slot = lane_slot(m, b, w, l);
        if (!slot) break;
        const SimThread& t = m.threads[*slot];
        if (t.status != ThreadStatus::AtWarp) continue;
        waiting[t.warp.mask] |= lane_bit(l);
        example.try_emplace(t.warp.mask, &t);
      }
      for (const auto& [mask, lanes] : waiting) {
        const SimThread& t = *example[mask];
        uint32_t exited = 0, elsewhere = 0;
        for (uint32_t l = 0; l < kWarpSize; ++l) {
          if (!in_mask(mask, l) || in_mask(lanes, l)) continue;
          const auto slot = lane_slot(m, b, w, l);
          if (!slot) break;
          if (m.threads[*slot].status == ThreadStatus::Done || m.threads[*slot].status == ThreadStatus::Failed)
            exited |= lane_bit(l);
          else elsewhere |= lane_bit(l);
        }
        std::vector<std::string> why;
        if (exited) why.push_back(fmt::format("lanes {} have exited", warp::format_lanes(exited)));
        if (elsewhere) why.push_back(fmt::format("lanes {} wait elsewhere", warp::format_lanes(elsewhere)));
        parts.push_back(fmt::format("in block {} warp {}, lanes {} wait at {} (line {}) with mask {}, but {}",
                                    block.linear_index, w, warp::format_lanes(lanes), spelling(t.warp.op),
                                    line_of(m, t.warp.range), warp::format_mask(mask), fmt::join(why, " and ")));
      }
    }
  }
  if (parts.empty()) return {};
  return fmt::format("a warp operation can never complete (every lane named in its mask must arrive): {}",
                     fmt::join(parts, "; "));
}

} // namespace fencelab
