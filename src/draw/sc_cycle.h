// Finding the cycle that makes an execution impossible under sequential consistency.
//
// Shasha and Snir (TOPLAS 1988); Alglave et al., "Herding Cats" (TOPLAS 2014), section 4.8:
// an execution is sequentially consistent exactly when po ∪ rf ∪ co ∪ fr is acyclic. The
// shortest cycle is the one worth drawing: it names the fewest events.
#pragma once

#include "fencelab/draw/execution_graph.h"

#include <vector>

namespace fencelab {

/** Indexes into graph.edges of a shortest cycle of the graph's edges; empty when acyclic. */
std::vector<uint32_t> shortest_cycle(const ExecutionGraph& graph);

} // namespace fencelab
