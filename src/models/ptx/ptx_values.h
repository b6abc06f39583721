// The values of one candidate execution: given which write each read reads from, what every
// register, read and write holds. A cycle of reads-from and data dependencies has no values
// (the axiom "No Thin Air" forbids it), and a cas whose guessed success its read contradicts
// is no execution.
#pragma once

#include "ptx_graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fencelab::ptx {

struct Values {
  std::vector<int64_t> of_event;  ///< a write's value, a read's value (others 0)
  std::vector<std::map<std::string, int64_t>> final_registers;  ///< per thread, at its end
  std::vector<int64_t> barrier_id;     ///< per barrier event: its resource id
  std::vector<int64_t> barrier_count;  ///< per barrier event: its thread count, -1: all
};

/** `reads_from[r]` is the write read by read event r (other entries unused). On a branch or
 *  cas that contradicts its path or guess, `*failed_on` (when given) is the set of reads whose
 *  reads-from choices decided it: every choice that keeps those fails alike (all reads for a
 *  thin-air cycle). */
std::optional<Values> evaluate(const litmus::PtxTest& test, const Graph& graph, const std::vector<int>& reads_from,
                               const std::vector<bool>& cas_succeeds, EventSet* failed_on = nullptr);

} // namespace fencelab::ptx
