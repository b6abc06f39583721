// The PTX ISA's memory consistency model (PTX ISA 7.5+, "Memory Consistency Model", section
// "Axioms"; Lustig, Sahasrabuddhe, Giroux, "A Formal Analysis of the NVIDIA PTX Memory
// Consistency Model", ASPLOS 2019), in the form of Dat3M's ptx-v7.5.cat (the mixed-proxy model
// of NVlabs' mixedproxy). Each relation is the ISA's; the names follow the cat file so that the
// two can be read side by side.
#include "ptx_axioms.h"

namespace fencelab::ptx {

bool consistent(const Graph& graph, const Candidate& candidate, bool check_sc_per_location) {
  const Relation& rf = candidate.reads_from;
  const Relation& co = candidate.coherence;
  const Relation& ms = graph.morally_strong;
  const EventSet all = ~EventSet{0};

  // "Coherence order" / "Communication order": fr = rf^-1 ; co (a read is before the writes
  // coherence-after the one it reads).
  Relation fr = rf.inverse().then(co);

  // "Observation": a write is observed by a morally strong read of it, and an RMW's read by its
  // write: observation = (morally_strong & rf) | rmw.
  Relation observation = (ms & rf) | graph.rmw;

  // "Synchronizes-with": a release pattern synchronizes with an acquire pattern when the
  // pattern's write is observed, through a chain of observations (release sequences through
  // RMWs), by the pattern's read, and the two ends are morally strong.
  Relation sync = ms & graph.release_pattern.then(observation.transitive()).then(graph.acquire_pattern);

  // "Base causality order": program order, and synchronization (release/acquire, fence-SC order,
  // barriers of one CTA) with program order before and after, transitively:
  // cause_base = po? ; ((sync | sync_fence | sync_barrier) ; po?)+ | po.
  Relation po_reflexive = graph.po.reflexive();
  Relation synchronizing = sync | candidate.fence_sc | (candidate.barrier_sync & graph.same_cta);
  Relation cause_base = po_reflexive.then(synchronizing.then(po_reflexive).transitive()) | graph.po;

  // "Causality order": observation? ; proxy-preserved base causality, which keeps of base
  // causality (PTX ISA, "Proxy-preserved base causality order"; ptx-v7.5.cat's nine cases):
  //  - generic accesses of one virtual address;
  //  - accesses of one virtual address through one proxy within one CTA;
  //  - accesses of one virtual address with a proxy fence of the non-generic side's proxy (in
  //    its CTA) causally between them, on either or both sides;
  //  - generic accesses to aliases of one physical location with an alias fence causally
  //    between them, and proxy fences as above at the ends.
  EventSet memory = graph.reads | graph.writes;
  Relation proxy_fence_ops = (graph.same_proxy & graph.same_cta).restrict(graph.fences, memory);
  Relation after_fence = cause_base & proxy_fence_ops;            // cause_base & proxy-fence-ops
  Relation before_fence = cause_base & proxy_fence_ops.inverse();  // cause_base & proxy-fence-ops^-1
  Relation through_alias = cause_base.restrict(all, graph.alias_fences).then(cause_base);
  Relation preserved =
      (graph.vloc & cause_base).restrict(graph.generic, graph.generic) |
      (graph.same_proxy & graph.same_cta & graph.vloc & cause_base).restrict(memory, memory) |
      (graph.vloc & before_fence.then(cause_base).restrict(all, graph.generic)) |
      (graph.vloc & cause_base.restrict(graph.generic, all).then(after_fence)) |
      (graph.vloc & before_fence.then(cause_base).then(after_fence)) |
      (graph.loc & through_alias.restrict(graph.generic, graph.generic)) |
      (graph.loc & before_fence.then(through_alias).restrict(all, graph.generic)) |
      (graph.loc & through_alias.restrict(graph.generic, all).then(after_fence)) |
      (graph.loc & before_fence.then(through_alias).then(after_fence));
  Relation cause = observation.reflexive().then(preserved);

  // Axiom "Coherence": writes of one location ordered by causality are ordered so in coherence.
  if (!((cause.restrict(graph.writes, graph.writes) & graph.loc) - co).empty()) return false;
  // Axiom "Coherence" (second half, as the cat states it): morally strong writes of one location
  // are ordered in coherence one way or the other.
  if (!((ms.restrict(graph.writes, graph.writes) & graph.loc) - (co | co.inverse())).empty()) return false;
  // Axiom "Fence-SC": the Fence-SC order does not contradict causality: causality between two
  // fence.sc implies Fence-SC order.
  if (!(cause.restrict(graph.sc_fences, graph.sc_fences) - candidate.fence_sc).empty()) return false;
  // Axiom "Atomicity": no morally strong write comes between an RMW's read and its write:
  // ((morally_strong & fr) ; (morally_strong & co)) & rmw is empty.
  if (!((ms & fr).then(ms & co) & graph.rmw).empty()) return false;
  // Axiom "Sequential Consistency Per Location": among morally strong operations of one
  // location, communication order does not contradict program order. Checked as acyclicity of
  // po_loc with the morally strong communication edges (a cycle through pairs that are each
  // morally strong).
  if (check_sc_per_location &&
      !((graph.po & graph.vloc).restrict(graph.generic, graph.generic) | (ms & (rf | co | fr))).acyclic())
    return false;
  // Axiom "No Thin Air": values do not appear out of thin air: rf | dep is acyclic.
  if (!(rf | graph.dependencies).acyclic()) return false;
  // Axiom "Causality": a read or write is not causally before what precedes it in
  // communication: (rf | fr) ; cause is irreflexive.
  if (!(rf | fr).then(cause).irreflexive()) return false;
  return true;
}

} // namespace fencelab::ptx
