// The draw layer's models against the traces they are built from: every rf edge joins a load
// to the store whose id it read; co follows the order stores reached memory and, with rf, fr
// and po, obeys coherence (SC per location); the sc cycle is there exactly when sc cannot
// produce the outcome. Plus the timeline's barrier episodes and a warp's lanes.
#include "fencelab/draw/barrier_timeline.h"
#include "fencelab/draw/execution_graph.h"
#include "fencelab/draw/pictures.h"
#include "fencelab/draw/warp_lanes.h"
#include "fencelab/draw/witness_pictures.h"
#include "machine_helpers.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** Whether the edges among `nodes` (a node count) have a cycle (plain depth-first search). */
bool has_cycle(size_t node_count, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  std::vector<std::vector<uint32_t>> next(node_count);
  for (const auto& [from, to] : edges) next[from].push_back(to);
  std::vector<int> state(node_count, 0); // 0 unseen, 1 on the stack, 2 done
  std::function<bool(uint32_t)> visit = [&](uint32_t n) {
    state[n] = 1;
    for (uint32_t m : next[n])
      if (state[m] == 1 || (state[m] == 0 && visit(m))) return true;
    state[n] = 2;
    return false;
  };
  for (uint32_t n = 0; n < node_count; ++n)
    if (state[n] == 0 && visit(n)) return true;
  return false;
}

/** Checks one witness's graph against its trace; returns whether the graph has an sc cycle. */
bool check_graph_of(const Program& program, const RecordedWitness& witness) {
  const ExecutionGraph graph = build_execution_graph(program, witness.events, witness.model, GraphOptions{64});
  // Every event that reads has its rf edge from the store with the id it read.
  std::map<uint64_t, const Event*> stores;
  for (const Event& e : witness.events)
    if (e.kind == EventKind::Store || e.kind == EventKind::Atomic) stores[e.store_id] = &e;
  size_t reads = 0, rf_edges = 0;
  for (const GraphNode& n : graph.nodes) reads += n.reads() ? 1 : 0;
  for (const GraphEdge& edge : graph.edges) {
    const GraphNode& from = graph.nodes[edge.from];
    const GraphNode& to = graph.nodes[edge.to];
    if (edge.kind == GraphEdgeKind::ReadsFrom) {
      ++rf_edges;
      REQUIRE(from.writes());
      REQUIRE(to.reads());
      REQUIRE(from.store_id == to.read_from);
      REQUIRE(from.location == to.location);
      // The store's event wrote what the load's event read.
      if (to.kind == GraphNodeKind::Load && from.kind == GraphNodeKind::Store) REQUIRE(from.value == to.value);
    }
    if (edge.kind == GraphEdgeKind::Coherence || edge.kind == GraphEdgeKind::FromRead) {
      REQUIRE(to.writes());
      REQUIRE(from.location == to.location);
    }
  }
  REQUIRE(rf_edges == reads); // every read's source is drawn (the threads are few here)
  // co is the order of the stores' ids in the history followed through the trace.
  const CoherenceOrder order = coherence_order(witness.events, witness.model);
  for (const GraphEdge& edge : graph.edges) {
    if (edge.kind != GraphEdgeKind::Coherence) continue;
    const auto& history = order.at(graph.nodes[edge.from].location.key());
    const auto a = std::find(history.begin(), history.end(), graph.nodes[edge.from].store_id);
    const auto b = std::find(history.begin(), history.end(), graph.nodes[edge.to].store_id);
    REQUIRE(a < b);
  }
  // Every store of the trace is in its location's history exactly once.
  for (const auto& [id, store] : stores) {
    const auto& history = order.at(store->location.key());
    REQUIRE(std::count(history.begin(), history.end(), id) == 1);
  }
  // Coherence (SC per location; every model keeps it, DESIGN "Memory models"): po restricted
  // to one location, with rf, co and fr, is acyclic.
  std::map<uint64_t, std::vector<uint32_t>> by_location;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].reads() || graph.nodes[i].writes()) by_location[graph.nodes[i].location.key()].push_back(i);
  for (const auto& [key, nodes] : by_location) {
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t a : nodes)
      for (uint32_t b : nodes)
        if (graph.nodes[a].kind != GraphNodeKind::Initial && graph.nodes[b].kind != GraphNodeKind::Initial &&
            graph.nodes[a].thread == graph.nodes[b].thread && graph.nodes[a].row < graph.nodes[b].row)
          edges.emplace_back(a, b);
    for (const GraphEdge& edge : graph.edges)
      if (edge.kind != GraphEdgeKind::ProgramOrder && graph.nodes[edge.from].location.key() == key)
        edges.emplace_back(edge.from, edge.to);
    INFO("location " << graph.nodes[nodes.front()].location_name << " in " << witness.token);
    REQUIRE_FALSE(has_cycle(graph.nodes.size(), edges));
  }
  return graph.has_sc_cycle;
}

