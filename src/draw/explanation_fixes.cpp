// Naming a cycle's events and the fences that break it (explanation_parts.h).
//
// The rule: a fence in every po step of the cycle, of a scope that covers the cycle's threads,
// forbids the cycle (tests/explanation_tests.cpp puts each offered set of fences into the
// kernel and explores again). The gpu model orders a thread's accesses as other threads see
// them only through fences (CUDA C++ Programming Guide 10.5, "Memory Fence Functions"; PTX ISA,
// "Memory Consistency Model": no order between weak accesses), and a fence orders only its own
// thread's accesses, so the two-sided shapes need one on both sides (docs/LITMUS.md
// MP+fence(writer), MP+fence(reader): still A). A block-scope fence orders only for the threads
// of its own block (Guide 10.5), so between blocks it takes __threadfence() (docs/LITMUS.md
// MP+block-fences: A between blocks, F within one). A barrier drains and orders like a
// block-scope fence (DESIGN "Memory models"). A thread with a single access on the cycle has
// nothing to order (IRIW's writers, WRC's first thread).
#include "explanation_parts.h"

#include <cctype>
#include <fmt/format.h>
#include <set>

namespace fencelab {

namespace {

const char* access_noun(const GraphNode& node) {
  switch (node.kind) {
  case GraphNodeKind::Load: return "load";
  case GraphNodeKind::Store: return "store";
  case GraphNodeKind::Atomic: return "atomic update";
  default: return "access";
  }
}

std::string lines_text(uint32_t after, uint32_t before) {
  if (after == before) return fmt::format("both on line {}: split the statement", after);
  return fmt::format("after line {}, before line {}", after, before);
}

std::string join_and(const std::vector<std::string>& parts) {
  if (parts.empty()) return "";
  if (parts.size() == 1) return parts[0];
  std::string out;
  for (size_t i = 0; i + 1 < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + " and " + parts.back();
}

} // namespace

std::string thread_name(ThreadId thread) {
  return fmt::format("block {}'s thread {}", thread.block, thread.index_in_block());
}

std::string value_text(const GraphNode& node) {
  if (node.kind == GraphNodeKind::Atomic) return fmt::format("{} {}", node.location_name, node.value);
  return fmt::format("{}={}", node.location_name, node.value);
}

std::string access_text(const GraphNode& node) { return fmt::format("{} (line {})", value_text(node), node.line); }

std::string access_verb_text(const GraphNode& node) {
  switch (node.kind) {
  case GraphNodeKind::Load: return "read " + access_text(node);
  case GraphNodeKind::Store: return "stored " + access_text(node);
  case GraphNodeKind::Atomic: return "atomically updated " + access_text(node);
  default: return access_text(node);
  }
}

std::string sentence_case(std::string text) {
  if (!text.empty()) text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::string segment_text(const ExecutionGraph& graph, const CycleSegment& segment) {
  const GraphNode& first = graph.nodes[segment.first];
  const GraphNode& last = graph.nodes[segment.last];
  std::string text = thread_name(segment.thread) + " " + access_verb_text(first);
  if (segment.single()) return text;
  // "stored X=10 (line 31) and then Y=20 (line 32)": the verb once when both are alike.
  const bool alike = first.kind == last.kind && first.kind != GraphNodeKind::Atomic;
  return text + " and then " + (alike ? access_text(last) : access_verb_text(last));
}

Scope needed_scope(const CycleFacts& facts) {
  return facts.model == "gpu" && facts.cycle.spans_blocks ? Scope::Device : Scope::Block;
}

std::optional<Ordering> ordering_on(const ExecutionGraph& graph, const CycleSegment& segment) {
  std::optional<Ordering> best;
  for (uint32_t index : segment.path) {
    const GraphNode& node = graph.nodes[index];
    std::optional<Scope> scope;
    if (node.kind == GraphNodeKind::Fence) scope = node.scope;
    else if (node.kind == GraphNodeKind::Barrier) scope = Scope::Block;
    if (!scope || (best && best->scope >= *scope)) continue;
    best = Ordering{*scope, &node};
  }
  return best;
}

const char* fence_spelling(Scope scope) {
  switch (scope) {
  case Scope::Block: return "__threadfence_block()";
  case Scope::Device: return "__threadfence()";
  case Scope::System: return "__threadfence_system()";
  }
  return "__threadfence()";
}

std::string ordering_text(const Program& program, const GraphNode& node) {
  if (node.kind == GraphNodeKind::Fence) return fmt::format("{} (line {})", fence_spelling(node.scope), node.line);
  // Barrier arrivals: __syncthreads() and its cooperative-groups forms; name it as written.
  const std::string source = node.line > 0 ? std::string(program.source->line_text(node.line)) : "";
  for (const std::string name : {"__syncthreads", "__syncwarp"})
    if (source.find(name) != std::string::npos) return fmt::format("{}() (line {})", name, node.line);
  return fmt::format("the barrier (line {})", node.line);
}

std::vector<PlannedFix> fixes_for(const CycleFacts& facts) {
  std::vector<PlannedFix> fixes;
  const Scope needed = needed_scope(facts);
  for (const CycleSegment& segment : facts.cycle.segments) {
    if (segment.single()) continue;
    const auto ordered = ordering_on(facts.graph, segment);
    if (ordered && ordered->scope >= needed) continue;
    PlannedFix planned;
    planned.segment = &segment;
    planned.fix.thread = segment.thread;
    planned.fix.after_line = facts.graph.nodes[segment.first].line;
    planned.fix.before_line = facts.graph.nodes[segment.last].line;
    planned.fix.scope = needed;
    // A fence too narrow is widened; a barrier stays, and the fence goes beside it.
    if (ordered && ordered->node->kind == GraphNodeKind::Fence) planned.fix.narrow_line = ordered->node->line;
    fixes.push_back(planned);
  }
  return fixes;
}

std::string between_text(const ExecutionGraph& graph, const CycleSegment& segment, bool with_lines) {
  const GraphNode& first = graph.nodes[segment.first];
  const GraphNode& last = graph.nodes[segment.last];
  const std::string lines = with_lines ? " (" + lines_text(first.line, last.line) + ")" : "";
  if (first.kind == last.kind) return fmt::format("between its two {}s{}", access_noun(first), lines);
  return fmt::format("between its {} and its {}{}", access_noun(first), access_noun(last), lines);
}

std::vector<std::string> fix_sentences(const CycleFacts& facts, const std::vector<PlannedFix>& fixes) {
  std::vector<std::string> sentences;
  const Scope needed = needed_scope(facts);
  std::vector<std::string> parts;
  for (const PlannedFix& planned : fixes) {
    if (planned.fix.narrow_line != 0)
      parts.push_back(fmt::format("{} in place of {}'s fence on line {} ({})", fence_spelling(needed),
                                  thread_name(planned.fix.thread), planned.fix.narrow_line,
                                  between_text(facts.graph, *planned.segment, false)));
    else
      parts.push_back(fmt::format("a fence in {} {}", thread_name(planned.fix.thread),
                                  between_text(facts.graph, *planned.segment, true)));
  }
  sentences.push_back("What forbids it: " + join_and(parts) + ".");
  std::set<uint32_t> blocks;
  for (const CycleSegment& s : facts.cycle.segments) blocks.insert(s.thread.block);
  if (facts.model == "tso") {
    sentences.push_back("Under tso any fence drains the store buffer: __threadfence_block() suffices.");
  } else if (needed == Scope::Device) {
    std::vector<std::string> names;
    for (uint32_t b : blocks) names.push_back(std::to_string(b));
    sentences.push_back(fmt::format("The threads are in different blocks (blocks {}), so it takes __threadfence() "
                                    "(device scope): __threadfence_block() is too narrow a scope, as it orders a "
                                    "thread's accesses only for the threads of its own block.",
                                    join_and(names)));
  } else {
    sentences.push_back(fmt::format("The threads share block {}, so __threadfence_block() suffices (__threadfence() "
                                    "works too).",
                                    *blocks.begin()));
  }
  // The po steps already ordered, and the threads with a single access on the cycle.
  for (const CycleSegment& segment : facts.cycle.segments) {
    if (segment.single()) continue;
    const auto ordered = ordering_on(facts.graph, segment);
    if (!ordered || ordered->scope < needed) continue;
    sentences.push_back(fmt::format("{}'s {} already orders its accesses on the cycle, but a fence orders only its "
                                    "own thread's.",
                                    sentence_case(thread_name(segment.thread)),
                                    ordering_text(facts.program, *ordered->node)));
  }
  std::vector<std::string> single;
  for (const CycleSegment& segment : facts.cycle.segments)
    if (segment.single()) single.push_back(thread_name(segment.thread));
  if (!single.empty())
    sentences.push_back(fmt::format("{} {} a single access on the cycle and {} no fence.",
                                    sentence_case(join_and(single)), single.size() == 1 ? "makes" : "each make",
                                    single.size() == 1 ? "needs" : "need"));
  if (fixes.size() >= 2) sentences.push_back("A fence in one thread alone does not forbid it.");
  return sentences;
}

} // namespace fencelab
