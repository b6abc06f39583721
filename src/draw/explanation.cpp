// Explanations from the execution's own sc cycle (explanation.h).
//
// The graph is built whole (no focusing, no thread limit) and its shortest cycle read as a
// shape (cycle_shape.h): the same cycle the drawn graph highlights. Then, in order:
//   - an outcome an sc search reached is allowed by sc, whatever path this execution took to it:
//     no fence can remove an outcome that an interleaving produces (the course note's "case 1",
//     seeds/000: a fence removes the weak case, never one of the interleavings);
//   - an execution without a cycle is itself sequentially consistent (Shasha and Snir), so its
//     outcome is allowed by sc even where a bounded sc search did not reach it;
//   - otherwise the cycle is the reason: its shape, its events (thread, line, location, value),
//     how each missed store was missed (still buffered, or in memory with the reader's view
//     stale: store_visibility), and the fences that break it (explanation_fixes.cpp), or, for
//     the last-block-done pattern, the reader-side fence after the ticket.
#include "fencelab/draw/explanation.h"

#include "explanation_parts.h"
#include "sc_cycle.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <queue>

namespace fencelab {

const char* cycle_shape_name(CycleShape shape) {
  switch (shape) {
  case CycleShape::None: return "no cycle";
  case CycleShape::MessagePassing: return "message passing (MP)";
  case CycleShape::StoreBuffering: return "store buffering (SB)";
  case CycleShape::LoadBuffering: return "load buffering (LB)";
  case CycleShape::TwoPlusTwoW: return "2+2W (two threads each storing to two locations)";
  case CycleShape::S: return "S (a store ordered after a read against coherence)";
  case CycleShape::R: return "R (a store and a load against coherence)";
  case CycleShape::Iriw: return "IRIW (independent reads of independent writes)";
  case CycleShape::Wrc: return "WRC (write-to-read causality)";
  case CycleShape::Isa2: return "ISA2 (message passing through a third thread)";
  case CycleShape::Rwc: return "RWC (read-to-write causality)";
  case CycleShape::Coherence: return "coherence";
  case CycleShape::Other: return "a cycle";
  }
  return "a cycle";
}

namespace {

constexpr size_t kMaxInterleavingAccesses = 12;

bool is_access(const GraphNode& node) {
  return node.kind == GraphNodeKind::Load || node.kind == GraphNodeKind::Store || node.kind == GraphNodeKind::Atomic;
}

/** The graph's accesses in an order that respects every edge (Kahn's algorithm, the earliest
 *  event first): for an acyclic graph, an interleaving that gives every read the value it read. */
std::vector<uint32_t> interleaving(const ExecutionGraph& graph) {
  std::vector<uint32_t> incoming(graph.nodes.size(), 0);
  std::vector<std::vector<uint32_t>> outgoing(graph.nodes.size());
  for (const GraphEdge& e : graph.edges) {
    ++incoming[e.to];
    outgoing[e.from].push_back(e.to);
  }
  using Ready = std::pair<uint64_t, uint32_t>; // (sequence, node)
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i)
    if (incoming[i] == 0) ready.push({graph.nodes[i].kind == GraphNodeKind::Initial ? 0 : graph.nodes[i].sequence, i});
  std::vector<uint32_t> order;
  while (!ready.empty()) {
    const uint32_t node = ready.top().second;
    ready.pop();
    if (is_access(graph.nodes[node])) order.push_back(node);
    for (uint32_t next : outgoing[node])
      if (--incoming[next] == 0) ready.push({graph.nodes[next].sequence, next});
  }
  return order;
}

/** "block 0's thread 1 read Y=2 (line 37) and X=1 (line 38), then block 0's thread 0 ...". */
std::string interleaving_text(const ExecutionGraph& graph, const std::vector<uint32_t>& order) {
  std::string text;
  for (size_t i = 0; i < order.size();) {
    const ThreadId thread = graph.nodes[order[i]].thread;
    std::vector<std::string> items;
    for (; i < order.size() && graph.nodes[order[i]].thread == thread; ++i) {
      const GraphNode& node = graph.nodes[order[i]];
      const bool same_verb =
          !items.empty() && node.kind == graph.nodes[order[i - 1]].kind && node.kind != GraphNodeKind::Atomic;
      items.push_back(same_verb ? access_text(node) : access_verb_text(node));
    }
    std::string run;
    for (size_t k = 0; k < items.size(); ++k) run += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
    text += (text.empty() ? "" : ", then ") + thread_name(thread) + " " + run;
  }
  return text;
}

/** For an execution that is an interleaving: a read that missed a store made earlier, before a
 *  barrier, by a thread of another block, the read coming after the reader's own barrier. The barriers are two: __syncthreads() synchronizes the
 *  threads of one block only (CUDA C++ Programming Guide, "Synchronization Functions"). */
std::optional<std::string> barriers_of_two_blocks(const Program& program, const ExecutionGraph& graph) {
  auto barrier_of = [&](ThreadId thread, auto&& in_order) -> const GraphNode* {
    for (const GraphNode& node : graph.nodes)
      if (node.kind == GraphNodeKind::Barrier && node.thread == thread && in_order(node)) return &node;
    return nullptr;
  };
  for (const GraphEdge& e : graph.edges) {
    if (e.kind != GraphEdgeKind::FromRead) continue;
    const GraphNode& read = graph.nodes[e.from];
    const GraphNode& store = graph.nodes[e.to];
    // The store had been made when the read came (a block that started later, reusing a finished
    // block's shared memory, is no such case).
    if (read.thread.block == store.thread.block || store.sequence > read.sequence) continue;
    const GraphNode* after_store = barrier_of(store.thread, [&](const GraphNode& b) { return b.row > store.row; });
    const GraphNode* before_read = barrier_of(read.thread, [&](const GraphNode& b) { return b.row < read.row; });
    if (after_store == nullptr || before_read == nullptr) continue;
    return fmt::format("{} stored {} before {}, and {} read the older {}={} (line {}) after {}: they are barriers of "
                       "different blocks (blocks {} and {}), and a __syncthreads() synchronizes only the threads of "
                       "its own block, so it orders nothing between them.",
                       sentence_case(thread_name(store.thread)), access_text(store),
                       ordering_text(program, *after_store), thread_name(read.thread), read.location_name, read.value, read.line,
                       ordering_text(program, *before_read), store.thread.block, read.thread.block);
  }
  return std::nullopt;
}

std::vector<std::string> allowed_sentences(const Program& program, const ExecutionGraph& graph,
                                           const CycleReading& cycle, const ScSearch& sc) {
  std::vector<std::string> sentences{"Sequential consistency allows this outcome: it comes from an interleaving of the "
                                     "threads, and no fence can remove it."};
  if (cycle.shape != CycleShape::None) {
    sentences.push_back(fmt::format("This execution reached it by another way (its graph has the cycle {}, the shape "
                                    "of {}), but an interleaving reaches the same outcome.",
                                    cycle.relations, cycle_shape_name(cycle.shape)));
    return sentences;
  }
  if (!sc.reached)
    sentences.push_back("This execution has no cycle in po ∪ rf ∪ co ∪ fr, so it is itself one (the bounded sc "
                        "search had not reached it).");
  if (auto barriers = barriers_of_two_blocks(program, graph)) sentences.push_back(std::move(*barriers));
  const size_t accesses = size_t(std::count_if(graph.nodes.begin(), graph.nodes.end(), is_access));
  if (accesses == 0 || accesses > kMaxInterleavingAccesses) return sentences;
  sentences.push_back("This execution in that order: " + interleaving_text(graph, interleaving(graph)) + ".");
  return sentences;
}

/** How the read `read` missed the store `store` (an fr edge): still buffered, or stale. */
std::string missed_store_text(const CycleFacts& facts, const GraphNode& read, const GraphNode& store) {
  const auto visible = facts.visible_at.find(store.store_id);
  const std::string older =
      read.read_from == 0 ? fmt::format("the initial {}={}", read.location_name, read.value)
                          : fmt::format("{}={}", read.location_name, read.value);
  if (visible != facts.visible_at.end() && visible->second > read.sequence)
    return fmt::format("{} read {} (line {}) while {} was still in {}'s store buffer", thread_name(read.thread), older,
                       read.line, access_text(store), thread_name(store.thread));
  return fmt::format("{} read {} (line {}) although {} had reached memory: its view of {} was stale",
                     thread_name(read.thread), older, read.line, access_text(store), read.location_name);
}

/** Every fr edge of the cycle, said as missed_store_text. */
std::string missed_stores_text(const CycleFacts& facts) {
  const auto& segments = facts.cycle.segments;
  std::vector<std::string> parts;
  for (size_t i = 0; i < segments.size(); ++i)
    if (segments[i].leaving == GraphEdgeKind::FromRead)
      parts.push_back(missed_store_text(facts, facts.graph.nodes[segments[i].last],
                                        facts.graph.nodes[segments[(i + 1) % segments.size()].first]));
  std::string text;
  for (size_t k = 0; k < parts.size(); ++k) text += (k ? "; " : "") + parts[k];
  return text.empty() ? "" : sentence_case(text) + ".";
}

/** What the shape's threads did, and what is weak about it. */
std::string shape_text(const CycleFacts& facts) {
  const auto& s = facts.cycle.segments;
  const ExecutionGraph& g = facts.graph;
  std::string events;
  for (size_t i = 0; i < s.size(); ++i) events += (i ? "; " : "") + segment_text(g, s[i]);
  std::string point;
  switch (facts.cycle.shape) {
  case CycleShape::MessagePassing: {
    const GraphNode& data = g.nodes[s[0].first];
    const GraphNode& flag = g.nodes[s[0].last];
    const auto data_at = facts.visible_at.find(data.store_id), flag_at = facts.visible_at.find(flag.store_id);
    const bool reordered = data_at != facts.visible_at.end() && flag_at != facts.visible_at.end() &&
                           data_at->second > flag_at->second;
    point = fmt::format("the reader saw the second store but not the first: {}",
                        reordered ? fmt::format("{} reached memory before {}", value_text(flag), value_text(data))
                                  : fmt::format("{} reached memory first, but the reader's view of {} was stale",
                                                value_text(data), data.location_name));
    break;
  }
  case CycleShape::StoreBuffering: point = "each thread's load missed the other thread's store"; break;
  case CycleShape::LoadBuffering: point = "each load read the store the other thread made after its own load"; break;
  case CycleShape::TwoPlusTwoW:
    point = "in coherence order each thread's first store came after the other thread's second one";
    break;
  case CycleShape::S:
    point = "the second thread's store, made after it read the first thread's second store, is older than the first "
            "thread's first store in coherence order";
    break;
  case CycleShape::R:
    point = "the second thread's store came after the first thread's second store in coherence order, yet its load "
            "missed the first thread's first store";
    break;
  case CycleShape::Iriw: point = "the two readers saw the two independent stores in opposite orders"; break;
  case CycleShape::Wrc:
    point = "the last thread saw the second thread's store but not the store that thread had read before making it";
    break;
  case CycleShape::Isa2: point = "the last thread saw the end of the chain but not the store that began it"; break;
  case CycleShape::Rwc:
    point = "the reader saw the first store and missed the third thread's store, and the third thread then missed "
            "the first store";
    break;
  case CycleShape::Coherence:
    point = fmt::format("the accesses disagree with the one order of {}'s stores that every thread must see "
                        "(coherence; every model here keeps it)",
                        g.nodes[s[0].first].location_name);
    break;
  case CycleShape::Other:
  case CycleShape::None: point = fmt::format("a cycle through {} thread(s)", s.size()); break;
  }
  // The verdict sentence gave the shape's whole name; this one leads with its label.
  const std::string label = facts.cycle.label.empty() ? "The cycle" : facts.cycle.label;
  return fmt::format("{}: {}; {}.", label, events, point);
}

/** The last-block-done pattern in the cycle: a writer segment ending in an atomic (its ticket)
 *  with a fence of the needed scope before it; through relays, the ticket read by an atomic of
 *  another block (the last block's ticket) whose segment nothing of that scope orders; and the
 *  cycle closing with a stale read, in the ticket reader's block, of the writer's store. */
struct Ticket {
  size_t writer = 0, reader = 0, stale = 0; ///< segment indexes
};

std::optional<Ticket> find_ticket(const CycleFacts& facts) {
  const auto& s = facts.cycle.segments;
  const ExecutionGraph& g = facts.graph;
  const size_t n = s.size();
  const Scope needed = needed_scope(facts);
  for (size_t i = 0; i < n; ++i) {
    const CycleSegment& writer = s[i];
    const GraphNode& release = g.nodes[writer.last];
    if (writer.single() || release.kind != GraphNodeKind::Atomic || writer.exit != CycleRole::Write) continue;
    bool fenced = false;
    for (uint32_t index : writer.path)
      fenced |= g.nodes[index].kind == GraphNodeKind::Fence && g.nodes[index].scope >= needed;
    if (!fenced) continue;
    size_t j = (i + 1) % n;
    for (size_t hops = 0; hops < n && segment_kind(g, s[j]) == "A" && g.nodes[s[j].first].location == release.location;
         ++hops)
      j = (j + 1) % n;
    const CycleSegment& reader = s[j];
    const GraphNode& ticket = g.nodes[reader.first];
    if (j == i || reader.single() || ticket.kind != GraphNodeKind::Atomic || !(ticket.location == release.location) ||
        reader.thread.block == writer.thread.block)
      continue;
    const auto ordered = ordering_on(g, reader);
    if (ordered && ordered->scope >= needed) continue;
    const size_t stale = (i + n - 1) % n;
    if (s[stale].leaving != GraphEdgeKind::FromRead || s[stale].thread.block != reader.thread.block) continue;
    return Ticket{i, j, stale};
  }
  return std::nullopt;
}

std::vector<std::string> ticket_sentences(const CycleFacts& facts, const Ticket& t, FenceFix& fix) {
  const auto& s = facts.cycle.segments;
  const ExecutionGraph& g = facts.graph;
  const CycleSegment& writer = s[t.writer];
  const CycleSegment& reader = s[t.reader];
  const GraphNode& published = g.nodes[writer.first];
  const GraphNode& stale_read = g.nodes[s[t.stale].last];
  const GraphNode& ticket = g.nodes[reader.first];
  std::string fence;
  for (uint32_t index : writer.path)
    if (g.nodes[index].kind == GraphNodeKind::Fence) fence = ordering_text(facts.program, g.nodes[index]);
  // The reader's first barrier after its ticket: the block-scope step it relies on.
  const GraphNode* barrier = nullptr;
  for (const GraphNode& node : g.nodes)
    if (node.kind == GraphNodeKind::Barrier && node.thread == reader.thread && node.sequence > ticket.sequence &&
        (barrier == nullptr || node.sequence < barrier->sequence))
      barrier = &node;
  const bool other_reader = !(s[t.stale].thread == reader.thread);
  std::vector<std::string> sentences;
  sentences.push_back(fmt::format(
      "Last block done: {} stored {}, then {}, then took its ticket: it {}; {} {}, after it, so its block is the last "
      "to finish; then {} read {}{}, older than {}: a stale read.",
      thread_name(writer.thread), access_text(published), fence, access_verb_text(g.nodes[writer.last]),
      thread_name(reader.thread), access_verb_text(ticket), other_reader ? thread_name(s[t.stale].thread) : "it",
      stale_read.read_from == 0 ? "the initial " : "", access_text(stale_read), access_text(published)));
  sentences.push_back(fmt::format(
      "The writer's fence orders its own stores before its ticket; nothing orders the reader's loads after its "
      "ticket, so its view of {} may stay stale: an atomic is not a fence (CUDA C++ Programming Guide 10.14: atomic "
      "functions do not act as memory fences){}.",
      published.location_name,
      barrier ? fmt::format(", and {} after the ticket is block scope, which orders nothing against another block's "
                            "stores",
                            ordering_text(facts.program, *barrier))
              : ""));
  fix.thread = reader.thread;
  fix.after_line = ticket.line;
  fix.before_line = g.nodes[reader.last].line;
  fix.scope = Scope::Device;
  sentences.push_back(fmt::format(
      "What forbids it: a __threadfence() in {} after its ticket (after line {}), before reading the partial "
      "results{}.",
      thread_name(reader.thread), ticket.line,
      other_reader ? fmt::format("; {} passes what it then sees on to {}",
                                 barrier ? ordering_text(facts.program, *barrier) : std::string("the barrier"),
                                 thread_name(s[t.stale].thread))
                   : fmt::format(" (line {})", stale_read.line)));
  return sentences;
}

} // namespace