/** Every outcome's witness under `model`: the graph matches the trace, and it has an sc cycle
 *  exactly when sc cannot produce the outcome. Returns how many witnesses had a cycle. */
size_t check_catalogue_kernel(const std::string& relative, const std::string& model_name) {
  INFO(relative << " under " << model_name);
  Kernel k = kernel_from_file(catalogue_path(relative));
  const auto sc = create_model("sc");
  const ExplorationResult under_sc = explore_exhaustive(*k.machine, *sc, ExhaustiveOptions{});
  REQUIRE(under_sc.complete);
  const auto model = create_model(model_name);
  const ExplorationResult result = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{});
  size_t cycles = 0;
  for (const OutcomeCount& o : result.outcomes) {
    std::string error;
    const auto witness = record_witness(k.program(), MachineOptions{}, o.witness, error);
    INFO(error);
    REQUIRE(witness);
    const bool sc_reaches = std::any_of(under_sc.outcomes.begin(), under_sc.outcomes.end(),
                                        [&](const OutcomeCount& s) { return s.outcome == o.outcome; });
    const bool cycle = check_graph_of(k.program(), *witness);
    INFO("outcome " << o.outcome.to_string(k.program()) << " witness " << witness->token);
    // A cycle means sc cannot produce this execution; an outcome sc never reaches needs one.
    if (!sc_reaches) REQUIRE(cycle);
    if (model_name == "sc") REQUIRE_FALSE(cycle);
    cycles += cycle ? 1 : 0;
  }
  return cycles;
}

} // namespace

TEST_CASE("execution graphs match their traces and show the sc cycle of weak outcomes", "[draw][graph]") {
  for (const char* model : {"sc", "tso", "gpu"}) {
    check_catalogue_kernel("fences/write_read_xy.cu", model);
    check_catalogue_kernel("fences/write_read_xy_fenced.cu", model);
    check_catalogue_kernel("litmus/sb_inter.cu", model);
    check_catalogue_kernel("litmus/two_plus_two_w_inter.cu", model);
    check_catalogue_kernel("litmus/corr_inter.cu", model);
    check_catalogue_kernel("litmus/mp_atomic_flag_inter.cu", model);
  }
  CHECK(check_catalogue_kernel("fences/write_read_xy.cu", "gpu") > 0);
  CHECK(check_catalogue_kernel("litmus/iriw_inter.cu", "gpu") > 0);
}

TEST_CASE("writeXY/readXY's A=1 B=20 graph: rf from the writer's Y store, fr to its X store", "[draw][graph]") {
  Kernel k = kernel_from_file(catalogue_path("fences/write_read_xy.cu"));
  const auto gpu = create_model("gpu");
  const ExplorationResult result = explore_exhaustive(*k.machine, *gpu, ExhaustiveOptions{});
  const auto weak = std::find_if(result.outcomes.begin(), result.outcomes.end(), [&](const OutcomeCount& o) {
    return o.outcome.to_string(k.program()) == "A=1 B=20";
  });
  REQUIRE(weak != result.outcomes.end());
  std::string error;
  const auto witness = record_witness(k.program(), MachineOptions{}, weak->witness, error);
  REQUIRE(witness);
  const ExecutionGraph graph = build_execution_graph(k.program(), witness->events, "gpu");
  REQUIRE(graph.has_sc_cycle);
  std::set<std::string> cycle;
  for (const GraphEdge& e : graph.edges)
    if (e.in_cycle)
      cycle.insert(fmt::format("{} {} {}", graph.nodes[e.from].label(), graph_edge_kind_name(e.kind),
                               graph.nodes[e.to].label()));
  // The writer stores X=10 then Y=20; the reader reads Y=20 and then the old X=1.
  CHECK(cycle == std::set<std::string>{"W X=10 po W Y=20", "W Y=20 rf R Y=20", "R Y=20 po R X=1", "R X=1 fr W X=10"});
  const std::string svg = render_graph_svg(graph);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
}

