// Drawing the barrier timeline (pictures.h, render_timeline_svg) after seed 001's figure 4.3:
// an arrow per thread for its execution over time; a curved tick where it reaches the barrier;
// the blank wait after it; a vertical line where the last thread arrives and all go on.
// Divergence (threads waiting at different barriers, or some exited) is drawn in the
// diagnostic's colour (red, as `check` prints errors) with the source lines.
#include "fencelab/draw/pictures.h"

#include "svg_writer.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace fencelab {

namespace {

constexpr double kMargin = 20;
constexpr double kLabelWidth = 92;   ///< lane titles on the left
constexpr double kLaneHeight = 46;
constexpr double kTopY = 70;         ///< centre of lane 0
constexpr double kRightNotes = 230;  ///< room on the right for "waits at ..." text
/** The legend's row, from its first symbol to the end of "the diagnostic's access". */
constexpr double kLegendWidth = 744;
constexpr const char* kDivergedColour = "#c0392b";
constexpr const char* kNormalColour = "#2c3e50";

const char* mark_colour(TimelineMarkKind kind) {
  switch (kind) {
  case TimelineMarkKind::Load: return "#1f5fbf";
  case TimelineMarkKind::Store: return "#c0392b";
  case TimelineMarkKind::Atomic: return "#7d3c98";
  case TimelineMarkKind::Fence: return "#2c3e50";
  case TimelineMarkKind::Warp: return "#117a65";
  case TimelineMarkKind::Error: return kDivergedColour;
  default: return "#555555";
  }
}

} // namespace

