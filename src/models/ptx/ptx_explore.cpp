// Candidate executions of a PTX litmus test, enumerated: for each guess of which cas succeed,
// every reads-from choice (each read from any write of its location), every coherence order
// per location, every Fence-SC order and every barrier grouping; consistent() keeps those the
// PTX model allows. This is the generate-and-test reading of an axiomatic model (herd7's); it
// is complete by construction, and meant for litmus-sized tests.
//
// Coherence is a partial order here, as ptx-v7.5.cat has it ("co in PTX is not total"): the
// axiom Coherence orders causally ordered writes and morally strong ones; other pairs may stay
// unordered. The initial write of a location is coherence-before every other write.
#include "fencelab/litmus/ptx_model.h"

#include "ptx_axioms.h"
#include "ptx_graph.h"
#include "ptx_paths.h"
#include "ptx_values.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <set>

namespace fencelab::litmus {

namespace {

using ptx::Candidate;
using ptx::EventKind;
using ptx::EventSet;
using ptx::Graph;
using ptx::Relation;
using ptx::Values;

std::vector<EventSet> key_of(const Relation& relation) {
  std::vector<EventSet> key(relation.size());
  for (int i = 0; i < relation.size(); ++i) key[i] = relation.successors(i);
  return key;
}

/** Deduplicates relations (two choices that give one relation are one candidate). */
void add_unique(std::vector<Relation>& list, std::set<std::vector<EventSet>>& seen, const Relation& relation) {
  if (seen.insert(key_of(relation)).second) list.push_back(relation);
}

/** Every coherence order of one location: strict partial orders of its writes that order the
 *  morally strong pairs (axiom Coherence, second half), with the initial write first. */
std::vector<Relation> coherence_orders(const Graph& graph, int location) {
  std::vector<int> writes;
  for (int e = 0; e < graph.size; ++e)
    if (graph.events[e].kind == EventKind::write && graph.events[e].location == location) writes.push_back(e);
  int init = graph.init_write[location];
  std::vector<std::pair<int, int>> pairs;
  for (size_t i = 0; i < writes.size(); ++i)
    for (size_t j = i + 1; j < writes.size(); ++j) pairs.emplace_back(writes[i], writes[j]);
  std::vector<Relation> orders;
  uint64_t combinations = 1;
  for (size_t p = 0; p < pairs.size(); ++p) combinations *= 3;
  for (uint64_t code = 0; code < combinations; ++code) {
    Relation order(graph.size);
    uint64_t rest = code;
    bool ok = true;
    for (const auto& [a, b] : pairs) {
      uint64_t choice = rest % 3;
      rest /= 3;
      if (choice == 1) order.add(a, b);
      if (choice == 2) order.add(b, a);
      if (choice == 0 && graph.morally_strong.has(a, b)) ok = false;
    }
    if (!ok || !(order.transitive() == order) || !order.irreflexive()) continue;
    for (int w : writes) order.add(init, w);
    orders.push_back(order);
  }
  return orders;
}

/** Every Fence-SC order: an orientation of each morally strong pair of fence.sc, acyclic (a
 *  restriction of a total order of the fences, which each permutation gives). */
std::vector<Relation> fence_sc_orders(const Graph& graph) {
  std::vector<int> fences;
  for (int e = 0; e < graph.size; ++e)
    if ((graph.sc_fences >> e) & 1) fences.push_back(e);
  std::vector<Relation> orders;
  std::set<std::vector<EventSet>> seen;
  std::vector<int> permutation(fences.size());
  std::iota(permutation.begin(), permutation.end(), 0);
  do {
    Relation order(graph.size);
    for (size_t i = 0; i < permutation.size(); ++i)
      for (size_t j = i + 1; j < permutation.size(); ++j) {
        int a = fences[permutation[i]], b = fences[permutation[j]];
        if (graph.morally_strong.has(a, b)) order.add(a, b);
      }
    add_unique(orders, seen, order);
  } while (std::next_permutation(permutation.begin(), permutation.end()));
  return orders;
}

/** Every barrier synchronization of one execution (PTX ISA, "bar, barrier"; the counting as
 *  Dat3M encodes it): a barrier with a thread count completes once that many barriers of its id
 *  synchronize, and must when that many arrive; one without completes when every barrier of its
 *  id arrives. A barrier that never completes leaves its thread waiting: such an execution does
 *  not terminate and is no candidate. A synchronizing barrier orders what precedes it before what
 *  follows every completed barrier of its id (bar.arrive waits for none, so nothing is ordered
 *  after it). */
std::vector<Relation> barrier_syncs(const litmus::PtxTest& test, const Graph& graph, const Values& values) {
  std::vector<int> barriers, counted;
  for (int e = 0; e < graph.size; ++e) {
    if (graph.events[e].kind != EventKind::barrier) continue;
    barriers.push_back(e);
    if (values.barrier_count[e] >= 0) counted.push_back(e);
  }
  std::vector<Relation> result;
  std::set<std::vector<EventSet>> seen;
  for (uint64_t subset = 0; subset < (uint64_t{1} << counted.size()); ++subset) {
    EventSet synchronizing = 0;
    for (int e : barriers)
      if (values.barrier_count[e] < 0) synchronizing |= EventSet{1} << e;
    for (size_t k = 0; k < counted.size(); ++k)
      if ((subset >> k) & 1) synchronizing |= EventSet{1} << counted[k];
    bool ok = true;
    for (int e : counted) {
      int arrived = 0, synchronized = 0;
      for (int other : barriers) {
        if (values.barrier_id[other] != values.barrier_id[e]) continue;
        ++arrived;
        if ((synchronizing >> other) & 1) ++synchronized;
      }
      bool quorum = synchronized >= values.barrier_count[e];
      if (arrived >= values.barrier_count[e] && !quorum) ok = false;
      if (!quorum) ok = false;  // it never completes: its thread waits forever
    }
    if (!ok) continue;
    Relation sync(graph.size);
    for (int a : barriers) {
      if (!((synchronizing >> a) & 1)) continue;
      for (int b : barriers) {
        const auto& instruction = test.threads[graph.events[b].thread].instructions[graph.events[b].instruction];
        if (a != b && values.barrier_id[a] == values.barrier_id[b] && !instruction.barrier_arrive) sync.add(a, b);
      }
    }
    add_unique(result, seen, sync);
  }
  return result;
}

void collect_variables(const PtxCondition& condition, std::vector<std::string>& names) {
  auto add = [&](const PtxTerm& term) {
    std::string name;
    if (term.kind == PtxTerm::Kind::register_value) name = fmt::format("P{}:{}", term.thread, term.name);
    if (term.kind == PtxTerm::Kind::location_value) name = term.name;
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& child : condition.children) collect_variables(child, names);
  if (condition.kind == PtxCondition::Kind::equal || condition.kind == PtxCondition::Kind::not_equal) {
    add(condition.left);
    add(condition.right);
  }
}

/** The final value of each variable, given the chosen final value of each location. */
struct FinalState {
  const litmus::PtxTest& test;
  const Values& values;
  const std::map<std::string, int64_t>& memory;