TEST_CASE("the barrier timeline pairs arrivals with releases and marks divergence", "[draw][timeline]") {
  Kernel k = kernel_from_file(catalogue_path("barriers/incorrect_barrier_example.cu"));
  const auto sc = create_model("sc");
  RandomOptions random;
  random.runs = 1;
  const ExplorationResult result = explore_random(*k.machine, *sc, random);
  REQUIRE(result.outcomes.size() == 1);
  std::string error;
  const auto witness = record_witness(k.program(), MachineOptions{}, result.outcomes.front().witness, error);
  REQUIRE(witness);
  const BarrierTimeline timeline = build_barrier_timeline(k.program(), witness->events, witness->execution);
  CHECK(timeline.lanes.size() == 4);
  // Even threads wait at one __syncthreads, odd threads at the other: whether the machine
  // releases them together (a diverged release) or they never are (stuck), it shows.
  bool diverged = false;
  for (const BarrierEpisode& episode : timeline.episodes) {
    for (const BarrierWait& w : episode.waits) CHECK(w.arrive_time <= episode.release_time);
    diverged |= episode.diverged;
  }
  for (const TimelineLane& lane : timeline.lanes) diverged |= lane.stuck;
  CHECK(diverged);
  const std::string text = render_timeline_text(timeline, 60);
  CHECK(text.find("✕") != std::string::npos);
}

TEST_CASE("the terminal timeline fits the width it is given", "[draw][timeline]") {
  Kernel k = kernel_from_file(catalogue_path("barriers/barrier_synchronization_demo.cu"));
  const auto gpu = create_model("gpu");
  RandomOptions random;
  random.runs = 1;
  const ExplorationResult result = explore_random(*k.machine, *gpu, random);
  REQUIRE(result.outcomes.size() == 1);
  std::string error;
  const auto witness = record_witness(k.program(), MachineOptions{}, result.outcomes.front().witness, error);
  REQUIRE(witness);
  const BarrierTimeline timeline = build_barrier_timeline(k.program(), witness->events, witness->execution);
  REQUIRE(timeline.lanes.size() == 4);
  CHECK(timeline.episodes.size() == 2); // two __syncthreads
  for (const BarrierEpisode& episode : timeline.episodes) {
    CHECK_FALSE(episode.diverged);
    CHECK(episode.waits.size() == 4);
  }
  for (uint32_t width : {24u, 40u, 100u}) {
    const std::string text = render_timeline_text(timeline, width);
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("(0, ", 0) != 0) continue; // the lanes; the title and legend may wrap
      size_t code_points = 0;
      for (unsigned char c : line) code_points += (c & 0xC0) != 0x80 ? 1 : 0;
      INFO(line);
      CHECK(code_points <= width);
    }
  }
}

TEST_CASE("warp lanes: a branch on the lane diverges under lockstep and reconverges", "[draw][warps]") {
  const std::string source = R"(//@ launch grid=1 block=32
//@ observe out[0]
__device__ int out[32];
__global__ void k() {
  if (threadIdx.x < 8) out[threadIdx.x] = 1;
  else out[threadIdx.x] = 2;
  out[threadIdx.x] = 3;
}
)";
  MachineOptions options;
  options.warp = WarpMode::Lockstep;
  Kernel k = kernel_from_text(source, options);
  const auto sc = create_model("sc");
  RandomOptions random;
  random.runs = 1;
  const ExplorationResult result = explore_random(*k.machine, *sc, random);
  REQUIRE(result.outcomes.size() == 1);
  std::string error;
  const auto witness = record_witness(k.program(), options, result.outcomes.front().witness, error);
  INFO(error);
  REQUIRE(witness);
  const WarpLanes lanes = build_warp_lanes(k.program(), witness->events, 0, 0);
  CHECK(lanes.lanes_mask == 0xffffffffu);
  std::vector<uint32_t> masks;
  for (const WarpStep& s : lanes.steps) masks.push_back(s.mask);
  // The two sides of the branch, one after the other, then all 32 lanes together again.
  REQUIRE(masks.size() >= 3);
  CHECK(std::find(masks.begin(), masks.end(), 0x000000ffu) != masks.end());
  CHECK(std::find(masks.begin(), masks.end(), 0xffffff00u) != masks.end());
  CHECK(std::any_of(lanes.steps.begin(), lanes.steps.end(), [](const WarpStep& s) { return s.reconverged; }));
}

TEST_CASE("markup escaping keeps kernel text from breaking the SVG", "[draw]") {
  CHECK(escape_markup("a < b && c > \"d\" 'e'") == "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
  CHECK(escape_markup(std::string("x\x01y")) == "x y");
}
