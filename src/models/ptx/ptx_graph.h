// The events of a PTX litmus test and the relations fixed by the program alone (po, loc,
// same-scope, rmw, morally strong, the release and acquire patterns); the parts of a candidate
// execution that vary (rf, co, fence-SC order, barrier grouping) are chosen in ptx_explore.cpp.
#pragma once

#include "fencelab/litmus/ptx_litmus.h"

#include "relation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fencelab::ptx {

using litmus::PtxOrder;
using litmus::PtxScope;

enum class EventKind { init, read, write, fence, barrier };

/** Proxy tags of events (ptx-v7.5.cat's GEN/SUR/TEX/CON); `none` for alias fences and barriers. */
enum class ProxyTag { generic, surface, texture, constant, none };

struct Event {
  EventKind kind = EventKind::init;
  ProxyTag proxy = ProxyTag::generic;
  bool alias_fence = false;
  int virtual_location = -1;  ///< memory events: the generic address (vloc), of `virtual_locations`
  int thread = -1;       ///< -1: the initial write of a location
  int instruction = -1;  ///< index in the thread's instructions
  int location = -1;     ///< memory events
  PtxOrder order = PtxOrder::weak;
  PtxScope scope = PtxScope::none;
};

/** The events of one test, for one guess of which compare-and-swaps succeed (a failed one
 *  reads only), and the relations the program fixes. */
struct Graph {
  std::vector<Event> events;
  std::vector<std::string> locations;          ///< physical locations (loc; rf and co are per location)
  std::vector<std::string> virtual_locations;  ///< generic addresses (vloc)
  int size = 0;
  /** For each thread and instruction: its read event and its write event (-1: none). */
  std::vector<std::vector<int>> read_of, write_of, other_of;
  std::vector<int> init_write;  ///< per location

  EventSet reads = 0, writes = 0, fences = 0, barriers = 0, sc_fences = 0, acq_rel_fences = 0;
  EventSet strong_writes = 0, strong_reads = 0, release_writes = 0, acquire_reads = 0;
  EventSet generic = 0, alias_fences = 0;
  Relation po, loc, vloc, same_scope, same_cta, same_proxy, rmw, morally_strong;
  Relation release_pattern, acquire_pattern;
  /** dep = addr | data | ctrl: from a read to the writes whose value, and to every event after
   *  a branch whose decision, its value flows into (through registers); no addresses here. */
  Relation dependencies;
};

/** Builds the events of `test`; `cas_succeeds[k]` says whether the k-th atom.cas (in thread
 *  order) writes. nullopt when the test has more than kMaxEvents events. */
std::optional<Graph> build_graph(const litmus::PtxTest& test, const std::vector<bool>& cas_succeeds);

/** The number of atom.cas instructions of `test`. */
int count_cas(const litmus::PtxTest& test);

} // namespace fencelab::ptx
