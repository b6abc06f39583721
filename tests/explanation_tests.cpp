// Explanations from the execution's own sc cycle (draw/explanation.h).
//
// Every outcome the exhaustive gpu search reaches in kernels/litmus and kernels/fences is
// explained through the in-process API, with the witness the search found (never a token
// written here: tokens change when the Machine's scheduling does). A weak outcome (sc does not
// reach it) must name its kernel's shape, as the table below holds it, and fences that work:
// the test puts them into the kernel's source and explores again, and the outcome must be gone.
// An outcome sc reaches must be explained as allowed by sc, with no fence offered. Shapes that
// no model here allows (LB, the coherence tests, S, R) are read from graphs built by hand.
#include "draw/cycle_shape.h"
#include "draw/explanation_parts.h"
#include "draw/sc_cycle.h"
#include "fencelab/draw/explanation.h"
#include "fencelab/draw/witness_pictures.h"
#include "machine_helpers.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** A kernel's expected shape, and whether gpu reaches a weak outcome (docs/LITMUS.md's gpu column;
 *  the kernel's own `expect gpu: reachable/unreachable` line). */
struct KernelShape {
  const char* file; ///< under kernels/
  CycleShape shape;
  bool weak_under_gpu;
};

// The litmus kernels' names say their shapes (kernels/litmus/README.md).
const std::vector<KernelShape> kLitmusShapes = {
    // x=1; __syncthreads() || __syncthreads(); r1=x: one location, no cycle; between blocks sc
    // allows r1=0 (two blocks' barriers are two barriers), within one nothing reaches it.
    {"litmus/barrier_inter.cu", CycleShape::None, false},
    {"litmus/barrier_intra.cu", CycleShape::None, false},
    {"litmus/corr_inter.cu", CycleShape::Coherence, false},
    {"litmus/corr_intra.cu", CycleShape::Coherence, false},
    {"litmus/corr_two_writers_dev.cu", CycleShape::Coherence, false},
    {"litmus/cowr.cu", CycleShape::Coherence, false},
    {"litmus/coww.cu", CycleShape::Coherence, false},
    {"litmus/iriw_fences_block_dev.cu", CycleShape::Iriw, true},
    {"litmus/iriw_fences_device_dev.cu", CycleShape::Iriw, false},
    {"litmus/iriw_fences_inter.cu", CycleShape::Iriw, false},
    {"litmus/iriw_fences_intra.cu", CycleShape::Iriw, false},
    {"litmus/iriw_fences_system_dev.cu", CycleShape::Iriw, false},
    {"litmus/iriw_inter.cu", CycleShape::Iriw, true},
    {"litmus/iriw_intra.cu", CycleShape::Iriw, true},
    {"litmus/isa2_fences_block_dev.cu", CycleShape::Isa2, true},
    {"litmus/isa2_fences_device_dev.cu", CycleShape::Isa2, false},
    {"litmus/isa2_fences_system_dev.cu", CycleShape::Isa2, false},
    {"litmus/lb_inter.cu", CycleShape::LoadBuffering, false},
    {"litmus/lb_intra.cu", CycleShape::LoadBuffering, false},
    {"litmus/mp_atomic_flag_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_atomic_flag_intra.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_block_device_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_block_device_intra.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_block_fences_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_block_fences_intra.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_fence_reader_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_fence_reader_intra.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_fence_writer_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_fence_writer_intra.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_fences_atomic_flag_inter.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_fences_atomic_flag_intra.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_fences_inter.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_fences_intra.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_inter.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_intra.cu", CycleShape::MessagePassing, true},
    {"litmus/mp_system_fences_inter.cu", CycleShape::MessagePassing, false},
    {"litmus/mp_system_fences_intra.cu", CycleShape::MessagePassing, false},
    {"litmus/rwc_dev.cu", CycleShape::Rwc, true},
    {"litmus/sb_block_fences_inter.cu", CycleShape::StoreBuffering, true},
    {"litmus/sb_block_fences_intra.cu", CycleShape::StoreBuffering, false},
    {"litmus/sb_fences_inter.cu", CycleShape::StoreBuffering, false},
    {"litmus/sb_fences_intra.cu", CycleShape::StoreBuffering, false},
    {"litmus/sb_inter.cu", CycleShape::StoreBuffering, true},
    {"litmus/sb_intra.cu", CycleShape::StoreBuffering, true},
    {"litmus/two_plus_two_w_fences_inter.cu", CycleShape::TwoPlusTwoW, false},
    {"litmus/two_plus_two_w_fences_intra.cu", CycleShape::TwoPlusTwoW, false},
    {"litmus/two_plus_two_w_inter.cu", CycleShape::TwoPlusTwoW, true},
    {"litmus/two_plus_two_w_intra.cu", CycleShape::TwoPlusTwoW, true},
    {"litmus/wrc_fences_block_dev.cu", CycleShape::Wrc, true},
    {"litmus/wrc_fences_device_dev.cu", CycleShape::Wrc, false},
    {"litmus/wrc_fences_inter.cu", CycleShape::Wrc, false},
    {"litmus/wrc_fences_intra.cu", CycleShape::Wrc, false},
    {"litmus/wrc_fences_system_dev.cu", CycleShape::Wrc, false},
    {"litmus/wrc_inter.cu", CycleShape::Wrc, true},
    {"litmus/wrc_intra.cu", CycleShape::Wrc, true},
};

