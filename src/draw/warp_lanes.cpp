// Building a warp's lane picture (warp_lanes.h) from a recorded trace.
//
// A step is a run of consecutive events of the warp (other warps' events in between do not
// break it) that are the same operation at the same source range, by distinct lanes: under
// --warp lockstep the Machine performs a warp's visible event for all active lanes together,
// so they appear back to back; under --warp its they appear together only when the schedule
// happened to run them so. A warp operation (__syncwarp, a shuffle, a vote) is one Warp event
// whose `warp_mask` is the lanes that performed it together.
#include "fencelab/draw/warp_lanes.h"

#include <bit>
#include <fmt/format.h>
#include <set>

namespace fencelab {

namespace {

bool is_step_event(EventKind kind) {
  switch (kind) {
  case EventKind::Load:
  case EventKind::Store:
  case EventKind::Atomic:
  case EventKind::Fence:
  case EventKind::BarrierArrive:
  case EventKind::Warp:
  case EventKind::ThreadExit: return true;
  default: return false;
  }
}

std::string step_label(const Event& e) {
  switch (e.kind) {
  case EventKind::Load: return fmt::format("R {}", e.location_name.substr(0, e.location_name.find('[')));
  case EventKind::Store: return fmt::format("W {}", e.location_name.substr(0, e.location_name.find('[')));
  case EventKind::Atomic: return "atomic";
  case EventKind::Fence: return "fence";
  case EventKind::BarrierArrive: return "__syncthreads";
  case EventKind::Warp: return e.text.substr(0, e.text.find_first_of(" (:"));
  case EventKind::ThreadExit: return "exit";
  default: return "";
  }
}

} // namespace

std::vector<std::pair<uint32_t, uint32_t>> warps_in(const std::vector<Event>& events) {
  std::set<std::pair<uint32_t, uint32_t>> warps;
  for (const Event& e : events)
    if (is_step_event(e.kind)) warps.insert({e.thread.block, e.thread.warp});
  return {warps.begin(), warps.end()};
}

WarpLanes build_warp_lanes(const Program& program, const std::vector<Event>& events, uint32_t block, uint32_t warp,
                           uint32_t max_steps) {
  WarpLanes lanes;
  lanes.block = block;
  lanes.warp = warp;
  lanes.title = fmt::format("block {}, warp {} (threads {}-{})", block, warp, warp * kWarpSize, warp * kWarpSize + 31);
  const Event* open = nullptr; // the first event of the step being gathered
  WarpStep step;
  // Under lockstep a lane that finishes exits right after its last event, before the next
  // lane's: exits met while a step is open are gathered into one exit step that follows it.
  uint32_t exiting = 0;
  auto push = [&](const WarpStep& s) {
    if (lanes.steps.size() < max_steps) lanes.steps.push_back(s);
    else ++lanes.steps_left_out;
  };
  auto close = [&] {
    if (open != nullptr) push(step);
    if (exiting != 0) push(WarpStep{exiting, 0, "exit", false, false});
    open = nullptr;
    exiting = 0;
  };
  for (const Event& e : events) {
    if (!is_step_event(e.kind) || e.thread.block != block || e.thread.warp != warp) continue;
    const uint32_t lanes_of_event = e.kind == EventKind::Warp && e.warp_mask != 0 ? e.warp_mask : 1u << e.thread.lane;
    lanes.lanes_mask |= lanes_of_event;
    if (e.kind == EventKind::ThreadExit) {
      exiting |= lanes_of_event;
      continue;
    }
    const bool joins = open != nullptr && e.kind != EventKind::Warp && open->kind == e.kind &&
                       open->range.begin == e.range.begin && open->range.end == e.range.end &&
                       (step.mask & lanes_of_event) == 0;
    if (joins) {
      step.mask |= lanes_of_event;
      continue;
    }
    close();
    open = &e;
    step = WarpStep{lanes_of_event, e.range.end > 0 ? program.source->position(e.range.begin).line : 0, step_label(e),
                    false, false};
  }
  close();
  // Divergence and reconvergence against the lanes the warp has.
  bool was_diverged = false;
  for (WarpStep& s : lanes.steps) {
    s.diverged = s.mask != lanes.lanes_mask;
    s.reconverged = !s.diverged && was_diverged;
    was_diverged = s.diverged;
  }
  return lanes;
}

std::optional<std::pair<uint32_t, uint32_t>> pick_warp(const Program& program, const std::vector<Event>& events) {
  const auto warps = warps_in(events);
  if (warps.empty()) return std::nullopt;
  for (const auto& [block, warp] : warps) {
    const WarpLanes lanes = build_warp_lanes(program, events, block, warp);
    for (const WarpStep& s : lanes.steps)
      if (s.diverged && std::popcount(lanes.lanes_mask) > 1) return std::make_pair(block, warp);
  }
  return warps.front();
}

} // namespace fencelab