  int64_t value(const PtxTerm& term) const {
    switch (term.kind) {
    case PtxTerm::Kind::constant: return term.constant;
    case PtxTerm::Kind::location_value: {
      auto found = memory.find(term.name);
      return found == memory.end() ? 0 : found->second;
    }
    case PtxTerm::Kind::register_value: {
      const auto& registers = values.final_registers[term.thread];
      auto found = registers.find(term.name);
      if (found != registers.end()) return found->second;
      auto initial = test.initial_registers.find({term.thread, term.name});
      return initial == test.initial_registers.end() ? 0 : initial->second;
    }
    }
    return 0;
  }
  bool holds(const PtxCondition& condition) const {
    switch (condition.kind) {
    case PtxCondition::Kind::truth: return condition.truth;
    case PtxCondition::Kind::conjunction: return holds(condition.children[0]) && holds(condition.children[1]);
    case PtxCondition::Kind::disjunction: return holds(condition.children[0]) || holds(condition.children[1]);
    case PtxCondition::Kind::negation: return !holds(condition.children[0]);
    case PtxCondition::Kind::equal: return value(condition.left) == value(condition.right);
    case PtxCondition::Kind::not_equal: return value(condition.left) != value(condition.right);
    }
    return false;
  }
};

/** Records the outcomes of one consistent execution: one per choice of a coherence-last write
 *  for each location the condition reads (several when coherence leaves writes unordered). */
void record(PtxExploration& exploration, const litmus::PtxTest& test, const Graph& graph, const Values& values,
            const Relation& coherence) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> finals;
  for (const auto& name : exploration.variables) {
    std::string physical = name;  // an alias's final value is its location's
    for (size_t steps = 0; test.aliases.count(physical) && steps <= test.aliases.size(); ++steps)
      physical = test.aliases.at(physical).target;
    auto found = std::find(graph.locations.begin(), graph.locations.end(), physical);
    if (found == graph.locations.end()) continue;
    int location = static_cast<int>(found - graph.locations.begin());
    std::vector<int64_t> last;
    for (int w = 0; w < graph.size; ++w) {
      if (!((graph.writes >> w) & 1) || graph.events[w].location != location) continue;
      if ((coherence.successors(w) & graph.writes) == 0 &&
          std::find(last.begin(), last.end(), values.of_event[w]) == last.end())
        last.push_back(values.of_event[w]);
    }
    finals.emplace_back(name, last);
  }
  std::vector<size_t> choice(finals.size(), 0);
  while (true) {
    std::map<std::string, int64_t> memory;
    for (size_t k = 0; k < finals.size(); ++k) memory[finals[k].first] = finals[k].second[choice[k]];
    FinalState state{test, values, memory};
    std::vector<int64_t> outcome;
    for (const auto& name : exploration.variables) {
      PtxTerm term;
      size_t colon = name.find(':');
      if (colon != std::string::npos) {
        term.kind = PtxTerm::Kind::register_value;
        term.thread = std::stoi(name.substr(1, colon - 1));
        term.name = name.substr(colon + 1);
      } else {
        term.kind = PtxTerm::Kind::location_value;
        term.name = name;
      }
      outcome.push_back(state.value(term));
    }
    exploration.outcomes[outcome] = state.holds(test.condition);
    size_t k = 0;
    while (k < choice.size() && ++choice[k] == finals[k].second.size()) choice[k++] = 0;
    if (k == choice.size()) break;
  }
}

/** Path combinations (one path per thread) beyond which a test with loops is refused. */
constexpr uint64_t kMaxPathCombinations = 100'000;

/** The candidates of a test without branches, added to `exploration`; false (and
 *  `exploration.refused` set) when the test is too large. */
bool explore_straight(const PtxTest& test, PtxExploration& exploration, uint64_t candidate_limit) {
  int cas = ptx::count_cas(test);
  if (cas > 12) {
    exploration.refused = fmt::format("{} atom.cas instructions (at most 12)", cas);
    return false;
  }
  for (uint64_t guess = 0; guess < (uint64_t{1} << cas); ++guess) {
    std::vector<bool> cas_succeeds(cas);
    for (int k = 0; k < cas; ++k) cas_succeeds[k] = (guess >> k) & 1;
    std::optional<Graph> built = ptx::build_graph(test, cas_succeeds);
    if (!built) {
      exploration.refused = fmt::format("more than {} events", ptx::kMaxEvents);
      return false;
    }
    const Graph& graph = *built;
    std::vector<int> reads;
    std::vector<std::vector<int>> sources;
    for (int e = 0; e < graph.size; ++e) {
      if (graph.events[e].kind != EventKind::read) continue;
      reads.push_back(e);
      sources.emplace_back();
      for (int w = 0; w < graph.size; ++w)
        if (((graph.writes >> w) & 1) && graph.events[w].location == graph.events[e].location) sources.back().push_back(w);
    }
    std::vector<std::vector<Relation>> coherence(graph.locations.size());
    for (int l = 0; l < static_cast<int>(graph.locations.size()); ++l) {
      int writes = 0;
      for (const auto& event : graph.events) writes += event.kind == EventKind::write && event.location == l;
      if (writes > 5) {
        exploration.refused = fmt::format("{} writes to '{}' (at most 5)", writes, graph.locations[l]);
        return false;
      }
      coherence[l] = coherence_orders(graph, l);
    }
    int sc_fences = __builtin_popcountll(graph.sc_fences), counted_barriers = 0;
    for (const auto& thread : test.threads)
      for (const auto& instruction : thread.instructions)
        counted_barriers += instruction.kind == PtxInstructionKind::barrier && instruction.barrier_count.has_value();
    if (sc_fences > 8 || counted_barriers > 12) {
      exploration.refused = sc_fences > 8 ? fmt::format("{} fence.sc (at most 8)", sc_fences)
                                          : fmt::format("{} barriers with a thread count (at most 12)", counted_barriers);
      return false;
    }
    std::vector<Relation> fence_orders = fence_sc_orders(graph);
    // The size of the space, before any value or consistency check.
    long double space = fence_orders.size();
    for (const auto& options : sources) space *= options.size();
    for (const auto& orders : coherence) space *= orders.size();
    if (space * (1u << cas) + exploration.candidates > static_cast<long double>(candidate_limit)) {
      exploration.refused = fmt::format("more than {} candidate executions", candidate_limit);
      return false;
    }
    std::vector<int> reads_from(graph.size, -1);
    std::vector<size_t> rf_choice(reads.size(), 0);
    while (true) {
      Relation rf(graph.size);
      for (size_t k = 0; k < reads.size(); ++k) {
        reads_from[reads[k]] = sources[k][rf_choice[k]];
        rf.add(sources[k][rf_choice[k]], reads[k]);
      }
      EventSet failed_on = 0;
      std::optional<Values> values = ptx::evaluate(test, graph, reads_from, cas_succeeds, &failed_on);
      if (!values) {
        // Every choice that keeps the reads that decided the failure fails too: skip to the next
        // change of the lowest of them in the odometer (digits below it start again at 0).
        size_t lowest = reads.size();
        for (size_t k = 0; k < reads.size(); ++k)
          if ((failed_on >> reads[k]) & 1) {
            lowest = k;
            break;
          }
        if (lowest == reads.size()) break;  // decided by no read: no choice succeeds
        for (size_t k = 0; k < lowest; ++k) rf_choice[k] = 0;
        size_t k = lowest;
        while (k < rf_choice.size() && ++rf_choice[k] == sources[k].size()) rf_choice[k++] = 0;
        if (k == rf_choice.size()) break;
        continue;
      }
      {
        std::vector<Relation> barrier_options = barrier_syncs(test, graph, *values);
        std::vector<size_t> co_choice(coherence.size(), 0);
        bool any_location_empty = std::any_of(coherence.begin(), coherence.end(), [](const auto& o) { return o.empty(); });
        while (!any_location_empty) {
          Relation co(graph.size);
          for (size_t l = 0; l < coherence.size(); ++l) co = co | coherence[l][co_choice[l]];
          for (const Relation& fence_sc : fence_orders) {
            for (const Relation& barrier_sync : barrier_options) {
              ++exploration.candidates;
              Candidate candidate{rf, co, fence_sc, barrier_sync};
              if (!ptx::consistent(graph, candidate)) continue;
              ++exploration.consistent;
              record(exploration, test, graph, *values, co);
            }
          }
          size_t l = 0;
          while (l < co_choice.size() && ++co_choice[l] == coherence[l].size()) co_choice[l++] = 0;
          if (l == co_choice.size()) break;
        }
      }
      size_t k = 0;
      while (k < rf_choice.size() && ++rf_choice[k] == sources[k].size()) rf_choice[k++] = 0;
      if (k == rf_choice.size()) break;
    }
  }
  return true;
}

} // namespace

