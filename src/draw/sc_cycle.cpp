// Shortest cycle in po ∪ rf ∪ co ∪ fr (sc_cycle.h): a breadth-first search from each node
// back to itself; witness graphs have tens of nodes, so V·(V+E) is nothing. Larger graphs
// search from the nodes of communication edges only (every cycle has one: po alone is acyclic).
#include "sc_cycle.h"

#include <deque>
#include <limits>

namespace fencelab {

std::vector<uint32_t> shortest_cycle(const ExecutionGraph& graph) {
  const uint32_t node_count = static_cast<uint32_t>(graph.nodes.size());
  std::vector<std::vector<uint32_t>> outgoing(node_count); // edge indexes by source node
  for (uint32_t i = 0; i < graph.edges.size(); ++i) outgoing[graph.edges[i].from].push_back(i);

  std::vector<uint32_t> best;
  constexpr uint32_t kUnseen = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> via(node_count); // the edge that reached each node
  std::vector<uint32_t> depth(node_count);
  for (uint32_t start = 0; start < node_count; ++start) {
    bool has_communication = false;
    for (uint32_t edge : outgoing[start]) has_communication |= graph.edges[edge].kind != GraphEdgeKind::ProgramOrder;
    if (!has_communication) continue;
    std::fill(via.begin(), via.end(), kUnseen);
    std::fill(depth.begin(), depth.end(), kUnseen);
    std::deque<uint32_t> queue{start};
    depth[start] = 0;
    uint32_t closing = kUnseen;
    while (!queue.empty() && closing == kUnseen) {
      const uint32_t node = queue.front();
      queue.pop_front();
      if (!best.empty() && depth[node] + 1 >= best.size()) break; // cannot beat the best
      for (uint32_t edge : outgoing[node]) {
        const uint32_t next = graph.edges[edge].to;
        if (next == start) {
          closing = edge;
          break;
        }
        if (depth[next] != kUnseen) continue;
        depth[next] = depth[node] + 1;
        via[next] = edge;
        queue.push_back(next);
      }
    }
    if (closing == kUnseen) continue;
    std::vector<uint32_t> cycle{closing};
    for (uint32_t node = graph.edges[closing].from; node != start; node = graph.edges[via[node]].from)
      cycle.insert(cycle.begin(), via[node]);
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

} // namespace fencelab
