// Drawing a warp's lanes (pictures.h, render_warp_svg): 32 rows, one per lane, a column per
// step; a filled cell is an active lane. Steps where only some of the warp's lanes are active
// are a diverged path (orange); the first step with every lane active again is the
// reconvergence point (a green rule). Programming Guide 4.1 draws SIMT divergence this way.
#include "fencelab/draw/pictures.h"

#include "svg_writer.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

namespace fencelab {

std::string render_warp_svg(const WarpLanes& lanes, const std::string& mode) {
  constexpr double kMargin = 20, kLabelWidth = 56, kCellHeight = 13, kTop = 92;
  const double cell = std::clamp(900.0 / std::max<size_t>(lanes.steps.size(), 1), 9.0, 26.0);
  const double plot_x = kMargin + kLabelWidth;
  const double width = std::max(plot_x + cell * lanes.steps.size() + kMargin + 40, 640.0);
  const double plot_bottom = kTop + kCellHeight * kWarpSize;
  const double height = plot_bottom + 110;
  const std::string title = fmt::format("warp lanes, {}, --warp {}", lanes.title, mode);
  SvgWriter svg(width, height, title);
  svg.text(kMargin, 26, title, "font-size:15px;font-weight:bold;");
  size_t diverged = 0, reconverged = 0;
  for (const WarpStep& s : lanes.steps) {
    diverged += s.diverged ? 1 : 0;
    reconverged += s.reconverged ? 1 : 0;
  }
  svg.text(kMargin, 44,
           fmt::format("{} steps; {} with only part of the warp active; {} reconvergence point{}", lanes.steps.size(),
                       diverged, reconverged, reconverged == 1 ? "" : "s"),
           "font-size:11px;fill:#555555;");
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    const double y = kTop + kCellHeight * lane;
    if (lane % 4 == 0)
      svg.text(plot_x - 6, y + kCellHeight - 3, fmt::format("lane {}", lane), "font-size:9px;fill:#555555;", "end");
    const bool exists = (lanes.lanes_mask >> lane) & 1u;
    if (!exists) svg.rect(plot_x, y, cell * lanes.steps.size(), kCellHeight, "fill:#f2f2f2;");
  }
  for (size_t i = 0; i < lanes.steps.size(); ++i) {
    const WarpStep& s = lanes.steps[i];
    const double x = plot_x + cell * i;
    svg.begin_group(fmt::format("step {}: {} at line {}, active mask 0x{:08x} ({} lane{}){}{}", i + 1, s.label, s.line,
                                s.mask, std::popcount(s.mask), std::popcount(s.mask) == 1 ? "" : "s",
                                s.diverged ? ", diverged" : "", s.reconverged ? ", reconverged" : ""));
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!((s.mask >> lane) & 1u)) continue;
      svg.rect(x + 1, kTop + kCellHeight * lane + 1, cell - 2, kCellHeight - 2,
               s.diverged ? "fill:#e67e22;" : "fill:#2e86c1;", 1.5);
    }
    if (s.reconverged) {
      svg.line(x, kTop - 16, x, plot_bottom + 4, "stroke:#1e8449;stroke-width:2.5;");
      svg.text(x + 2, kTop - 20, "reconverged", "font-size:10px;fill:#1e8449;");
    }
    // The step's source line above its column, every column when they are wide enough.
    if (cell >= 18 || i % 3 == 0)
      svg.text(x + cell / 2, kTop - 4, s.line > 0 ? fmt::format("{}", s.line) : s.label, "font-size:9px;fill:#555555;",
               "middle");
    svg.end_group();
  }
  svg.text(plot_x - 6, kTop - 4, "line", "font-size:9px;fill:#555555;", "end");
  double y = plot_bottom + 24;
  svg.rect(kMargin, y - 10, 14, 12, "fill:#2e86c1;");
  svg.text(kMargin + 20, y, "all the warp's lanes active", "font-size:11px;");
  svg.rect(kMargin + 200, y - 10, 14, 12, "fill:#e67e22;");
  svg.text(kMargin + 220, y, "diverged: some lanes masked off", "font-size:11px;");
  svg.line(kMargin + 430, y - 11, kMargin + 430, y + 3, "stroke:#1e8449;stroke-width:2.5;");
  svg.text(kMargin + 438, y, "reconvergence", "font-size:11px;");
  y += 20;
  const char* explanation =
      mode == "lockstep" ? "lockstep (pre-Volta): the active lanes run each step together; diverged paths run one after "
                           "the other and reconverge at the end of the branch."
                         : "its (Volta and later): lanes are independent threads; a step is one lane's unless lanes "
                           "happened to run the same event together.";
  for (const std::string& line : wrap_text(explanation, static_cast<size_t>((width - 2 * kMargin) / 6.5))) {
    svg.text(kMargin, y, line, "font-size:11px;fill:#555555;");
    y += 16;
  }
  if (lanes.steps_left_out > 0)
    svg.text(kMargin, y, fmt::format("{} later steps not drawn", lanes.steps_left_out), "font-size:11px;fill:#555555;");
  return svg.finish();
}

} // namespace fencelab