std::string render_timeline_svg(const BarrierTimeline& timeline) {
  const double step = std::clamp(760.0 / std::max<uint32_t>(timeline.length, 1), 6.0, 44.0);
  const double plot_x = kMargin + kLabelWidth;
  const double plot_width = step * (timeline.length + 1);
  auto time_x = [&](uint32_t t) { return plot_x + step * (t + 0.5); };
  std::map<ThreadId, size_t> lane_of;
  for (size_t i = 0; i < timeline.lanes.size(); ++i) lane_of[timeline.lanes[i].thread] = i;
  auto lane_y = [&](size_t lane) { return kTopY + kLaneHeight * lane; };

  const double width = std::max(plot_x + plot_width + kRightNotes, kLegendWidth + 2 * kMargin);
  std::vector<std::string> notes;
  const size_t wrap_width = static_cast<size_t>((width - 2 * kMargin) / 6.8);
  for (const std::string& note : timeline.notes)
    for (std::string& line : wrap_text(note, wrap_width)) notes.push_back(std::move(line));
  if (!timeline.left_out.empty()) {
    std::vector<std::string> names;
    for (ThreadId t : timeline.left_out) names.push_back(fmt::format("({}, {})", t.block, t.index_in_block()));
    for (std::string& line : wrap_text(fmt::format("Not drawn ({} threads): {}.", names.size(), fmt::join(names, ", ")),
                                       wrap_width))
      notes.push_back(std::move(line));
  }
  const double lanes_bottom = lane_y(timeline.lanes.size()) - kLaneHeight / 2;
  const double height = lanes_bottom + 56 + 17 * notes.size();
  SvgWriter svg(width, height, timeline.title.empty() ? "barrier timeline" : timeline.title);
  svg.arrow_marker("arrow-lane", kNormalColour);
  svg.arrow_marker("arrow-stuck", kDivergedColour);
  svg.text(kMargin, 26, timeline.title, "font-size:15px;font-weight:bold;");
  svg.text(plot_x, 46, "time →", "font-size:11px;fill:#555555;");

  // Waits first (under the lanes): from each arrival to its release, a pale band.
  for (const BarrierEpisode& episode : timeline.episodes) {
    for (const BarrierWait& w : episode.waits) {
      const auto lane = lane_of.find(w.thread);
      if (lane == lane_of.end() || w.arrive_time >= episode.release_time) continue;
      svg.rect(time_x(w.arrive_time), lane_y(lane->second) - 9, time_x(episode.release_time) - time_x(w.arrive_time), 18,
               episode.diverged ? "fill:#f9dedc;" : "fill:#eaf2f8;");
    }
  }
  // Lanes: the thread's execution as an arrow from its first event to its exit.
  for (size_t i = 0; i < timeline.lanes.size(); ++i) {
    const TimelineLane& lane = timeline.lanes[i];
    const double y = lane_y(i);
    svg.text(kMargin, y + 4, lane.title, lane.stuck ? fmt::format("font-weight:bold;fill:{};", kDivergedColour)
                                                    : std::string("font-weight:bold;"));
    const double x1 = time_x(lane.start) - step / 2, x2 = time_x(lane.end) + (lane.stuck ? step : step / 2);
    // The thread's activity, broken where it waits at a barrier (the figure's blank space).
    std::vector<std::pair<double, double>> waits;
    for (const BarrierEpisode& episode : timeline.episodes)
      for (const BarrierWait& w : episode.waits)
        if (w.thread == lane.thread && w.arrive_time < episode.release_time)
          waits.emplace_back(time_x(w.arrive_time), time_x(episode.release_time));
    std::sort(waits.begin(), waits.end());
    double from = x1;
    for (const auto& [begin, end] : waits) {
      if (begin > from) svg.line(from, y, begin, y, fmt::format("stroke:{};stroke-width:2;", kNormalColour));
      from = std::max(from, end);
    }
    svg.line(from, y, x2, y, fmt::format("stroke:{};stroke-width:2;marker-end:url(#{});",
                                         lane.stuck ? kDivergedColour : kNormalColour,
                                         lane.stuck ? "arrow-stuck" : "arrow-lane"));
    for (const TimelineMark& m : lane.marks) {
      const double x = time_x(m.time);
      const std::string tip = m.line > 0 ? fmt::format("{} {}, line {}, step {}", lane.title, m.label, m.line, m.time)
                                         : fmt::format("{} {}, step {}", lane.title, m.label, m.time);
      svg.begin_group(tip);
      switch (m.kind) {
      case TimelineMarkKind::Arrive: {
        // The textbook's curved tick: the thread reaches __syncthreads.
        const char* colour = m.diverged ? kDivergedColour : kNormalColour;
        svg.path(fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", x - 3, y - 14, x + 6, y, x - 3, y + 14),
                 fmt::format("fill:none;stroke:{};stroke-width:2.5;", colour));
        svg.text(x, y + 26, fmt::format("L{}", m.line), fmt::format("font-size:10px;fill:{};", colour), "middle");
        break;
      }
      case TimelineMarkKind::Exit:
        svg.line(x, y - 8, x, y + 8, "stroke:#555555;stroke-width:3;");
        svg.text(x + 4, y - 10, "exit", "font-size:10px;fill:#555555;");
        break;
      case TimelineMarkKind::Fence:
        svg.rect(x - 2, y - 9, 4, 18, "fill:#2c3e50;");
        break;
      default:
        if (m.flagged) svg.circle(x, y, 8, fmt::format("fill:none;stroke:{};stroke-width:2.5;", kDivergedColour));
        svg.circle(x, y, 4.5, fmt::format("fill:{};stroke:#ffffff;stroke-width:1;", mark_colour(m.kind)));
        if ((step >= 30 || m.flagged) && m.line > 0)
          svg.text(x, y - 9, fmt::format("L{}", m.line), "font-size:9px;fill:#777777;", "middle");
        break;
      }
      svg.end_group();
    }
    if (lane.stuck)
      svg.text(x2 + 8, y + 4, fmt::format("never released: {}", lane.stuck_reason),
               fmt::format("font-size:11px;fill:{};", kDivergedColour));
  }
  // Releases: the vertical line where the last thread arrived and all go on.
  for (const BarrierEpisode& episode : timeline.episodes) {
    double top = 1e9, bottom = -1e9;
    for (const BarrierWait& w : episode.waits) {
      const auto lane = lane_of.find(w.thread);
      if (lane == lane_of.end()) continue;
      top = std::min(top, lane_y(lane->second) - 16);
      bottom = std::max(bottom, lane_y(lane->second) + 16);
    }
    if (top > bottom) continue;
    const double x = time_x(episode.release_time);
    const char* colour = episode.diverged ? kDivergedColour : episode.warp_level ? "#117a65" : kNormalColour;
    svg.begin_group(episode.diverged ? episode.divergence
                                     : fmt::format("{} completes at step {}",
                                                   episode.warp_level ? "__syncwarp" : "__syncthreads",
                                                   episode.release_time));
    svg.line(x, top, x, bottom, fmt::format("stroke:{};stroke-width:3;", colour));
    svg.text(x, top - 4, episode.warp_level ? "__syncwarp" : episode.diverged ? "diverged release" : "release",
             fmt::format("font-size:10px;fill:{};", colour), "middle");
    svg.end_group();
  }
  // Legend and notes.
  double y = lanes_bottom + 26;
  double x = kMargin;
  svg.path(fmt::format("M{:.1f},{:.1f} Q{:.1f},{:.1f} {:.1f},{:.1f}", x + 4, y - 10, x + 13, y - 2, x + 4, y + 6),
           "fill:none;stroke:#2c3e50;stroke-width:2.5;");
  svg.text(x + 18, y, "arrives at the barrier", "font-size:11px;");
  x += 160;
  svg.rect(x, y - 9, 26, 14, "fill:#eaf2f8;");
  svg.text(x + 32, y, "waits", "font-size:11px;");
  x += 80;
  svg.line(x + 6, y - 11, x + 6, y + 5, "stroke:#2c3e50;stroke-width:3;");
  svg.text(x + 14, y, "all released", "font-size:11px;");
  x += 110;
  svg.circle(x + 5, y - 3, 4.5, "fill:#c0392b;");
  svg.text(x + 13, y, "store", "font-size:11px;");
  svg.circle(x + 60, y - 3, 4.5, "fill:#1f5fbf;");
  svg.text(x + 68, y, "load", "font-size:11px;");
  svg.line(x + 120, y - 3, x + 146, y - 3, fmt::format("stroke:{};stroke-width:2;", kDivergedColour));
  svg.text(x + 152, y, "divergence", fmt::format("font-size:11px;fill:{};", kDivergedColour));
  svg.circle(x + 232, y - 3, 7, fmt::format("fill:none;stroke:{};stroke-width:2.5;", kDivergedColour));
  svg.text(x + 244, y, "the diagnostic's access", fmt::format("font-size:11px;fill:{};", kDivergedColour));
  y += 22;
  for (const std::string& line : notes) {
    svg.text(kMargin, y, line, "font-size:12px;fill:#222222;");
    y += 17;
  }
  return svg.finish();
}

} // namespace fencelab
