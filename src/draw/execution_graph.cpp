// Building the execution graph (execution_graph.h) from a recorded trace.
//
// Nodes are the memory events, fences and barrier arrivals of each thread, in program order;
// the initial value of a location gets a node of its own only when some load reads it (herd7
// draws initial writes; we draw the ones an edge needs). Edges, after "Herding Cats" 4.1:
//   po  each node to the next node of its thread;
//   rf  the store whose id a load (or atomic) read, to that load;
//   co  each store to the next store of its location in coherence order (the transitive
//       reduction: co itself is the transitive closure of these edges);
//   fr  a load to the store right after the one it read in coherence order (fr = rf⁻¹;co,
//       drawn reduced the same way; the others follow by co).
#include "fencelab/draw/execution_graph.h"

#include "sc_cycle.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <unordered_map>

namespace fencelab {

const char* graph_edge_kind_name(GraphEdgeKind kind) {
  switch (kind) {
  case GraphEdgeKind::ProgramOrder: return "po";
  case GraphEdgeKind::ReadsFrom: return "rf";
  case GraphEdgeKind::Coherence: return "co";
  case GraphEdgeKind::FromRead: return "fr";
  }
  return "?";
}

std::string describe_thread_short(ThreadId thread) {
  return fmt::format("(block {}, thread {})", thread.block, thread.index_in_block());
}

std::string GraphNode::label() const {
  switch (kind) {
  case GraphNodeKind::Initial: return fmt::format("{}={}", location_name, value);
  case GraphNodeKind::Load: return fmt::format("R {}={}", location_name, value);
  case GraphNodeKind::Store: return fmt::format("W {}={}", location_name, value);
  case GraphNodeKind::Atomic: return fmt::format("RMW {} {}", location_name, value);
  case GraphNodeKind::Fence: return fmt::format("fence.{}", scope_name(scope));
  case GraphNodeKind::Barrier: return "barrier";
  }
  return "?";
}

namespace {

std::optional<GraphNodeKind> node_kind(EventKind kind) {
  switch (kind) {
  case EventKind::Load: return GraphNodeKind::Load;
  case EventKind::Store: return GraphNodeKind::Store;
  case EventKind::Atomic: return GraphNodeKind::Atomic;
  case EventKind::Fence: return GraphNodeKind::Fence;
  case EventKind::BarrierArrive: return GraphNodeKind::Barrier;
  default: return std::nullopt;
  }
}

bool is_memory_event(EventKind kind) {
  return kind == EventKind::Load || kind == EventKind::Store || kind == EventKind::Atomic;
}

GraphNode node_of(const Program& program, const Event& e, GraphNodeKind kind) {
  GraphNode n;
  n.kind = kind;
  n.thread = e.thread;
  n.line = e.range.end > 0 ? program.source->position(e.range.begin).line : 0;
  n.location = e.location;
  n.location_name = e.location_name;
  n.scope = e.scope;
  n.sequence = e.sequence;
  if (kind == GraphNodeKind::Atomic) {
    n.value = fmt::format("{}→{}", format_word(e.old_value, e.type), format_word(e.value, e.type));
    n.store_id = e.store_id;
    n.read_from = e.read_from;
  } else if (kind == GraphNodeKind::Load) {
    n.value = format_word(e.value, e.type);
    n.read_from = e.read_from;
  } else if (kind == GraphNodeKind::Store) {
    n.value = format_word(e.value, e.type);
    n.store_id = e.store_id;
  }
  return n;
}

/** The graph of the threads in `kept` (all threads when empty), with the memory events of
 *  the locations in `locations` only (all when empty). */
ExecutionGraph build_for(const Program& program, const std::vector<Event>& events, const CoherenceOrder& order,
                         const std::set<ThreadId>& kept, const std::set<uint64_t>& locations = {}) {
  ExecutionGraph graph;
  graph.columns.push_back(GraphColumn{{}, true, "init"});
  // Columns: threads with memory events, in (block, thread) order.
  std::set<ThreadId> threads;
  for (const Event& e : events)
    if (is_memory_event(e.kind) && (kept.empty() || kept.count(e.thread))) threads.insert(e.thread);
  std::map<ThreadId, uint32_t> column_of;
  for (ThreadId t : threads) {
    column_of[t] = static_cast<uint32_t>(graph.columns.size());
    graph.columns.push_back(GraphColumn{t, false, describe_thread_short(t)});
  }
  // Nodes in program order (the trace lists each thread's events in its program order).
  std::map<ThreadId, uint32_t> rows;
  std::map<ThreadId, uint32_t> last_node;
  std::unordered_map<uint64_t, uint32_t> writer_of; // store id -> node
  for (const Event& e : events) {
    const auto kind = node_kind(e.kind);
    const auto column = column_of.find(e.thread);
    if (!kind || column == column_of.end()) continue;
    if (!locations.empty() && is_memory_event(e.kind) && !locations.count(e.location.key())) continue;
    GraphNode n = node_of(program, e, *kind);
    n.column = column->second;
    n.row = rows[e.thread]++;
    const uint32_t index = static_cast<uint32_t>(graph.nodes.size());
    if (n.writes()) writer_of[n.store_id] = index;
    const auto previous = last_node.find(e.thread);
    if (previous != last_node.end()) graph.edges.push_back(GraphEdge{GraphEdgeKind::ProgramOrder, previous->second, index});
    last_node[e.thread] = index;
    graph.nodes.push_back(std::move(n));
  }
  // Initial-value nodes for locations some load read the initial value of.
  std::unordered_map<uint64_t, uint32_t> initial_of; // location key -> node
  const size_t thread_nodes = graph.nodes.size();
  for (size_t i = 0; i < thread_nodes; ++i) {
    const GraphNode& reader = graph.nodes[i];
    if (!reader.reads() || reader.read_from != 0 || initial_of.count(reader.location.key())) continue;
    GraphNode init;
    init.kind = GraphNodeKind::Initial;
    init.location = reader.location;
    init.location_name = reader.location_name;
    init.value = reader.kind == GraphNodeKind::Atomic ? reader.value.substr(0, reader.value.find("→")) : reader.value;
    init.row = static_cast<uint32_t>(initial_of.size());
    initial_of[reader.location.key()] = static_cast<uint32_t>(graph.nodes.size());
    graph.nodes.push_back(std::move(init));
  }
  auto store_node = [&](Location location, uint64_t id) -> std::optional<uint32_t> {
    if (id == 0) {
      const auto it = initial_of.find(location.key());
      return it == initial_of.end() ? std::nullopt : std::optional<uint32_t>(it->second);
    }
    const auto it = writer_of.find(id);
    return it == writer_of.end() ? std::nullopt : std::optional<uint32_t>(it->second);
  };
  // rf and fr.
  for (uint32_t i = 0; i < thread_nodes; ++i) {
    const GraphNode& reader = graph.nodes[i];
    if (!reader.reads()) continue;
    if (const auto source = store_node(reader.location, reader.read_from))
      graph.edges.push_back(GraphEdge{GraphEdgeKind::ReadsFrom, *source, i});
    const auto history = order.find(reader.location.key());
    if (history == order.end()) continue;
    const auto read = std::find(history->second.begin(), history->second.end(), reader.read_from);
    if (read == history->second.end()) continue;
    // The first store after the one read that is drawn and is not the reader itself.
    for (auto next = read + 1; next != history->second.end(); ++next) {
      const auto target = store_node(reader.location, *next);
      if (!target) continue;
      if (*target != i) graph.edges.push_back(GraphEdge{GraphEdgeKind::FromRead, i, *target});
      break;
    }
  }
  // co between consecutive drawn stores of each location.
  for (const auto& [key, history] : order) {
    std::optional<uint32_t> previous;
    for (uint64_t id : history) {
      const Location location{uint32_t(key >> 32), uint32_t(key & 0xffffffffu)};
      const auto node = store_node(location, id);
      if (!node) continue;
      if (previous) graph.edges.push_back(GraphEdge{GraphEdgeKind::Coherence, *previous, *node});
      previous = node;
    }
  }
  return graph;
}

void mark_cycle(ExecutionGraph& graph) {
  const std::vector<uint32_t> cycle = shortest_cycle(graph);
  graph.has_sc_cycle = !cycle.empty();
  for (uint32_t edge : cycle) graph.edges[edge].in_cycle = true;
}

} // namespace

ExecutionGraph build_execution_graph(const Program& program, const std::vector<Event>& events, const std::string& model,
                                     const GraphOptions& options) {
  const CoherenceOrder order = coherence_order(events, model);
  ExecutionGraph graph = build_for(program, events, order, {});
  mark_cycle(graph);
  const size_t thread_count = graph.columns.size() - 1;
  if (graph.has_sc_cycle && graph.nodes.size() > options.focus_above_nodes) {
    // Focus on the cycle: its threads, its locations.
    std::set<ThreadId> threads;
    std::set<uint64_t> locations;
    std::map<uint64_t, std::string> names;
    for (const GraphNode& n : graph.nodes) names[n.location.key()] = n.location_name;
    for (const GraphEdge& edge : graph.edges)
      if (edge.in_cycle)
        for (uint32_t node : {edge.from, edge.to}) {
          const GraphNode& n = graph.nodes[node];
          if (n.kind != GraphNodeKind::Initial) threads.insert(n.thread);
          if (n.reads() || n.writes()) locations.insert(n.location.key());
        }
    std::vector<ThreadId> left_out;
    for (size_t c = 1; c < graph.columns.size(); ++c)
      if (!threads.count(graph.columns[c].thread)) left_out.push_back(graph.columns[c].thread);
    std::vector<std::string> locations_left_out;
    for (const auto& [key, name] : names)
      if (!locations.count(key) && !name.empty()) locations_left_out.push_back(name);
    graph = build_for(program, events, order, threads, locations);
    mark_cycle(graph);
    graph.left_out = std::move(left_out);
    graph.locations_left_out = std::move(locations_left_out);
    return graph;
  }
  if (thread_count <= options.max_threads) return graph;
  // Too many threads to read: keep those on the cycle, then the first ones in order.
  std::set<ThreadId> kept;
  for (const GraphEdge& edge : graph.edges)
    if (edge.in_cycle)
      for (uint32_t node : {edge.from, edge.to})
        if (graph.nodes[node].kind != GraphNodeKind::Initial) kept.insert(graph.nodes[node].thread);
  for (size_t c = 1; c < graph.columns.size() && kept.size() < options.max_threads; ++c) kept.insert(graph.columns[c].thread);
  std::vector<ThreadId> left_out;
  for (size_t c = 1; c < graph.columns.size(); ++c)
    if (!kept.count(graph.columns[c].thread)) left_out.push_back(graph.columns[c].thread);
  graph = build_for(program, events, order, kept);
  mark_cycle(graph);
  graph.left_out = std::move(left_out);
  return graph;
}

} // namespace fencelab
