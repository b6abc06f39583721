// Drawing an execution graph (pictures.h, render_graph_svg) as herd7 and the papers do: a
// column per thread, program order down, communication edges across, labelled by relation.
// Colours follow herd7's defaults where it has them (rf red, co blue, fr orange); the edges of
// the sc cycle are drawn over a yellow band, the way the papers shade a forbidden cycle.
#include "fencelab/draw/pictures.h"

#include "svg_writer.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace fencelab {

namespace {

constexpr double kMargin = 20;
constexpr double kRowHeight = 70;
constexpr double kBoxHeight = 36;
constexpr double kHeaderY = 56;       ///< column titles
constexpr double kFirstRowY = 96;     ///< centre of row 0
constexpr double kCaptionLine = 17;

struct EdgeStyle {
  const char* colour;
  const char* marker;
  const char* dash;
};

EdgeStyle style_of(GraphEdgeKind kind) {
  switch (kind) {
  case GraphEdgeKind::ProgramOrder: return {"#6b6b6b", "arrow-po", ""};
  case GraphEdgeKind::ReadsFrom: return {"#c0392b", "arrow-rf", ""};
  case GraphEdgeKind::Coherence: return {"#1f5fbf", "arrow-co", ""};
  case GraphEdgeKind::FromRead: return {"#b9770e", "arrow-fr", "stroke-dasharray:6 4;"};
  }
  return {"#000000", "arrow-po", ""};
}

struct Layout {
  std::map<uint32_t, double> column_x; ///< graph column -> centre x
  double box_width = 146;   ///< wide enough for the longest label (monospace, bold 12px)
  double column_width = 200;
  double width = 0;
  double rows_bottom = 0;
};

Layout lay_out(const ExecutionGraph& graph) {
  Layout layout;
  std::vector<bool> used(graph.columns.size(), false);
  uint32_t max_row = 0;
  for (const GraphNode& n : graph.nodes) {
    used[n.column] = true;
    max_row = std::max(max_row, n.row);
  }
  size_t longest = 0;
  for (const GraphNode& n : graph.nodes) longest = std::max(longest, n.label().size());
  layout.box_width = std::max(146.0, 7.6 * double(longest) + 16);
  layout.column_width = layout.box_width + 54;
  double x = kMargin + layout.column_width / 2;
  for (uint32_t c = 0; c < graph.columns.size(); ++c) {
    if (!used[c]) continue;
    layout.column_x[c] = x;
    x += layout.column_width;
  }
  layout.width = std::max(x - layout.column_width / 2 + kMargin, 800.0);
  layout.rows_bottom = kFirstRowY + max_row * kRowHeight + kBoxHeight;
  return layout;
}

double node_y(const GraphNode& n) { return kFirstRowY + n.row * kRowHeight; }

bool is_bar(const GraphNode& n) { return n.kind == GraphNodeKind::Fence || n.kind == GraphNodeKind::Barrier; }

/** Half the node's height: bars are thin. */
double half_height(const GraphNode& n) { return is_bar(n) ? 5 : kBoxHeight / 2; }

/** The SVG path of an edge, and where its label goes. */
struct EdgeShape {
  std::string d;
  double label_x = 0, label_y = 0;
};

EdgeShape shape_edge(const Layout& layout, const GraphNode& from, const GraphNode& to, GraphEdgeKind kind) {
  const double x1 = layout.column_x.at(from.column), y1 = node_y(from);
  const double x2 = layout.column_x.at(to.column), y2 = node_y(to);
  EdgeShape shape;
  if (kind == GraphEdgeKind::ProgramOrder) {
    shape.d = fmt::format("M{:.1f},{:.1f} L{:.1f},{:.1f}", x1, y1 + half_height(from), x2, y2 - half_height(to));
    shape.label_x = x1 + 6;
    shape.label_y = (y1 + y2) / 2 + 4;
    return shape;
  }
  if (from.column == to.column) {
    // Same column: an arc out to the right of the boxes.
    const double side = x1 + layout.box_width / 2;
    const double bulge = 34 + 8 * std::abs(double(to.row) - double(from.row));
    shape.d = fmt::format("M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}", side, y1, side + bulge, y1,
                          side + bulge, y2, side, y2);
    shape.label_x = side + bulge * 0.75 + 2;
    shape.label_y = (y1 + y2) / 2;
    return shape;
  }
  const double direction = x2 > x1 ? 1 : -1;
  const double sx = x1 + direction * layout.box_width / 2, ex = x2 - direction * layout.box_width / 2;
  const double pull = std::max(30.0, std::abs(ex - sx) * 0.35);
  // An edge over a column between arcs above the row instead of running behind its boxes.
  const bool skips_column = std::abs(x2 - x1) > layout.column_width * 1.5;
  const double lift = skips_column && from.row == to.row ? kRowHeight * 0.55 : 0;
  shape.d = fmt::format("M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}", sx, y1, sx + direction * pull,
                        y1 - lift, ex - direction * pull, y2 - lift, ex, y2);
  // The label sits a quarter of the way along, near the source: two edges that cross (rf and
  // fr of message passing) then keep their labels apart.
  shape.label_x = sx + (ex - sx) * 0.25;
  shape.label_y = y1 + (y2 - y1) * 0.25 - 4;
  return shape;
}

std::string sublabel(const ExecutionGraph& graph, const GraphNode& n) {
  std::string text = n.line > 0 ? fmt::format("line {}", n.line) : "";
  if (n.reads()) {
    // Which thread wrote what it read: herd7 writes it on the rf edge; here, beside the read too.
    for (const GraphEdge& e : graph.edges) {
      if (e.kind != GraphEdgeKind::ReadsFrom || &graph.nodes[e.to] != &n) continue;
      const GraphNode& source = graph.nodes[e.from];
      const std::string from = source.kind == GraphNodeKind::Initial
                                   ? "init"
                                   : fmt::format("({}, {})", source.thread.block, source.thread.index_in_block());
      text += fmt::format("{}from {}", text.empty() ? "" : " · ", from);
    }
  }
  return text;
}

void draw_node(SvgWriter& svg, const ExecutionGraph& graph, const Layout& layout, const GraphNode& n) {
  const double x = layout.column_x.at(n.column), y = node_y(n);
  svg.begin_group(n.kind == GraphNodeKind::Initial ? fmt::format("initial value {}", n.label())
                                                   : fmt::format("{} by {}, line {}", n.label(),
                                                                 describe_thread_short(n.thread), n.line));
  if (is_bar(n)) {
    const char* colour = n.kind == GraphNodeKind::Fence ? "#2c3e50" : "#7d3c98";
    svg.rect(x - layout.box_width / 2 - 6, y - 4, layout.box_width + 12, 8, fmt::format("fill:{};", colour), 2);
    const std::string what = n.kind == GraphNodeKind::Fence
                                 ? fmt::format("fence, scope {}", scope_name(n.scope))
                                 : std::string("barrier");
    const std::string label = n.line > 0 ? fmt::format("{} · line {}", what, n.line) : what;
    // On a white ground: the po arrow passes behind the label.
    const double label_width = 6.2 * double(label.size());
    svg.rect(x - label_width / 2, y - 20, label_width, 14, "fill:#ffffff;fill-opacity:0.9;", 2);
    svg.text(x, y - 9, label, fmt::format("font-size:11px;fill:{};", colour), "middle");
  } else {
    const bool initial = n.kind == GraphNodeKind::Initial;
    svg.rect(x - layout.box_width / 2, y - kBoxHeight / 2, layout.box_width, kBoxHeight,
             initial ? "fill:#f4f4f4;stroke:#999999;stroke-dasharray:3 2;" : "fill:#fdfefe;stroke:#34495e;", 5);
    svg.text(x, y - 2, n.label(), "font-weight:bold;font-family:DejaVu Sans Mono, monospace;", "middle");
    const std::string below = sublabel(graph, n);
    if (!below.empty()) svg.text(x, y + 12, below, "font-size:10px;fill:#555555;", "middle");
  }
  svg.end_group();
}

void draw_legend(SvgWriter& svg, double y) {
  double x = kMargin;
  for (const GraphEdgeKind kind : {GraphEdgeKind::ProgramOrder, GraphEdgeKind::ReadsFrom, GraphEdgeKind::Coherence,
                                   GraphEdgeKind::FromRead}) {
    const EdgeStyle style = style_of(kind);
    svg.line(x, y, x + 28, y, fmt::format("stroke:{};stroke-width:2;{}", style.colour, style.dash));
    static const char* const names[] = {"po program order", "rf reads-from", "co coherence", "fr from-read"};
    svg.text(x + 34, y + 4, names[static_cast<int>(kind)], "font-size:11px;");
    x += 150;
  }
  svg.line(x, y, x + 28, y, "stroke:#ffd400;stroke-width:9;stroke-opacity:0.7;");
  svg.text(x + 34, y + 4, "cycle sc forbids", "font-size:11px;");
}

} // namespace

