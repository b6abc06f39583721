// Building the barrier timeline (barrier_timeline.h) from a recorded trace.
//
// A __syncthreads barrier (Programming Guide 10.6) shows as each participant's arrival mark
// (its BarrierArrive event), a wait until the BarrierRelease event, and the release as one
// line across the participants: those who arrive early wait for the last (seed 001, figure
// 4.3). The Guide requires every thread of the block to reach the same __syncthreads; a release
// whose waiters stood at different source lines, or with some of the block exited, is barrier
// divergence (DESIGN "Diagnostics"), drawn in the diagnostic's colour. __syncwarp (10.7)
// completes as one Warp event for the whole mask; it shows as a release without arrivals.
#include "fencelab/draw/barrier_timeline.h"

#include "fencelab/draw/execution_graph.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace fencelab {

namespace {

bool takes_time(EventKind kind) {
  return kind != EventKind::ModelStep && kind != EventKind::BlockStart && kind != EventKind::AwaitsReleased;
}

uint32_t line_of(const Program& program, SourceRange range) {
  return range.end > 0 ? program.source->position(range.begin).line : 0;
}

std::optional<TimelineMarkKind> mark_kind(EventKind kind) {
  switch (kind) {
  case EventKind::Load: return TimelineMarkKind::Load;
  case EventKind::Store: return TimelineMarkKind::Store;
  case EventKind::Atomic: return TimelineMarkKind::Atomic;
  case EventKind::Fence: return TimelineMarkKind::Fence;
  case EventKind::BarrierArrive: return TimelineMarkKind::Arrive;
  case EventKind::Warp: return TimelineMarkKind::Warp;
  case EventKind::ThreadExit: return TimelineMarkKind::Exit;
  case EventKind::Error: return TimelineMarkKind::Error;
  case EventKind::Print: return TimelineMarkKind::Print;
  default: return std::nullopt;
  }
}

std::string mark_label(const Event& e) {
  switch (e.kind) {
  case EventKind::Load: return fmt::format("R {}={}", e.location_name, format_word(e.value, e.type));
  case EventKind::Store: return fmt::format("W {}={}", e.location_name, format_word(e.value, e.type));
  case EventKind::Atomic: return fmt::format("RMW {}", e.location_name);
  case EventKind::Fence: return fmt::format("fence.{}", scope_name(e.scope));
  case EventKind::BarrierArrive: return "arrive";
  case EventKind::Warp: return e.text.substr(0, e.text.find_first_of(" (:"));
  case EventKind::ThreadExit: return "exit";
  case EventKind::Error: return "error";
  case EventKind::Print: return "printf";
  default: return "";
  }
}

/** "threads 0, 2 wait at line 30; threads 1, 3 at line 35; thread 5 had exited". */
std::string describe_divergence(const BarrierEpisode& episode) {
  std::map<uint32_t, std::vector<uint32_t>> by_line;
  for (const BarrierWait& w : episode.waits) by_line[w.line].push_back(w.thread.index_in_block());
  std::vector<std::string> parts;
  for (const auto& [line, threads] : by_line)
    parts.push_back(fmt::format("thread{} {} wait{} at line {}", threads.size() == 1 ? "" : "s",
                                fmt::join(threads, ", "), threads.size() == 1 ? "s" : "", line));
  if (!episode.exited.empty()) {
    std::vector<uint32_t> exited;
    for (ThreadId t : episode.exited) exited.push_back(t.index_in_block());
    parts.push_back(fmt::format("thread{} {} had exited", exited.size() == 1 ? "" : "s", fmt::join(exited, ", ")));
  }
  return fmt::format("block {}: {}", episode.block, fmt::join(parts, "; "));
}

} // namespace

