// When no thread can run: threads that wait for a spin to change may be released
// (awaiting spins), else the execution is a deadlock, described thread by thread
// (DESIGN "Deadlock").
#include "machine_impl.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

std::string describe_blocks(uint64_t first, uint64_t count) {
  return count == 1 ? fmt::format("block {}", first) : fmt::format("blocks {}-{}", first, first + count - 1);
}

bool Machine::Impl::release_awaits() {
  if (std::none_of(spinning.begin(), spinning.end(), [this](uint32_t slot) { return threads[slot].await_would_retry; }))
    return false; // every waiting thread would fail again: a true deadlock
  // From here on the execution runs as without awaiting: waiting threads that can read
  // something new run again (now, as if they had been slow); the rest wait for a change.
  awaiting_spins = false;
  awaits_released = true;
  if (recording_footprints) {
    recording_footprints = false;
    model->set_footprint_sink(this, false);
  }
  choices->awaits_released();
  std::vector<ThreadId> resumed; // named by the event below, for observers only
  size_t kept = 0;
  for (uint32_t slot : spinning) {
    SimThread& t = threads[slot];
    if (t.await_would_retry) {
      if (observing()) resumed.push_back(t.ref.id);
      t.await_would_retry = false;
      t.spinning = false;
      ready.push_back(slot);
    } else {
      spinning[kept++] = slot;
    }
  }
  spinning.resize(kept);
  if (observing()) {
    std::sort(resumed.begin(), resumed.end());
    std::vector<std::string> names;
    for (const ThreadId& id : resumed) names.push_back(id.to_string());
    Event e;
    e.kind = EventKind::AwaitsReleased;
    e.thread = resumed.front();
    const bool one = names.size() == 1;
    e.text = fmt::format("{} {} again: {} waited since a spin iteration that failed, and may pass now (the "
                         "search lets a waiting thread wait until nothing else can run)",
                         fmt::join(names, ", "), one ? "runs" : "run", one ? "it has" : "each has");
    emit(std::move(e));
  }
  return true;
}

// this_grid().sync() runs as a spin on a counter sema declares (sema_group_operations.cpp):
// named as the grid barrier, not by the counter's internal name.
bool Machine::Impl::spins_at_grid_barrier(const SimThread& thread) const {
  const MemoryObject& object = program.memory_objects[layout.object_of_instance(thread.snapshot.location.instance)];
  return object.declaration != nullptr && object.declaration->implicit;
}

std::vector<BlockedThread> Machine::Impl::blocked_threads() const {
  std::vector<BlockedThread> out;
  for (const ResidentBlock& block : blocks) {
    if (!block.active) continue;
    for (uint32_t slot : block.thread_slots) {
      const SimThread& t = threads[slot];
      if (t.status == ThreadStatus::AtBarrier)
        out.push_back({t.ref.id, t.pending.range, "waits at __syncthreads"});
      else if (t.status == ThreadStatus::AtEvent && t.spinning)
        out.push_back({t.ref.id, t.pending.range, spins_at_grid_barrier(t)
                                                      ? "waits at this_grid().sync() for the other blocks"
                                                      : "spins re-reading " + layout.describe(t.snapshot.location)});
      else if (t.status == ThreadStatus::AtWarp)
        out.push_back({t.ref.id, t.warp.range,
                       fmt::format("waits at {} with mask {:#010x}", builtin_info(t.warp.op).spelling, t.warp.mask),
                       true});
    }
  }
  std::sort(out.begin(), out.end(), [](const BlockedThread& a, const BlockedThread& b) { return a.thread < b.thread; });
  return out;
}

std::string Machine::Impl::deadlock_message() const {
  if (std::string warp = warp_deadlock_message(*this); !warp.empty()) return warp;
  const SourceFile& file = *program.source;
  const std::vector<BlockedThread> stuck = blocked_threads();
  std::string list;
  for (size_t i = 0; i < stuck.size() && i < 4; ++i)
    list += fmt::format("{}{} at line {} {}", i == 0 ? "" : "; ", stuck[i].thread.to_string(),
                        file.position(stuck[i].range.begin).line, stuck[i].waits_for);
  if (stuck.size() > 4) list += fmt::format("; and {} more", stuck.size() - 4);
  std::string message = fmt::format("{} thread(s) can never progress: {}", stuck.size(), list);
  // Forward progress between blocks: a block that is not resident runs only when a resident
  // one finishes (Programming Guide, "Thread Hierarchy": blocks "execute independently", in
  // any order). Resident blocks waiting for a later block wait forever, as on hardware.
  if (next_block < total_blocks)
    message += fmt::format("; {} never became resident (at most {} resident at once)",
                           describe_blocks(next_block, total_blocks - next_block), resident_limit);
  // A grid barrier needs every block resident at once; cudaLaunchCooperativeKernel refuses a
  // grid that cannot be (Programming Guide, Cooperative Groups, "Grid Synchronization").
  if (next_block < total_blocks && program.unit.uses_grid_sync)
    message += fmt::format("; the grid is not co-resident: this_grid().sync() waits for all {} blocks, but at most "
                           "{} can be resident, so cudaLaunchCooperativeKernel would refuse this launch",
                           total_blocks, resident_limit);
  return message;
}

} // namespace fencelab