PtxExploration explore_ptx(const PtxTest& test, uint64_t candidate_limit) {
  PtxExploration exploration;
  collect_variables(test.condition, exploration.variables);
  auto refuse = [&] {
    exploration.outcomes.clear();
    exploration.candidates = exploration.consistent = 0;
    return exploration;
  };
  if (!ptx::has_control_flow(test)) {
    if (!explore_straight(test, exploration, candidate_limit)) return refuse();
    return exploration;
  }
  // With branches: every combination of one path per thread is a test without branches.
  auto paths = ptx::thread_paths(test);
  std::vector<size_t> choice(paths.size(), 0);
  if (std::any_of(paths.begin(), paths.end(), [](const auto& p) { return p.empty(); })) return exploration;
  long double combinations = 1;
  for (const auto& thread : paths) combinations *= thread.size();
  if (combinations > kMaxPathCombinations) {
    exploration.refused = fmt::format("about {:.0f} combinations of paths (at most {})", static_cast<double>(combinations),
                                      kMaxPathCombinations);
    return refuse();
  }
  while (true) {
    PtxTest straight = test;
    for (size_t t = 0; t < paths.size(); ++t) straight.threads[t].instructions = paths[t][choice[t]];
    if (!explore_straight(straight, exploration, candidate_limit)) return refuse();
    size_t t = 0;
    while (t < choice.size() && ++choice[t] == paths[t].size()) choice[t++] = 0;
    if (t == choice.size()) break;
  }
  return exploration;
}

