// The axioms of the PTX ISA's memory consistency model over one candidate execution.
#pragma once

#include "ptx_graph.h"

namespace fencelab::ptx {

/** The parts of a candidate that vary, as relations over the graph's events. */
struct Candidate {
  Relation reads_from;   ///< rf: write -> read
  Relation coherence;    ///< co, transitively closed, the initial writes first
  Relation fence_sc;     ///< Fence-SC order over morally strong fence.sc pairs
  Relation barrier_sync; ///< barrier synchronization (syncbar), before restricting to one CTA
};

/** Whether the candidate satisfies every axiom.
 *  `check_sc_per_location`: also the ISA's "Sequential Consistency Per Location", which
 *  ptx-v7.5.cat leaves out (the other axioms imply it on every test measured, docs/ptx-litmus.md). */
bool consistent(const Graph& graph, const Candidate& candidate, bool check_sc_per_location = true);

} // namespace fencelab::ptx
