// The barrier timeline in a terminal (pictures.h, render_timeline_text), for `replay
// --timeline`: a row per thread, a character per time step (several steps per character when
// the execution is longer than the terminal is wide; the most telling mark wins).
//   ─ running   ● store   ○ load   ◆ atomic   ┃ fence   ╮ arrives at a barrier
//   ┈ waits     │ barrier release (all go on)   ✕ divergence / never released   ┤ exit
#include "fencelab/draw/pictures.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace fencelab {

namespace {

/** Higher wins when several marks share a character. */
enum Priority : int { kNothing, kRunning, kWaiting, kLoad, kStore, kFence, kAtomic, kExit, kArrive, kRelease, kDiverged };

const char* glyph(int priority) {
  switch (priority) {
  case kRunning: return "─";
  case kWaiting: return "┈";
  case kLoad: return "○";
  case kStore: return "●";
  case kFence: return "┃";
  case kAtomic: return "◆";
  case kExit: return "┤";
  case kArrive: return "╮";
  case kRelease: return "│";
  case kDiverged: return "✕";
  default: return " ";
  }
}

int priority_of(TimelineMarkKind kind) {
  switch (kind) {
  case TimelineMarkKind::Load: return kLoad;
  case TimelineMarkKind::Store: return kStore;
  case TimelineMarkKind::Atomic: return kAtomic;
  case TimelineMarkKind::Fence: return kFence;
  case TimelineMarkKind::Arrive: return kArrive;
  case TimelineMarkKind::Exit: return kExit;
  case TimelineMarkKind::Error: return kDiverged;
  default: return kStore;
  }
}

} // namespace

std::string render_timeline_text(const BarrierTimeline& timeline, uint32_t width) {
  constexpr size_t kLabel = 12;
  const uint32_t columns = std::max<uint32_t>(width > kLabel + 4 ? width - kLabel - 2 : 10, 10);
  const uint32_t per_column = std::max<uint32_t>(1, (timeline.length + columns - 1) / columns);
  const uint32_t used = (timeline.length + per_column - 1) / per_column;
  auto column_of = [&](uint32_t time) { return std::min(time / per_column, used == 0 ? 0 : used - 1); };
  std::map<ThreadId, size_t> lane_of;
  for (size_t i = 0; i < timeline.lanes.size(); ++i) lane_of[timeline.lanes[i].thread] = i;
  std::vector<std::vector<int>> cells(timeline.lanes.size(), std::vector<int>(used + 1, kNothing));
  auto mark = [&](size_t lane, uint32_t time, int priority) {
    int& cell = cells[lane][column_of(time)];
    cell = std::max(cell, priority);
  };
  for (size_t i = 0; i < timeline.lanes.size(); ++i) {
    const TimelineLane& lane = timeline.lanes[i];
    for (uint32_t t = lane.start; t <= lane.end && t < timeline.length; ++t) mark(i, t, kRunning);
    for (const TimelineMark& m : lane.marks) mark(i, m.time, m.diverged ? kDiverged : priority_of(m.kind));
    if (lane.stuck) cells[i][used] = kDiverged;
  }
  for (const BarrierEpisode& episode : timeline.episodes)
    for (const BarrierWait& w : episode.waits) {
      const auto lane = lane_of.find(w.thread);
      if (lane == lane_of.end()) continue;
      for (uint32_t t = w.arrive_time + 1; t < episode.release_time; ++t) mark(lane->second, t, kWaiting);
      mark(lane->second, episode.release_time, episode.diverged ? kDiverged : kRelease);
    }
  std::string out = fmt::format("{}\n", timeline.title);
  out += fmt::format("{:<{}}time → ({} step{} per column)\n", "", kLabel, per_column, per_column == 1 ? "" : "s");
  for (size_t i = 0; i < timeline.lanes.size(); ++i) {
    const TimelineLane& lane = timeline.lanes[i];
    out += fmt::format("{:<{}}", lane.title, kLabel);
    for (int cell : cells[i]) out += glyph(cell);
    if (lane.stuck) out += " " + lane.stuck_reason;
    out += '\n';
  }
  out += "\n─ running  ○ load  ● store  ◆ atomic  ┃ fence  ╮ arrives  ┈ waits  │ released  ┤ exit  ✕ divergence\n";
  for (const std::string& note : timeline.notes) out += note + "\n";
  if (!timeline.left_out.empty()) {
    std::vector<std::string> names;
    for (ThreadId t : timeline.left_out) names.push_back(fmt::format("({}, {})", t.block, t.index_in_block()));
    out += fmt::format("not drawn ({} threads): {}\n", names.size(), fmt::join(names, ", "));
  }
  return out;
}

} // namespace fencelab
