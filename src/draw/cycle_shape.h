// Reading an execution graph's sc cycle (sc_cycle.h) as a litmus shape (explanation.h).
//
// The cycle is cut at its communication edges (rf, co, fr) into segments: one thread's stretch
// of program order, entered at one access and left at another (or at the same one). An access
// takes part as a read where an rf edge enters or an fr edge leaves it, as a write where a co
// or fr edge enters or an rf or co edge leaves it. The ring of segment kinds names the shape
// (herd7's names, "Herding Cats" section 4 and its Table 5): MP is a WW segment then an RR one,
// SB two WR, IRIW a single write, an RR, a single write and an RR, and so on. A segment that is
// a single atomic entered by rf and left by rf or co (a read-modify-write passing a value on,
// like a ticket counter) is a relay: the shape is read without it. A communication edge that
// goes forward within one thread (it reads its own earlier store) joins two segments into one.
#pragma once

#include "fencelab/draw/execution_graph.h"
#include "fencelab/draw/explanation.h"

#include <string>
#include <vector>

namespace fencelab {

enum class CycleRole : uint8_t { Read, Write };

struct CycleSegment {
  ThreadId thread;
  uint32_t first = 0, last = 0;  ///< graph node indexes where the cycle enters and leaves
  CycleRole entry = CycleRole::Read, exit = CycleRole::Read;
  std::vector<uint32_t> path;    ///< the thread's nodes strictly between first and last
  GraphEdgeKind leaving = GraphEdgeKind::ReadsFrom; ///< the edge from `last` to the next segment
  bool single() const { return first == last; }
};

struct CycleReading {
  CycleShape shape = CycleShape::None;
  std::string label; ///< "MP", "CoRR", ... ("" for Other)
  /** In cycle order; rotated so that the shape's first thread comes first (MP: the writer;
   *  IRIW: a writer, then the reader of its store). */
  std::vector<CycleSegment> segments;
  bool spans_blocks = false; ///< the cycle's threads are in more than one block
  bool one_location = false; ///< every access of the cycle is to one location
  /** "po, rf, po, fr": the cycle's relations in order from segments[0], a po path as one po. */
  std::string relations;
};

/** `cycle`: edge indexes into graph.edges in order (shortest_cycle); empty gives shape None. */
CycleReading read_cycle(const ExecutionGraph& graph, const std::vector<uint32_t>& cycle);

/** "W", "WW", "RR", "WR", "RW", "A" (a relay atomic): the segment's kind in the ring. */
std::string segment_kind(const ExecutionGraph& graph, const CycleSegment& segment);

} // namespace fencelab
