// The pieces explanation.cpp assembles: naming the cycle's events, the fences that would break
// the cycle (cycle_fixes.cpp), and the sentences of each shape (explanation.cpp).
#pragma once

#include "cycle_shape.h"
#include "fencelab/draw/execution_graph.h"
#include "fencelab/draw/explanation.h"

#include <map>
#include <string>
#include <vector>

namespace fencelab {

/** What the sentences read: the execution's graph, its cycle read as a shape, and when each
 *  store became visible. */
struct CycleFacts {
  const Program& program;
  const ExecutionGraph& graph;
  const CycleReading& cycle;
  const StoreVisibility& visible_at;
  std::string model;
};

/** "block 0's thread 1" (threadIdx flattened), as a CUDA programmer names a thread. */
std::string thread_name(ThreadId thread);

/** "X=10"; an atomic: "count 0→1" (the value it replaced, the value it wrote). */
std::string value_text(const GraphNode& node);

/** "X=10 (line 31)", "count 0→1 (line 104)". */
std::string access_text(const GraphNode& node);

/** "stored X=10 (line 31)", "read Y=20 (line 37)", "atomically updated count 0→1 (line 104)". */
std::string access_verb_text(const GraphNode& node);

/** The text with its first letter in capitals (a sentence that starts with a thread's name). */
std::string sentence_case(std::string text);

/** "block 0's thread 0 stored X=10 (line 31) and then Y=20 (line 32)". */
std::string segment_text(const ExecutionGraph& graph, const CycleSegment& segment);

/** The scope of fence that orders a po step of this cycle: device when the cycle's threads are
 *  in different blocks under gpu, block otherwise (tso: any fence drains the FIFO buffer). */
Scope needed_scope(const CycleFacts& facts);

/** The strongest ordering on a segment's po path, and the fence or barrier node that gives it:
 *  a fence's scope, or block scope for a barrier arrival (a __syncthreads drains and orders
 *  like a block fence). */
struct Ordering {
  Scope scope = Scope::Block;
  const GraphNode* node = nullptr;
};
std::optional<Ordering> ordering_on(const ExecutionGraph& graph, const CycleSegment& segment);

/** "__threadfence_block()", "__threadfence()", "__threadfence_system()". */
const char* fence_spelling(Scope scope);

/** A fence or barrier node as the source spells it: "__threadfence_block() (line 33)",
 *  "__syncthreads() (line 111)". */
std::string ordering_text(const Program& program, const GraphNode& node);

struct PlannedFix {
  FenceFix fix;
  const CycleSegment* segment = nullptr;
};

/** The fences that break the cycle: one in each segment with two accesses that nothing of
 *  `needed_scope` orders. */
std::vector<PlannedFix> fixes_for(const CycleFacts& facts);

/** "between its two stores", with `with_lines` "... (after line 31, before line 32)". */
std::string between_text(const ExecutionGraph& graph, const CycleSegment& segment, bool with_lines);

/** The sentences saying where the fixes go, why of that scope, and which threads need none. */
std::vector<std::string> fix_sentences(const CycleFacts& facts, const std::vector<PlannedFix>& fixes);

} // namespace fencelab