std::string joined(const Explanation& e) {
  std::string text;
  for (const std::string& s : e.sentences) text += s + "\n";
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool reached(const ExplorationResult& result, const Outcome& outcome) {
  return std::any_of(result.outcomes.begin(), result.outcomes.end(),
                     [&](const OutcomeCount& o) { return o.outcome == outcome; });
}

/** The kernel's source with the fixes in: a too narrow fence widened where the fix names one,
 *  otherwise a fence of the fix's scope on a line of its own after the fix's first access. */
std::string with_fixes(const std::string& source, std::vector<FenceFix> fixes) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // From the bottom up, so that an inserted line moves no line a later fix names.
  std::sort(fixes.begin(), fixes.end(),
            [](const FenceFix& a, const FenceFix& b) { return a.after_line > b.after_line; });
  for (const FenceFix& fix : fixes) {
    REQUIRE(fix.after_line >= 1);
    REQUIRE(fix.after_line <= lines.size());
    if (fix.narrow_line != 0) {
      std::string& narrow = lines[fix.narrow_line - 1];
      const size_t at = narrow.find("__threadfence_block()");
      if (at != std::string::npos) {
        narrow.replace(at, std::string("__threadfence_block()").size(), fence_spelling(fix.scope));
        continue;
      }
    }
    lines.insert(lines.begin() + fix.after_line, std::string("    ") + fence_spelling(fix.scope) + ";");
  }
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

struct FixedOutcomes {
  std::set<std::string> outcomes;
  bool complete = false;
};

/** The outcomes exhaustive gpu search reaches in the kernel with `fixes` applied, kept by
 *  source text: a kernel's weak outcomes often share a fix. */
const FixedOutcomes& explore_with_fixes(const std::string& relative, const std::vector<FenceFix>& fixes) {
  static std::map<std::string, FixedOutcomes> explored;
  const std::string fixed = with_fixes(read_source_text(catalogue_path(relative)), fixes);
  auto found = explored.find(fixed);
  if (found == explored.end()) {
    INFO("the kernel with the fixes:\n" << fixed);
    Kernel k = kernel_from_text(fixed);
    const auto gpu = create_model("gpu");
    const ExplorationResult result = explore_exhaustive(*k.machine, *gpu, ExhaustiveOptions{});
    found = explored.emplace(fixed, FixedOutcomes{outcome_strings(k.program(), result), result.complete}).first;
  }
  return found->second;
}

/** The fixes together forbid the outcome; where the text says that a fence in one thread alone
 *  does not, each of them alone leaves it reachable. */
void check_fixes(const std::string& relative, const std::vector<FenceFix>& fixes, const std::string& outcome,
                 const std::string& text) {
  const FixedOutcomes& all = explore_with_fixes(relative, fixes);
  CHECK(all.outcomes.count(outcome) == 0);
  CHECK(all.complete); // the search finished: the outcome is unreachable, not just unseen
  CHECK(contains(text, "A fence in one thread alone does not forbid it.") == (fixes.size() >= 2));
  if (fixes.size() < 2) return;
  for (const FenceFix& fix : fixes) {
    INFO("only the fix after line " << fix.after_line);
    CHECK(explore_with_fixes(relative, {fix}).outcomes.count(outcome) == 1);
  }
}

/** What a kernel's weak outcomes must be explained as. */
struct Expected {
  CycleShape shape = CycleShape::None;
  bool last_block_done = false;
  uint64_t gpu_budget = 100'000; ///< explore's default
};

/** The line of the kernel's source that holds `text` (the first; 0 if none). */
uint32_t line_holding(const std::string& relative, const std::string& text) {
  std::istringstream in(read_source_text(catalogue_path(relative)));
  uint32_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find(text) != std::string::npos) return number;
  }
  return 0;
}

