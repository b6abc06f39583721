// Plain-language explanations of one execution (`fencelab explain`, the report, the pictures'
// captions), built from the execution's own sc cycle: the cycle of po, rf, co and fr edges that
// the execution graph highlights (execution_graph.h).
//
// An execution is sequentially consistent exactly when po ∪ rf ∪ co ∪ fr is acyclic (Shasha and
// Snir, TOPLAS 1988; Alglave et al., "Herding Cats", TOPLAS 2014, 4.8). The shortest cycle's
// structure (which relations, how many threads, which locations) is a litmus shape, the way the
// memory-model literature names them (MP, SB, LB, IRIW, WRC, ISA2, RWC, 2+2W, S, R, the
// coherence tests CoRR/CoWW/CoWR/CoRW); breaking the cycle needs each of its po steps ordered,
// which is where the fences go.
#pragma once

#include "fencelab/machine/events.h"
#include "fencelab/program/program.h"

#include <optional>
#include <string>
#include <vector>

namespace fencelab {

enum class CycleShape : uint8_t {
  None,           ///< no cycle: the execution is sequentially consistent
  MessagePassing, ///< MP: W x; W y ‖ R y; R x (po, rf, po, fr)
  StoreBuffering, ///< SB: W x; R y ‖ W y; R x (po, fr, po, fr)
  LoadBuffering,  ///< LB: R x; W y ‖ R y; W x (po, rf, po, rf)
  TwoPlusTwoW,    ///< 2+2W: W x; W y ‖ W y; W x (po, co, po, co)
  S,              ///< S: W x; W y ‖ R y; W x (po, rf, po, co)
  R,              ///< R: W x; W y ‖ W y; R x (po, co, po, fr)
  Iriw,           ///< IRIW: W x ‖ W y ‖ R x; R y ‖ R y; R x
  Wrc,            ///< WRC: W x ‖ R x; W y ‖ R y; R x
  Isa2,           ///< ISA2: W x; W y ‖ R y; W z ‖ R z; R x
  Rwc,            ///< RWC: W x ‖ R x; R y ‖ W y; R x
  Coherence,      ///< one location: CoRR, CoWW, CoWR, CoRW
  Other,          ///< a cycle of another shape
};

/** "message passing (MP)", "store buffering (SB)", ..., "coherence", "a cycle". */
const char* cycle_shape_name(CycleShape shape);

/** What an sc search said of the outcome. */
struct ScSearch {
  bool reached = false;  ///< some sc execution reaches the same outcome
  bool complete = false; ///< the search visited every sc execution
};

/** A fence that would break the cycle: in `thread`, after the access of `after_line` and
 *  before the one of `before_line`, of at least `scope`. */
struct FenceFix {
  ThreadId thread;
  uint32_t after_line = 0, before_line = 0;
  Scope scope = Scope::Device;
  /** The line of a fence already there whose scope is too narrow (0: none); the fix widens
   *  it. */
  uint32_t narrow_line = 0;
};

struct Explanation {
  /** Whether sequential consistency allows the outcome: an sc search reached it, or this
   *  execution has no cycle (it is itself sequentially consistent). */
  bool allowed_by_sc = false;
  CycleShape shape = CycleShape::None; ///< of the execution's shortest cycle
  std::string shape_label;             ///< "MP", "CoRR", ... ("" for None and Other)
  /** The last-block-done pattern: a ticket taken with an atomic from another block's fenced
   *  writer, then a stale read with nothing of device scope ordering it after the ticket. */
  bool last_block_done = false;
  std::vector<FenceFix> fixes; ///< empty when sc allows the outcome
  std::vector<std::string> sentences;
};

/** Explains the recorded execution `events` (a TraceRecorder's, under `model`: "sc", "tso",
 *  "gpu"), given what an sc search said of its outcome. */
Explanation explain_execution(const Program& program, const std::vector<Event>& events, const std::string& model,
                              const ScSearch& sc);

} // namespace fencelab