BarrierTimeline build_barrier_timeline(const Program& program, const std::vector<Event>& events,
                                       const ExecutionResult& execution, const TimelineOptions& options) {
  BarrierTimeline timeline;
  std::map<ThreadId, TimelineLane> lanes;
  std::map<ThreadId, std::pair<uint32_t, uint32_t>> last_arrival; // thread -> (time, line)
  uint32_t time = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (!takes_time(e.kind)) continue;
    if (e.kind == EventKind::BarrierRelease) {
      BarrierEpisode episode;
      episode.release_time = time;
      episode.block = e.thread.block;
      episode.warp_level = e.warp_mask != 0;
      // A lockstep warp step also synchronizes its lanes (warp_schedule.cpp); only a
      // __syncwarp, whose Warp event follows the release, is a barrier in the source.
      if (episode.warp_level &&
          !(i + 1 < events.size() && events[i + 1].kind == EventKind::Warp &&
            events[i + 1].text.find("syncwarp") != std::string::npos))
        continue;
      for (const auto& [thread, range] : e.waiting) {
        BarrierWait wait{thread, time, line_of(program, range)};
        const auto arrival = last_arrival.find(thread);
        if (!episode.warp_level && arrival != last_arrival.end()) {
          wait.arrive_time = arrival->second.first;
          wait.line = arrival->second.second;
        }
        episode.waits.push_back(wait);
      }
      episode.exited = e.exited;
      std::set<uint32_t> lines;
      for (const BarrierWait& w : episode.waits) lines.insert(w.line);
      episode.diverged = !episode.warp_level && (lines.size() > 1 || !episode.exited.empty());
      if (episode.diverged) {
        episode.divergence = describe_divergence(episode);
        timeline.notes.push_back(fmt::format("barrier divergence at step {}, {}", time, episode.divergence));
        for (const BarrierWait& w : episode.waits)
          for (TimelineMark& m : lanes[w.thread].marks)
            if (m.kind == TimelineMarkKind::Arrive && m.time == w.arrive_time) m.diverged = true;
      }
      timeline.episodes.push_back(std::move(episode));
      ++time;
      continue;
    }
    const auto kind = mark_kind(e.kind);
    if (!kind) continue;
    TimelineLane& lane = lanes[e.thread];
    if (lane.marks.empty()) {
      lane.thread = e.thread;
      lane.title = fmt::format("({}, {})", e.thread.block, e.thread.index_in_block());
      lane.start = time;
    }
    const uint32_t line = line_of(program, e.range);
    const bool flagged = line > 0 && std::find(options.flagged_lines.begin(), options.flagged_lines.end(), line) !=
                                         options.flagged_lines.end();
    lane.marks.push_back(TimelineMark{*kind, time, line, mark_label(e), false, flagged});
    lane.end = time;
    if (e.kind == EventKind::ThreadExit) lane.exited = true;
    if (e.kind == EventKind::BarrierArrive) last_arrival[e.thread] = {time, line};
    ++time;
  }
  timeline.length = time;
  // Threads still waiting when the execution ended (Machine: ExecutionResult::blocked).
  for (const BlockedThread& blocked : execution.blocked) {
    const auto it = lanes.find(blocked.thread);
    if (it == lanes.end()) continue;
    it->second.stuck = true;
    it->second.stuck_line = line_of(program, blocked.range);
    it->second.stuck_reason = fmt::format("{} (line {})", blocked.waits_for, it->second.stuck_line);
    it->second.end = time;
    for (TimelineMark& m : it->second.marks)
      if (m.kind == TimelineMarkKind::Arrive && m.time == it->second.marks.back().time) m.diverged = true;
  }
  if (execution.outcome.status != ExecutionStatus::Completed) timeline.notes.push_back(execution.outcome.message);
  // Which lanes to draw: all when few; otherwise those in a divergence or stuck, then the first.
  std::set<ThreadId> kept;
  if (lanes.size() > options.max_threads) {
    for (const BarrierEpisode& episode : timeline.episodes)
      if (episode.diverged)
        for (const BarrierWait& w : episode.waits)
          if (kept.size() < options.max_threads) kept.insert(w.thread);
    for (const auto& [thread, lane] : lanes)
      if (lane.stuck && kept.size() < options.max_threads) kept.insert(thread);
    for (const auto& [thread, lane] : lanes)
      if (kept.size() < options.max_threads &&
          std::any_of(lane.marks.begin(), lane.marks.end(), [](const TimelineMark& m) { return m.flagged; }))
        kept.insert(thread);
    for (const auto& [thread, lane] : lanes)
      if (kept.size() < options.max_threads) kept.insert(thread);
  }
  for (auto& [thread, lane] : lanes) {
    if (!kept.empty() && !kept.count(thread)) {
      timeline.left_out.push_back(thread);
      continue;
    }
    timeline.lanes.push_back(std::move(lane));
  }
  return timeline;
}

} // namespace fencelab
