// The sc cycle as a litmus shape (cycle_shape.h).
#include "cycle_shape.h"

#include <algorithm>
#include <optional>
#include <set>

namespace fencelab {

namespace {

bool is_communication(GraphEdgeKind kind) { return kind != GraphEdgeKind::ProgramOrder; }

/** How the access an edge of `kind` enters takes part: rf ends at a read, co and fr at a write. */
CycleRole role_entered_by(GraphEdgeKind kind) {
  return kind == GraphEdgeKind::ReadsFrom ? CycleRole::Read : CycleRole::Write;
}

/** How the access an edge of `kind` leaves takes part: rf and co start at a write, fr at a read. */
CycleRole role_left_by(GraphEdgeKind kind) {
  return kind == GraphEdgeKind::FromRead ? CycleRole::Read : CycleRole::Write;
}

char role_letter(CycleRole role) { return role == CycleRole::Read ? 'R' : 'W'; }

/** An edge's relation as the cycle reads it: a co edge into an atomic that read the store it
 *  comes from is its rf edge too (a read-modify-write reads its coherence predecessor), and
 *  reads as rf, whichever of the two the shortest cycle happened to take. */
GraphEdgeKind relation_of(const ExecutionGraph& graph, const GraphEdge& e) {
  const GraphNode& to = graph.nodes[e.to];
  const bool reads_source = to.kind == GraphNodeKind::Atomic && to.read_from == graph.nodes[e.from].store_id;
  if (e.kind == GraphEdgeKind::Coherence && reads_source) return GraphEdgeKind::ReadsFrom;
  return e.kind;
}

struct KnownShape {
  CycleShape shape;
  const char* label;
  std::vector<std::string> ring; ///< segment kinds in cycle order (any rotation matches)
};

/** herd7's names for the two-, three- and four-thread cycles ("Herding Cats", section 4). */
const std::vector<KnownShape>& known_shapes() {
  static const std::vector<KnownShape> shapes = {
      {CycleShape::MessagePassing, "MP", {"WW", "RR"}},
      {CycleShape::StoreBuffering, "SB", {"WR", "WR"}},
      {CycleShape::LoadBuffering, "LB", {"RW", "RW"}},
      {CycleShape::TwoPlusTwoW, "2+2W", {"WW", "WW"}},
      {CycleShape::S, "S", {"WW", "RW"}},
      {CycleShape::R, "R", {"WW", "WR"}},
      {CycleShape::Iriw, "IRIW", {"W", "RR", "W", "RR"}},
      {CycleShape::Wrc, "WRC", {"W", "RW", "RR"}},
      {CycleShape::Isa2, "ISA2", {"WW", "RW", "RR"}},
      {CycleShape::Rwc, "RWC", {"W", "RR", "WR"}},
  };
  return shapes;
}

/** The rotations of `kinds` that equal `ring` (SB's and IRIW's rings match in two). */
std::vector<size_t> rotations_matching(const std::vector<std::string>& kinds, const std::vector<std::string>& ring) {
  std::vector<size_t> rotations;
  if (kinds.size() != ring.size()) return rotations;
  for (size_t r = 0; r < kinds.size(); ++r) {
    bool equal = true;
    for (size_t i = 0; i < kinds.size() && equal; ++i) equal = kinds[(r + i) % kinds.size()] == ring[i];
    if (equal) rotations.push_back(r);
  }
  return rotations;
}

/** A communication edge between two accesses of one thread that goes forward in program order
 *  (a thread reading its own earlier store, rf-internal) orders nothing po does not: the
 *  segments it joins are one stretch of that thread. Edges that go back (CoWR's fr) stay. */
void merge_forward_edges(const ExecutionGraph& graph, std::vector<CycleSegment>& segments) {
  for (size_t i = 0; segments.size() > 1 && i < segments.size();) {
    CycleSegment& here = segments[i];
    CycleSegment& next = segments[(i + 1) % segments.size()];
    if (!(here.thread == next.thread) || graph.nodes[here.last].row >= graph.nodes[next.first].row) {
      ++i;
      continue;
    }
    here.last = next.last;
    here.exit = next.exit;
    here.leaving = next.leaving;
    const size_t erase = (i + 1) % segments.size();
    segments.erase(segments.begin() + long(erase));
    if (erase < i) --i; // the ring wrapped: `here` moved down by one
  }
}

/** The nodes of the segment's thread strictly between its first and last access. */
std::vector<uint32_t> nodes_between(const ExecutionGraph& graph, const CycleSegment& segment) {
  std::vector<uint32_t> path;
  const GraphNode& first = graph.nodes[segment.first];
  const GraphNode& last = graph.nodes[segment.last];
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& node = graph.nodes[i];
    if (node.kind != GraphNodeKind::Initial && node.column == first.column && node.row > first.row &&
        node.row < last.row)
      path.push_back(i);
  }
  return path;
}

} // namespace