/** Explains each outcome exhaustive gpu search reaches in the kernel (the witnesses `explore`
 *  prints); returns how many were weak (sc did not reach them). */
size_t check_explanations(const std::string& relative, const Expected& expected) {
  const CycleShape shape = expected.shape;
  Kernel k = kernel_from_file(catalogue_path(relative));
  const auto sc_model = create_model("sc");
  const auto gpu = create_model("gpu");
  const ExplorationResult sc = explore_exhaustive(*k.machine, *sc_model, ExhaustiveOptions{});
  const ExplorationResult under_gpu = explore_exhaustive(*k.machine, *gpu, ExhaustiveOptions{expected.gpu_budget});
  REQUIRE(sc.complete);
  size_t weak = 0;
  for (const OutcomeCount& o : under_gpu.outcomes) {
    const std::string outcome = o.outcome.to_string(k.program());
    std::string error;
    const auto witness = record_witness(k.program(), MachineOptions{}, o.witness, error);
    INFO(relative << ": " << outcome << " (witness " << o.witness.display() << ")");
    REQUIRE(witness);
    const ScSearch search{reached(sc, o.outcome), true};
    const Explanation e = explain_witness(k.program(), MachineOptions{}, *witness, search);
    const std::string text = joined(e);
    INFO(text);
    if (reached(sc, o.outcome)) {
      CHECK(e.allowed_by_sc);
      CHECK(e.sentences.front().starts_with("Sequential consistency allows this outcome"));
      CHECK(contains(text, "no fence can remove it"));
      CHECK(!contains(text, "forbid"));
      CHECK(e.fixes.empty());
      continue;
    }
    ++weak;
    CHECK(!e.allowed_by_sc);
    CHECK(e.sentences.front().starts_with("Sequential consistency forbids this outcome"));
    CHECK(e.shape == shape);
    CHECK(contains(text, cycle_shape_name(shape)));
    CHECK(!e.fixes.empty());
    if (e.fixes.empty()) continue;
    CHECK(e.last_block_done == expected.last_block_done);
    if (expected.last_block_done) {
      // The stale read, the fix after the reader's ticket, and why the writer's fence is not enough.
      CHECK(e.fixes.size() == 1);
      if (e.fixes.size() != 1) continue;
      CHECK(e.fixes[0].after_line == line_holding(relative, "atomicInc("));
      CHECK(e.fixes[0].scope == Scope::Device);
      CHECK(contains(text, ": a stale read."));
      CHECK(contains(text, fmt::format("a __threadfence() in {} after its ticket (after line {}), before reading the "
                                       "partial results",
                                       thread_name(e.fixes[0].thread), e.fixes[0].after_line)));
      CHECK(contains(text, "The writer's fence orders its own stores before its ticket; nothing orders the reader's "
                           "loads after its ticket"));
      CHECK(contains(text, "after the ticket is block scope"));
      const FixedOutcomes& fixed = explore_with_fixes(relative, e.fixes);
      CHECK(fixed.outcomes.count(outcome) == 0);
      CHECK(fixed.complete);
      continue;
    }
    bool between_blocks = false;
    for (const FenceFix& fix : e.fixes) {
      // Where the fence goes: after the first access, or in place of a fence too narrow.
      CHECK(contains(text, fix.narrow_line != 0 ? fmt::format("fence on line {}", fix.narrow_line)
                                                : fmt::format("after line {}", fix.after_line)));
      between_blocks |= fix.scope == Scope::Device;
    }
    // Device scope between blocks, block scope within one (the launch says which).
    CHECK(between_blocks == (k.program().launch.grid.total() > 1));
    CHECK(contains(text, between_blocks ? "it takes __threadfence() (device scope)"
                                        : "__threadfence_block() suffices"));
    check_fixes(relative, e.fixes, outcome, text);
  }
  return weak;
}

} // namespace

TEST_CASE("every weak outcome of the litmus kernels under gpu names its kernel's shape and a fence that forbids it",
          "[explain][litmus]") {
  // The table holds every litmus kernel.
  std::set<std::string> listed;
  for (const KernelShape& k : kLitmusShapes) listed.insert(catalogue_path(k.file));
  for (const std::string& file : catalogue_files())
    if (contains(file, "/kernels/litmus/")) CHECK(listed.count(file) == 1);
  for (const KernelShape& k : kLitmusShapes) {
    INFO(k.file);
    const size_t weak = check_explanations(k.file, Expected{k.shape});
    CHECK((weak > 0) == k.weak_under_gpu);
  }
}

