// Rendering the draw layer's models: self-contained SVG (no scripts, no external fonts or
// links; generic font families only) for pages and files, Unicode box characters for terminals.
#pragma once

#include "fencelab/draw/barrier_timeline.h"
#include "fencelab/draw/execution_graph.h"
#include "fencelab/draw/warp_lanes.h"

#include <string>

namespace fencelab {

/** The execution graph: a column per thread, po down, rf/co/fr across, the sc cycle marked. */
std::string render_graph_svg(const ExecutionGraph& graph);

/** The barrier timeline: a lane per thread, time across, arrivals and releases. */
std::string render_timeline_svg(const BarrierTimeline& timeline);

/** A warp's 32 lanes by step; `mode` names the warp mode shown ("its", "lockstep"). */
std::string render_warp_svg(const WarpLanes& lanes, const std::string& mode);

/** The barrier timeline for a terminal `width` columns wide (time is scaled to fit). */
std::string render_timeline_text(const BarrierTimeline& timeline, uint32_t width);

/** Text with &, <, >, " and ' escaped for XML and HTML. */
std::string escape_markup(std::string_view text);

} // namespace fencelab
