// Shortest cycle in po ∪ rf ∪ co ∪ fr (sc_cycle.h). A cycle lies within one strongly connected
// component, so the components come first (Tarjan's algorithm, linear): an execution without a
// component of two nodes or more is acyclic and costs no more than that (a large sequentially
// consistent execution, which `explain` and the report meet often). Then a breadth-first search
// from each node of a cyclic component with a communication edge (every cycle has one: po alone
// is acyclic) back to itself, within its component. Witness graphs have tens of nodes, so
// V·(V+E) is nothing; on large ones the searches stop once they have visited kSearchBudget
// edges and found a cycle, which is then a shortest one among those searched.
#include "sc_cycle.h"

#include <deque>
#include <limits>

namespace fencelab {

namespace {

constexpr uint64_t kSearchBudget = 20'000'000; ///< edge visits, over all the searches

/** The strongly connected component of each node (iterative Tarjan). */
std::vector<uint32_t> components(const std::vector<std::vector<uint32_t>>& successors) {
  const uint32_t n = static_cast<uint32_t>(successors.size());
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> index(n, kNone), low(n, 0), component(n, kNone), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::pair<uint32_t, uint32_t>> frames; // (node, next successor to visit)
  uint32_t next_index = 0, next_component = 0;
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    frames.push_back({root, 0});
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!frames.empty()) {
      auto& [node, child] = frames.back();
      if (child < successors[node].size()) {
        const uint32_t next = successors[node][child++];
        if (index[next] == kNone) {
          index[next] = low[next] = next_index++;
          stack.push_back(next);
          on_stack[next] = true;
          frames.push_back({next, 0});
        } else if (on_stack[next]) {
          low[node] = std::min(low[node], index[next]);
        }
        continue;
      }
      const uint32_t done = node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      if (low[done] != index[done]) continue;
      for (uint32_t member = kNone; member != done;) {
        member = stack.back();
        stack.pop_back();
        on_stack[member] = false;
        component[member] = next_component;
      }
      ++next_component;
    }
  }
  return component;
}

} // namespace

std::vector<uint32_t> shortest_cycle(const ExecutionGraph& graph) {
  const uint32_t node_count = static_cast<uint32_t>(graph.nodes.size());
  std::vector<std::vector<uint32_t>> outgoing(node_count); // edge indexes by source node
  std::vector<std::vector<uint32_t>> successors(node_count);
  for (uint32_t i = 0; i < graph.edges.size(); ++i) {
    outgoing[graph.edges[i].from].push_back(i);
    successors[graph.edges[i].from].push_back(graph.edges[i].to);
  }
  const std::vector<uint32_t> component = components(successors);
  std::vector<uint32_t> component_size(node_count, 0);
  for (uint32_t c : component) ++component_size[c];

  std::vector<uint32_t> best;
  uint64_t visited = 0;
  constexpr uint32_t kUnseen = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> via(node_count); // the edge that reached each node
  std::vector<uint32_t> depth(node_count, kUnseen);
  std::vector<uint32_t> touched;           // nodes whose depth this search set
  for (uint32_t start = 0; start < node_count; ++start) {
    if (component_size[component[start]] < 2) continue;
    if (!best.empty() && visited > kSearchBudget) break;
    bool has_communication = false;
    for (uint32_t edge : outgoing[start]) has_communication |= graph.edges[edge].kind != GraphEdgeKind::ProgramOrder;
    if (!has_communication) continue;
    for (uint32_t node : touched) depth[node] = kUnseen;
    touched.assign(1, start);
    std::deque<uint32_t> queue{start};
    depth[start] = 0;
    uint32_t closing = kUnseen;
    while (!queue.empty() && closing == kUnseen) {
      const uint32_t node = queue.front();
      queue.pop_front();
      if (!best.empty() && depth[node] + 1 >= best.size()) break; // cannot beat the best
      for (uint32_t edge : outgoing[node]) {
        ++visited;
        const uint32_t next = graph.edges[edge].to;
        if (component[next] != component[start]) continue;
        if (next == start) {
          closing = edge;
          break;
        }
        if (depth[next] != kUnseen) continue;
        depth[next] = depth[node] + 1;
        via[next] = edge;
        touched.push_back(next);
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