std::string segment_kind(const ExecutionGraph& graph, const CycleSegment& segment) {
  if (!segment.single()) return {role_letter(segment.entry), role_letter(segment.exit)};
  if (graph.nodes[segment.first].kind == GraphNodeKind::Atomic && segment.entry == CycleRole::Read &&
      segment.exit == CycleRole::Write)
    return "A";
  if (segment.entry == segment.exit) return {role_letter(segment.entry)};
  return "X"; // a single access entered as a write and left as a read: no known shape has one
}

CycleReading read_cycle(const ExecutionGraph& graph, const std::vector<uint32_t>& cycle) {
  CycleReading reading;
  if (cycle.empty()) return reading;
  const size_t n = cycle.size();
  auto edge = [&](size_t i) {
    GraphEdge e = graph.edges[cycle[i % n]];
    e.kind = relation_of(graph, e);
    return e;
  };
  // Start right after a communication edge, so that the first segment is whole.
  size_t start = 0;
  while (start < n && !is_communication(edge(start + n - 1).kind)) ++start;
  CycleSegment current;
  current.first = edge(start).from;
  current.entry = role_entered_by(edge(start + n - 1).kind);
  for (size_t k = 0; k < n; ++k) {
    const GraphEdge e = edge(start + k);
    if (!is_communication(e.kind)) continue; // po: the segment goes on
    current.last = e.from;
    current.exit = role_left_by(e.kind);
    current.leaving = e.kind;
    current.thread = graph.nodes[current.first].thread;
    reading.segments.push_back(std::move(current));
    current = CycleSegment{};
    current.first = e.to;
    current.entry = role_entered_by(e.kind);
  }
  merge_forward_edges(graph, reading.segments);
  for (CycleSegment& segment : reading.segments) segment.path = nodes_between(graph, segment);
  std::set<uint32_t> blocks;
  std::set<uint64_t> locations;
  for (const CycleSegment& s : reading.segments) {
    blocks.insert(s.thread.block);
    locations.insert(graph.nodes[s.first].location.key());
    locations.insert(graph.nodes[s.last].location.key());
  }
  reading.spans_blocks = blocks.size() > 1;
  reading.one_location = locations.size() == 1;

  if (reading.one_location) {
    reading.shape = CycleShape::Coherence;
    const CycleSegment* ordered = nullptr;
    size_t stepped = 0;
    for (const CycleSegment& s : reading.segments)
      if (!s.single()) {
        ordered = &s;
        ++stepped;
      }
    reading.label = stepped == 1 ? "Co" + segment_kind(graph, *ordered) : "Co";
  } else {
    // Match the ring without its relays, then rotate the whole ring to the match.
    std::vector<size_t> kept;
    std::vector<std::string> kinds;
    for (size_t i = 0; i < reading.segments.size(); ++i) {
      const std::string kind = segment_kind(graph, reading.segments[i]);
      if (kind == "A") continue;
      kept.push_back(i);
      kinds.push_back(kind);
    }
    reading.shape = CycleShape::Other;
    for (const KnownShape& known : known_shapes()) {
      const std::vector<size_t> rotations = rotations_matching(kinds, known.ring);
      if (rotations.empty()) continue;
      reading.shape = known.shape;
      reading.label = known.label;
      // Of equal rotations, the one that starts with the lowest thread: block 0's before block 1's.
      size_t first = kept[rotations.front()];
      for (size_t r : rotations)
        if (reading.segments[kept[r]].thread < reading.segments[first].thread) first = kept[r];
      std::rotate(reading.segments.begin(), reading.segments.begin() + long(first), reading.segments.end());
      break;
    }
  }
  for (const CycleSegment& s : reading.segments) {
    if (!reading.relations.empty()) reading.relations += ", ";
    if (!s.single()) reading.relations += "po, ";
    reading.relations += graph_edge_kind_name(s.leaving);
  }
  return reading;
}

} // namespace fencelab
