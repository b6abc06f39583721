// Events and the program's own relations, as the PTX ISA's memory consistency model defines
// them (PTX ISA 7.5+, chapter "Memory Consistency Model"; the section names below are its).
#include "ptx_graph.h"

#include <algorithm>
#include <functional>
#include <map>

namespace fencelab::ptx {

using litmus::PtxInstructionKind;
using litmus::PtxOperation;

namespace {

EventSet bit(int i) { return EventSet{1} << i; }

/** "Scope": thread `a` is in the `scope` instance of thread `b` (cta: same CTA of the same GPU;
 *  gpu: same GPU; sys: every thread). */
bool in_scope_instance(const litmus::PtxThread& a, const litmus::PtxThread& b, PtxScope scope) {
  switch (scope) {
  case PtxScope::cta: return a.cta == b.cta && a.gpu == b.gpu;
  case PtxScope::gpu: return a.gpu == b.gpu;
  case PtxScope::sys: return true;
  case PtxScope::none: return false;
  }
  return false;
}

/** "Operation types" / atom: an atom's read takes the acquire half of its semantics, its write
 *  the release half; the other half is .relaxed (atom.acq_rel: an acquire read and a release
 *  write). */
PtxOrder read_half(PtxOrder order) {
  return order == PtxOrder::acquire || order == PtxOrder::acq_rel ? PtxOrder::acquire : PtxOrder::relaxed;
}
PtxOrder write_half(PtxOrder order) {
  return order == PtxOrder::release || order == PtxOrder::acq_rel ? PtxOrder::release : PtxOrder::relaxed;
}

/** Data and control dependencies, by following each register's set of reads (its taint)
 *  down the thread: a value computed from registers carries the union of their taints; an
 *  RMW's write depends on its read unless it ignores the old value (exch); a branch makes every
 *  later event of its thread depend on the reads its operands carry. */
Relation dependencies_of(const litmus::PtxTest& test, const Graph& graph) {
  Relation dep(graph.size);
  for (int t = 0; t < static_cast<int>(test.threads.size()); ++t) {
    const auto& instructions = test.threads[t].instructions;
    std::map<std::string, EventSet> taint;
    EventSet control = 0;
    auto of = [&](const litmus::PtxOperand& operand) -> EventSet {
      if (!operand.register_name) return 0;
      auto found = taint.find(*operand.register_name);
      return found == taint.end() ? 0 : found->second;
    };
    auto depend = [&](EventSet from, int event) {
      for (int r = 0; r < graph.size; ++r)
        if ((from >> r) & 1) dep.add(r, event);
    };
    for (int i = 0; i < static_cast<int>(instructions.size()); ++i) {
      const auto& instruction = instructions[i];
      int read = graph.read_of[t][i], write = graph.write_of[t][i], other = graph.other_of[t][i];
      EventSet operands = 0;
      for (const auto& operand : instruction.operands) operands |= of(operand);
      for (int e : {read, write, other})
        if (e >= 0) depend(control, e);
      switch (instruction.kind) {
      case PtxInstructionKind::load: taint[instruction.destination] = bit(read); break;
      case PtxInstructionKind::store: depend(operands, write); break;
      case PtxInstructionKind::atom:
      case PtxInstructionKind::red:
        if (write >= 0) depend(operands | (instruction.operation == PtxOperation::exch ? 0 : bit(read)), write);
        if (!instruction.destination.empty()) taint[instruction.destination] = bit(read);
        break;
      case PtxInstructionKind::local: taint[instruction.destination] = operands; break;
      case PtxInstructionKind::assume: control |= operands; break;
      default: break;
      }
    }
  }
  return dep;
}

} // namespace

int count_cas(const litmus::PtxTest& test) {
  int count = 0;
  for (const auto& thread : test.threads)
    for (const auto& instruction : thread.instructions)
      if (instruction.kind == PtxInstructionKind::atom && instruction.operation == PtxOperation::cas) ++count;
  return count;
}

std::optional<Graph> build_graph(const litmus::PtxTest& test, const std::vector<bool>& cas_succeeds) {
  Graph graph;
  // "Proxies" / "Virtual aliases": a name's physical location is its alias chain's end; its
  // generic address is its own for a generic alias, its target's for a surface, texture or
  // constant one.
  auto physical_name = [&](std::string name) {
    while (test.aliases.count(name)) name = test.aliases.at(name).target;
    return name;
  };
  std::function<std::string(const std::string&)> generic_name = [&](const std::string& name) -> std::string {
    auto found = test.aliases.find(name);
    if (found == test.aliases.end() || found->second.proxy == litmus::PtxProxy::generic) return name;
    return generic_name(found->second.target);
  };
  auto index_in = [](std::vector<std::string>& list, const std::string& name) {
    auto found = std::find(list.begin(), list.end(), name);
    if (found != list.end()) return static_cast<int>(found - list.begin());
    list.push_back(name);
    return static_cast<int>(list.size() - 1);
  };
  // Locations: the init block's, then those the threads name, in order of appearance.
  auto location_index = [&](const std::string& name) { return index_in(graph.locations, physical_name(name)); };
  for (const auto& [name, value] : test.initial_memory) location_index(name);
  for (const auto& thread : test.threads)
    for (const auto& instruction : thread.instructions)
      if (!instruction.location.empty()) location_index(instruction.location);

  auto add = [&](Event event) {
    graph.events.push_back(event);
    return static_cast<int>(graph.events.size() - 1);
  };
  // The initial writes come first; they are co-before every other write (ptx_explore.cpp).
  for (int l = 0; l < static_cast<int>(graph.locations.size()); ++l) {
    Event init;
    init.kind = EventKind::init;
    init.location = l;
    init.virtual_location = index_in(graph.virtual_locations, graph.locations[l]);
    graph.init_write.push_back(add(init));
  }
  size_t cas_index = 0;
  graph.read_of.resize(test.threads.size());
  graph.write_of.resize(test.threads.size());
  graph.other_of.resize(test.threads.size());
  for (int t = 0; t < static_cast<int>(test.threads.size()); ++t) {
    const auto& instructions = test.threads[t].instructions;
    graph.read_of[t].assign(instructions.size(), -1);
    graph.write_of[t].assign(instructions.size(), -1);
    graph.other_of[t].assign(instructions.size(), -1);
    for (int i = 0; i < static_cast<int>(instructions.size()); ++i) {
      const auto& instruction = instructions[i];
      Event event;
      event.thread = t;
      event.instruction = i;
      event.scope = instruction.scope;
      event.order = instruction.order;
      if (!instruction.location.empty()) {
        event.location = location_index(instruction.location);
        event.virtual_location = index_in(graph.virtual_locations, generic_name(instruction.location));
      }
      event.proxy = static_cast<ProxyTag>(instruction.proxy);
      if (instruction.kind == PtxInstructionKind::barrier) event.proxy = ProxyTag::none;
      if (instruction.alias_fence) {
        event.alias_fence = true;
        event.proxy = ProxyTag::none;
      }
      switch (instruction.kind) {
      case PtxInstructionKind::load:
        event.kind = EventKind::read;
        graph.read_of[t][i] = add(event);
        break;
      case PtxInstructionKind::store:
        event.kind = EventKind::write;
        graph.write_of[t][i] = add(event);
        break;
      case PtxInstructionKind::atom:
      case PtxInstructionKind::red: {
        // "Operation types": an atom or red is a read and a write of one location, atomic
        // together (the rmw relation, axiom "Atomicity"). A failed cas only reads.
        bool writes = true;
        if (instruction.operation == PtxOperation::cas) writes = cas_succeeds.at(cas_index++);
        event.kind = EventKind::read;
        event.order = read_half(instruction.order);
        graph.read_of[t][i] = add(event);
        if (writes) {
          event.kind = EventKind::write;
          event.order = write_half(instruction.order);
          graph.write_of[t][i] = add(event);
        }
        break;
      }
      case PtxInstructionKind::fence:
        event.kind = EventKind::fence;
        graph.other_of[t][i] = add(event);
        break;
      case PtxInstructionKind::barrier:
        event.kind = EventKind::barrier;
        graph.other_of[t][i] = add(event);
        break;
      case PtxInstructionKind::local:
      case PtxInstructionKind::branch:
      case PtxInstructionKind::jump:
      case PtxInstructionKind::label:
      case PtxInstructionKind::assume: break;
      }
    }
  }
  if (graph.events.size() > static_cast<size_t>(kMaxEvents)) return std::nullopt;
  int n = graph.size = static_cast<int>(graph.events.size());
  graph.po = graph.loc = graph.vloc = graph.same_scope = graph.same_cta = graph.same_proxy = graph.rmw = Relation(n);

  for (int e = 0; e < n; ++e) {
    const Event& event = graph.events[e];
    switch (event.kind) {
    case EventKind::init: graph.writes |= bit(e); break;
    case EventKind::read: graph.reads |= bit(e); break;
    case EventKind::write: graph.writes |= bit(e); break;
    case EventKind::fence:
      graph.fences |= bit(e);
      if (event.order == PtxOrder::sc) graph.sc_fences |= bit(e);
      if (event.order == PtxOrder::acq_rel) graph.acq_rel_fences |= bit(e);
      break;
    case EventKind::barrier: graph.barriers |= bit(e); break;
    }
    if (event.proxy == ProxyTag::generic) graph.generic |= bit(e);
    if (event.alias_fence) graph.alias_fences |= bit(e);
    // "Operation types": strong operations are the .relaxed, .acquire, .release, .acq_rel, .sc
    // ones; the initial writes are not strong (they belong to no thread and no scope).
    if (event.kind == EventKind::write && (event.order == PtxOrder::relaxed || event.order == PtxOrder::release))
      graph.strong_writes |= bit(e);
    if (event.kind == EventKind::read && (event.order == PtxOrder::relaxed || event.order == PtxOrder::acquire))
      graph.strong_reads |= bit(e);
    if (event.kind == EventKind::write && event.order == PtxOrder::release) graph.release_writes |= bit(e);
    if (event.kind == EventKind::read && event.order == PtxOrder::acquire) graph.acquire_reads |= bit(e);
  }
  EventSet memory = graph.reads | graph.writes;
  // Fences and barriers count as strong operations (morally strong: "each operation is strong").
  EventSet strong = graph.strong_reads | graph.strong_writes | graph.fences | graph.barriers;
  for (int a = 0; a < n; ++a) {
    const Event& x = graph.events[a];
    for (int b = 0; b < n; ++b) {
      const Event& y = graph.events[b];
      // "Program order": the order of a thread's operations (events of one atom are the read,
      // then the write).
      if (x.thread >= 0 && x.thread == y.thread && a < b) graph.po.add(a, b);
      if (x.location >= 0 && x.location == y.location) graph.loc.add(a, b);
      if (x.virtual_location >= 0 && x.virtual_location == y.virtual_location) graph.vloc.add(a, b);
      if (x.proxy != ProxyTag::none && x.proxy == y.proxy) graph.same_proxy.add(a, b);
      if (x.thread >= 0 && y.thread >= 0) {
        const auto& tx = test.threads[x.thread];
        const auto& ty = test.threads[y.thread];
        // "Scope": each operation's scope includes the thread of the other.
        if (x.scope != PtxScope::none && y.scope != PtxScope::none && in_scope_instance(tx, ty, x.scope) &&
            in_scope_instance(ty, tx, y.scope))
          graph.same_scope.add(a, b);
        if (tx.cta == ty.cta && tx.gpu == ty.gpu) graph.same_cta.add(a, b);
      }
      if (x.thread >= 0 && x.thread == y.thread && x.instruction == y.instruction && x.kind == EventKind::read &&
          y.kind == EventKind::write)
        graph.rmw.add(a, b);
    }
  }
  // "Morally strong": two operations are morally strong relative to each other when they are
  // related in program order, or both are strong and each one's scope includes the other's
  // thread; both go through the same proxy; and, when both are memory operations, they overlap
  // completely (the same virtual address).
  Relation ms1 = graph.po | graph.po.inverse() | graph.same_scope.restrict(strong, strong);
  Relation ms3 = (Relation::product(n, memory, memory) & graph.vloc) |
                 (Relation::product(n, ~EventSet{0}, ~EventSet{0}) - Relation::product(n, memory, memory));
  graph.morally_strong = (ms1 & graph.same_proxy & ms3) - Relation::identity_on(n, ~EventSet{0});

  // "Release and acquire patterns": a release pattern is a release write followed (in program
  // order, same location, or itself) by a strong write, or an acq_rel fence followed in program
  // order by a strong write; an acquire pattern mirrors it (a strong read, then an acquire read
  // of that location or itself, or a strong read, then an acq_rel fence). fence.sc is not an
  // acq_rel fence here: it synchronizes through the fence-SC order (as ptx-v7.5.cat has it).
  Relation po_loc = graph.po & graph.vloc;
  graph.release_pattern = po_loc.reflexive().restrict(graph.release_writes, graph.strong_writes) |
                          graph.po.restrict(graph.acq_rel_fences, graph.strong_writes);
  graph.acquire_pattern = po_loc.reflexive().restrict(graph.strong_reads, graph.acquire_reads) |
                          graph.po.restrict(graph.strong_reads, graph.acq_rel_fences);
  graph.dependencies = dependencies_of(test, graph);
  return graph;
}

} // namespace fencelab::ptx