Explanation explain_execution(const Program& program, const std::vector<Event>& events, const std::string& model,
                              const ScSearch& sc) {
  Explanation out;
  GraphOptions whole;
  whole.max_threads = std::numeric_limits<uint32_t>::max();
  whole.focus_above_nodes = std::numeric_limits<uint32_t>::max();
  const ExecutionGraph graph = build_execution_graph(program, events, model, whole);
  const CycleReading cycle = read_cycle(graph, shortest_cycle(graph));
  out.shape = cycle.shape;
  out.shape_label = cycle.label;
  if (sc.reached || (cycle.shape == CycleShape::None && !sc.complete)) {
    out.allowed_by_sc = true;
    out.sentences = allowed_sentences(program, graph, cycle, sc);
    return out;
  }
  if (cycle.shape == CycleShape::None) {
    out.sentences.push_back("Sequential consistency forbids this outcome, yet this execution has no cycle in po ∪ rf "
                            "∪ co ∪ fr; read its trace step by step (fencelab replay --trace).");
    return out;
  }
  out.sentences.push_back(fmt::format(
      "{} this outcome: the execution has the cycle {}, which no interleaving can produce; "
      "it is the shape of {}.",
      sc.complete ? "Sequential consistency forbids" : "Sequential consistency did not reach (in a bounded search)",
      cycle.relations, cycle_shape_name(cycle.shape)));
  const StoreVisibility visible_at = store_visibility(events, model);
  const CycleFacts facts{program, graph, cycle, visible_at, model};
  if (const auto ticket = find_ticket(facts)) {
    out.last_block_done = true;
    FenceFix fix;
    for (std::string& sentence : ticket_sentences(facts, *ticket, fix)) out.sentences.push_back(std::move(sentence));
    out.fixes.push_back(fix);
    return out;
  }
  out.sentences.push_back(shape_text(facts));
  // MP's sentence already says how the first store was missed; the other shapes get one for
  // each read that missed a store.
  if (cycle.shape != CycleShape::MessagePassing)
    if (std::string missed = missed_stores_text(facts); !missed.empty()) out.sentences.push_back(std::move(missed));
  const std::vector<PlannedFix> fixes = fixes_for(facts);
  if (fixes.empty()) {
    out.sentences.push_back("Every po step of the cycle already has a fence or barrier of a scope that covers its "
                            "threads; read the trace step by step (fencelab replay --trace).");
    return out;
  }
  for (const PlannedFix& planned : fixes) out.fixes.push_back(planned.fix);
  for (std::string& sentence : fix_sentences(facts, fixes)) out.sentences.push_back(std::move(sentence));
  return out;
}

} // namespace fencelab
