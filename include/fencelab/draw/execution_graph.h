// The execution graph of one recorded execution, as the memory-model literature draws it
// (Alglave, Maranget, Tautschnig, "Herding Cats", TOPLAS 2014, section 4; herd7's pictures):
// events in one column per thread, program order down, and the communication relations
// across: reads-from (rf), coherence order (co) and from-read (fr).
//
// Built from the Machine's event stream alone (events.h): a load's `read_from` names the
// store it read, a store's `store_id` names it; co is the order in which stores reached their
// location's history, followed through the trace (see coherence_order below).
#pragma once

#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fencelab {

enum class GraphEdgeKind : uint8_t {
  ProgramOrder, ///< po: the next memory event of the same thread
  ReadsFrom,    ///< rf: a store to the load that read it
  Coherence,    ///< co: a store to the next store of the same location in its history
  FromRead,     ///< fr: a load to each store coherence-after the one it read (rf^-1; co)
};

const char* graph_edge_kind_name(GraphEdgeKind kind);

enum class GraphNodeKind : uint8_t {
  Initial, ///< a location's initial value (store id 0), drawn above the threads
  Load,
  Store,
  Atomic,  ///< a read-modify-write: reads and writes
  Fence,   ///< drawn as a bar with its scope
  Barrier, ///< arrival at __syncthreads or __syncwarp, drawn as a bar
};

struct GraphNode {
  GraphNodeKind kind = GraphNodeKind::Load;
  ThreadId thread;        ///< unused for Initial
  uint32_t column = 0;    ///< index into ExecutionGraph::columns (Initial: 0, the init column)
  uint32_t row = 0;       ///< position in its column, from 0
  uint32_t line = 0;      ///< source line (0: none)
  Location location;
  std::string location_name;
  std::string value;      ///< formatted value read or written
  Scope scope = Scope::Device; ///< Fence, Atomic
  uint64_t store_id = 0;  ///< Store, Atomic, Initial (0)
  uint64_t read_from = 0; ///< Load, Atomic
  uint64_t sequence = 0;  ///< position of the event in the execution
  /** "W X=1", "R Y=0", "F dev", "B sync". */
  std::string label() const;
  bool reads() const { return kind == GraphNodeKind::Load || kind == GraphNodeKind::Atomic; }
  bool writes() const {
    return kind == GraphNodeKind::Store || kind == GraphNodeKind::Atomic || kind == GraphNodeKind::Initial;
  }
};

struct GraphEdge {
  GraphEdgeKind kind = GraphEdgeKind::ProgramOrder;
  uint32_t from = 0, to = 0; ///< node indexes
  bool in_cycle = false;     ///< part of the highlighted sc cycle
};

/** A column: the initial values (thread unset, `initial` true) or one thread. */
struct GraphColumn {
  ThreadId thread;
  bool initial = false;
  std::string title; ///< "(block 0, thread 1)" or "init"
};

struct ExecutionGraph {
  std::vector<GraphColumn> columns;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  /** Threads that had memory events but are not drawn (the graph keeps at most max_threads). */
  std::vector<ThreadId> left_out;
  /** Locations whose events are not drawn (a large graph shows the cycle's locations only). */
  std::vector<std::string> locations_left_out;
  /** Whether po ∪ rf ∪ co ∪ fr has a cycle (marked in `edges`): sc forbids the execution. */
  bool has_sc_cycle = false;
  std::vector<std::string> caption; ///< e.g. explain's sentences
  std::string title;
};

struct GraphOptions {
  uint32_t max_threads = 8; ///< more threads: keep those on the cycle, else the first ones
  /** More nodes than this, with an sc cycle: draw only the cycle's threads and locations
   *  (and the fences and barriers of those threads), which is what the outcome is about. */
  uint32_t focus_above_nodes = 28;
};

/** Coherence order of each location (by Location::key): the ids of the stores in the order
 *  they reached its history, the initial value (0) first. */
using CoherenceOrder = std::map<uint64_t, std::vector<uint64_t>>;

/**
 * Follows the trace as the models do (DESIGN "Memory models"): under sc a store reaches memory
 * when made; under tso and gpu when its ModelStep drains it, or when a fence, a barrier or an
 * atomic of its thread drains the buffer (an atomic: its location's stores; tso: all), in
 * program order; stores still buffered when the kernel ends drain last, in program order.
 */
CoherenceOrder coherence_order(const std::vector<Event>& events, const std::string& model);

/** When each store (by id) joined its location's history, followed as coherence_order does:
 *  the sequence of the event that made it visible (its own under sc; the drain, fence, barrier
 *  release or atomic under tso and gpu), kAtKernelEnd for stores drained when the kernel ended. */
using StoreVisibility = std::map<uint64_t, uint64_t>;
inline constexpr uint64_t kAtKernelEnd = ~uint64_t(0);
StoreVisibility store_visibility(const std::vector<Event>& events, const std::string& model);

/** The graph of one execution under `model` ("sc", "tso", "gpu"). */
ExecutionGraph build_execution_graph(const Program& program, const std::vector<Event>& events,
                                     const std::string& model, const GraphOptions& options = {});

/** "(block 0, thread 1)". */
std::string describe_thread_short(ThreadId thread);

} // namespace fencelab