uint64_t PtxExploration::positive() const {
  return static_cast<uint64_t>(std::count_if(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.second; }));
}

uint64_t PtxExploration::negative() const { return outcomes.size() - positive(); }

bool PtxExploration::condition_holds(PtxQuantifier quantifier) const {
  switch (quantifier) {
  case PtxQuantifier::exists: return positive() > 0;
  case PtxQuantifier::not_exists: return positive() == 0;
  case PtxQuantifier::forall: return negative() == 0;
  }
  return false;
}

std::string format_ptx_exploration(const PtxTest& test, const PtxExploration& exploration) {
  std::string out = fmt::format("Test {}\n", test.name);
  if (exploration.refused) return out + fmt::format("refused: {}\n", *exploration.refused);
  out += fmt::format("States {}\n", exploration.outcomes.size());
  for (const auto& [values, satisfies] : exploration.outcomes) {
    std::string line;
    for (size_t k = 0; k < values.size(); ++k) line += fmt::format("{}{}={};", k ? " " : "", exploration.variables[k], values[k]);
    out += fmt::format("{}{}\n", satisfies ? "* " : "  ", line);
  }
  uint64_t positive = exploration.positive(), negative = exploration.negative();
  const char* observation = positive == 0 ? "Never" : negative == 0 ? "Always" : "Sometimes";
  const char* quantifier = test.quantifier == PtxQuantifier::exists ? "exists"
                           : test.quantifier == PtxQuantifier::not_exists ? "~exists" : "forall";
  out += fmt::format("Candidates {}, consistent {}\n", exploration.candidates, exploration.consistent);
  out += fmt::format("Observation {} {} {} {}\n", test.name, observation, positive, negative);
  out += fmt::format("Condition {}: {}\n", quantifier, exploration.condition_holds(test.quantifier) ? "holds" : "fails");
  return out;
}

} // namespace fencelab::litmus