TEST_CASE("write_read_xy's weak outcome is message passing, with a fence between the stores and one between the loads",
          "[explain][fences]") {
  CHECK(check_explanations("fences/write_read_xy.cu", Expected{CycleShape::MessagePassing}) == 1);
}

TEST_CASE("the last block done sum's wrong totals: the stale read, the fence after the reader's ticket, and why the "
          "writer's fence alone does not help",
          "[explain][fences]") {
  // Totals 3, 7, 10, 11, 14, 18 (the kernel's header): one stale partial sum or two.
  CHECK(check_explanations("fences/last_block_done_sum.cu", Expected{CycleShape::MessagePassing, true}) == 6);
}

TEST_CASE("the other kernels of kernels/fences have no weak outcome, and each outcome they reach is allowed by sc",
          "[explain][fences]") {
  for (const char* file : {"fences/write_read_xy_fenced.cu", "fences/last_block_done_sum_fixed.cu",
                           "fences/memory_consistency_demo.cu", "fences/swap_threadfence_block.cu"}) {
    INFO(file);
    CHECK(check_explanations(file, Expected{}) == 0);
  }
  // Its gpu search does not finish (100,000 executions take 16 s): what 2,000 reach is explained.
  CHECK(check_explanations("fences/memory_fence_scopes.cu", Expected{CycleShape::None, false, 2'000}) == 0);
  // Every file of kernels/fences is in one of these tests.
  size_t files = 0;
  for (const std::string& file : catalogue_files()) files += contains(file, "/kernels/fences/");
  CHECK(files == 7);
}

namespace {

/** An execution graph drawn by hand, as the papers draw the shapes no model here allows. */
struct HandGraph {
  ExecutionGraph graph;
  uint32_t access(GraphNodeKind kind, uint32_t block, uint32_t location, const char* value, uint32_t line) {
    GraphNode node;
    node.kind = kind;
    node.thread = ThreadId{block, 0, 0};
    node.location = Location{location, 0};
    node.location_name = location == 1 ? "x" : "y";
    node.value = value;
    node.line = line;
    node.sequence = graph.nodes.size();
    graph.nodes.push_back(node);
    return uint32_t(graph.nodes.size() - 1);
  }
  void edge(GraphEdgeKind kind, uint32_t from, uint32_t to) { graph.edges.push_back(GraphEdge{kind, from, to}); }
  CycleReading read() const { return read_cycle(graph, shortest_cycle(graph)); }
};

using K = GraphNodeKind;
using E = GraphEdgeKind;

} // namespace

TEST_CASE("the cycles no model allows are named from their structure: LB, S, R and the coherence tests",
          "[explain][shapes]") {
  SECTION("LB: each load reads the other thread's later store") {
    HandGraph h;
    const uint32_t r0 = h.access(K::Load, 0, 1, "1", 10), w0 = h.access(K::Store, 0, 2, "1", 11);
    const uint32_t r1 = h.access(K::Load, 1, 2, "1", 20), w1 = h.access(K::Store, 1, 1, "1", 21);
    h.edge(E::ProgramOrder, r0, w0);
    h.edge(E::ProgramOrder, r1, w1);
    h.edge(E::ReadsFrom, w0, r1);
    h.edge(E::ReadsFrom, w1, r0);
    const CycleReading c = h.read();
    CHECK(c.shape == CycleShape::LoadBuffering);
    CHECK(c.label == "LB");
    CHECK(c.relations == "po, rf, po, rf");
    CHECK(c.spans_blocks);
  }
  SECTION("S and R: a co edge in place of MP's rf or fr") {
    HandGraph s;
    const uint32_t wx2 = s.access(K::Store, 0, 1, "2", 10), wy = s.access(K::Store, 0, 2, "1", 11);
    const uint32_t ry = s.access(K::Load, 1, 2, "1", 20), wx1 = s.access(K::Store, 1, 1, "1", 21);
    s.edge(E::ProgramOrder, wx2, wy);
    s.edge(E::ProgramOrder, ry, wx1);
    s.edge(E::ReadsFrom, wy, ry);
    s.edge(E::Coherence, wx1, wx2);
    const CycleReading read_s = s.read();
    CHECK(read_s.shape == CycleShape::S);
    CHECK(read_s.relations == "po, rf, po, co");
    CHECK(s.graph.nodes[read_s.segments[0].first].line == 10); // the thread of two stores first

    HandGraph r;
    const uint32_t wx = r.access(K::Store, 0, 1, "1", 10), wy1 = r.access(K::Store, 0, 2, "1", 11);
    const uint32_t wy2 = r.access(K::Store, 1, 2, "2", 20), rx = r.access(K::Load, 1, 1, "0", 21);
    r.edge(E::ProgramOrder, wx, wy1);
    r.edge(E::ProgramOrder, wy2, rx);
    r.edge(E::Coherence, wy1, wy2);
    r.edge(E::FromRead, rx, wx);
    CHECK(r.read().shape == CycleShape::R);
    CHECK(r.read().relations == "po, co, po, fr");
  }
  SECTION("CoRR, CoWW, CoWR: one location") {
    HandGraph corr;
    const uint32_t w = corr.access(K::Store, 0, 1, "1", 10);
    const uint32_t first = corr.access(K::Load, 1, 1, "1", 20), second = corr.access(K::Load, 1, 1, "0", 21);
    corr.edge(E::ProgramOrder, first, second);
    corr.edge(E::ReadsFrom, w, first);
    corr.edge(E::FromRead, second, w);
    CHECK(corr.read().shape == CycleShape::Coherence);
    CHECK(corr.read().label == "CoRR");
    CHECK(corr.read().one_location);

    HandGraph coww;
    const uint32_t w1 = coww.access(K::Store, 0, 1, "1", 10), w2 = coww.access(K::Store, 0, 1, "2", 11);
    coww.edge(E::ProgramOrder, w1, w2);
    coww.edge(E::Coherence, w2, w1);
    CHECK(coww.read().label == "CoWW");
    CHECK(!coww.read().spans_blocks);

    HandGraph cowr;
    const uint32_t store = cowr.access(K::Store, 0, 1, "1", 10), load = cowr.access(K::Load, 0, 1, "0", 11);
    cowr.edge(E::ProgramOrder, store, load);
    cowr.edge(E::FromRead, load, store);
    CHECK(cowr.read().label == "CoWR");
  }
  SECTION("an acyclic graph has no shape") {
    HandGraph h;
    const uint32_t w = h.access(K::Store, 0, 1, "1", 10), r = h.access(K::Load, 1, 1, "1", 20);
    h.edge(E::ReadsFrom, w, r);
    CHECK(h.read().shape == CycleShape::None);
  }
}

TEST_CASE("an outcome sc reaches is allowed by sc even when its witness took a weak path to it", "[explain]") {
  Kernel k = kernel_from_file(catalogue_path("fences/write_read_xy.cu"));
  const auto gpu = create_model("gpu");
  const ExplorationResult result = explore_exhaustive(*k.machine, *gpu, ExhaustiveOptions{});
  for (const OutcomeCount& o : result.outcomes) {
    if (o.outcome.to_string(k.program()) != "A=1 B=20") continue;
    std::string error;
    const auto witness = record_witness(k.program(), MachineOptions{}, o.witness, error);
    REQUIRE(witness);
    // As if an sc search had reached it: the cycle is named, but no fence is offered.
    const Explanation e = explain_witness(k.program(), MachineOptions{}, *witness, ScSearch{true, true});
    CHECK(e.allowed_by_sc);
    CHECK(e.fixes.empty());
    CHECK(e.shape == CycleShape::MessagePassing);
    CHECK(e.sentences.size() == 2);
    CHECK(contains(e.sentences[1], "po, rf, po, fr"));
    // A bounded sc search that did not reach it: the cycle still shows that sc cannot.
    const Explanation bounded = explain_witness(k.program(), MachineOptions{}, *witness, ScSearch{false, false});
    CHECK(!bounded.allowed_by_sc);
    CHECK(bounded.sentences.front().starts_with(
        "Sequential consistency did not reach (in a bounded search) this outcome"));
    CHECK(bounded.fixes.size() == 2);
  }
}

TEST_CASE("barrier_inter's r1=0 is allowed by sc, the two blocks' barriers being two barriers", "[explain][litmus]") {
  Kernel k = kernel_from_file(catalogue_path("litmus/barrier_inter.cu"));
  const auto gpu = create_model("gpu");
  const ExplorationResult result = explore_exhaustive(*k.machine, *gpu, ExhaustiveOptions{});
  bool seen = false;
  for (const OutcomeCount& o : result.outcomes) {
    if (o.outcome.to_string(k.program()) != "r1=0") continue;
    seen = true;
    std::string error;
    const auto witness = record_witness(k.program(), MachineOptions{}, o.witness, error);
    REQUIRE(witness);
    const Explanation e = explain_witness(k.program(), MachineOptions{}, *witness, std::nullopt);
    const std::string text = joined(e);
    INFO(text);
    CHECK(e.allowed_by_sc);
    CHECK(contains(text, "they are barriers of different blocks (blocks 0 and 1)"));
  }
  CHECK(seen);
}