std::string render_graph_svg(const ExecutionGraph& graph) {
  const Layout layout = lay_out(graph);
  std::vector<std::string> caption;
  const size_t wrap_width = static_cast<size_t>((layout.width - 2 * kMargin) / 6.8);
  for (const std::string& sentence : graph.caption)
    for (std::string& line : wrap_text(sentence, wrap_width)) caption.push_back(std::move(line));
  if (!graph.left_out.empty()) {
    std::vector<std::string> names;
    for (ThreadId t : graph.left_out) names.push_back(fmt::format("({}, {})", t.block, t.index_in_block()));
    for (std::string& line : wrap_text(fmt::format("Not drawn ({} more threads with memory events): {}.",
                                                   names.size(), fmt::join(names, ", ")),
                                       wrap_width))
      caption.push_back(std::move(line));
  }
  if (!graph.locations_left_out.empty())
    for (std::string& line : wrap_text(fmt::format("Only the cycle's threads and locations are drawn; not drawn: the "
                                                   "accesses to {}.",
                                                   fmt::join(graph.locations_left_out, ", ")),
                                       wrap_width))
      caption.push_back(std::move(line));
  const double legend_y = layout.rows_bottom + 26;
  const double height = legend_y + 22 + caption.size() * kCaptionLine + 12;
  SvgWriter svg(layout.width, height, graph.title.empty() ? "execution graph" : graph.title);
  for (const GraphEdgeKind kind : {GraphEdgeKind::ProgramOrder, GraphEdgeKind::ReadsFrom, GraphEdgeKind::Coherence,
                                   GraphEdgeKind::FromRead}) {
    const EdgeStyle style = style_of(kind);
    svg.arrow_marker(style.marker, style.colour);
  }
  svg.text(kMargin, 26, graph.title, "font-size:15px;font-weight:bold;");
  for (const auto& [column, x] : layout.column_x) {
    svg.text(x, kHeaderY, graph.columns[column].title, "font-weight:bold;fill:#2c3e50;", "middle");
    // Blocks are told apart by a rule under the title.
    if (!graph.columns[column].initial)
      svg.line(x - layout.column_width / 2 + 12, kHeaderY + 8, x + layout.column_width / 2 - 12, kHeaderY + 8,
               graph.columns[column].thread.block % 2 == 0 ? "stroke:#2c3e50;stroke-width:2;"
                                                           : "stroke:#7d3c98;stroke-width:2;");
  }
  // Highlights first, under everything.
  std::vector<EdgeShape> shapes;
  for (const GraphEdge& e : graph.edges) shapes.push_back(shape_edge(layout, graph.nodes[e.from], graph.nodes[e.to], e.kind));
  for (size_t i = 0; i < graph.edges.size(); ++i)
    if (graph.edges[i].in_cycle)
      svg.path(shapes[i].d, "fill:none;stroke:#ffd400;stroke-width:9;stroke-opacity:0.7;stroke-linecap:round;");
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const GraphEdge& e = graph.edges[i];
    const EdgeStyle style = style_of(e.kind);
    svg.path(shapes[i].d, fmt::format("fill:none;stroke:{};stroke-width:{};{}marker-end:url(#{});", style.colour,
                                      e.in_cycle ? 2.5 : 1.6, style.dash, style.marker));
  }
  for (const GraphNode& n : graph.nodes) draw_node(svg, graph, layout, n);
  // Edge labels last, on a white ground so that they stay readable over lines.
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const GraphEdge& e = graph.edges[i];
    const EdgeStyle style = style_of(e.kind);
    const char* name = graph_edge_kind_name(e.kind);
    svg.rect(shapes[i].label_x - 2, shapes[i].label_y - 10, 16, 13, "fill:#ffffff;fill-opacity:0.85;", 2);
    svg.text(shapes[i].label_x, shapes[i].label_y, name,
             fmt::format("font-size:11px;font-style:italic;fill:{};{}", style.colour, e.in_cycle ? "font-weight:bold;" : ""));
  }
  draw_legend(svg, legend_y);
  double y = legend_y + 24;
  for (const std::string& line : caption) {
    svg.text(kMargin, y, line, "font-size:12px;fill:#222222;");
    y += kCaptionLine;
  }
  return svg.finish();
}

} // namespace fencelab
