// The herd7 PTX litmus reader and the axiomatic PTX model (fencelab/litmus/): litmus tests
// written here from the PTX ISA's memory-model examples (message passing with release/acquire,
// store buffering with fence.sc, CoRR, IRIW), each with its exact outcome set derived by hand
// from the ISA's axioms; and the reader's diagnostics.
#include "fencelab/litmus/ptx_litmus.h"
#include "fencelab/litmus/ptx_model.h"
#include "models/ptx/relation.h"
#include "process_helpers.h"

#include <catch2/catch.hpp>

#include <set>

using namespace fencelab::litmus;

namespace {

using Outcomes = std::set<std::vector<int64_t>>;

PtxTest parse(const std::string& text) {
  PtxParseResult parsed = parse_ptx_litmus(text);
  for (const auto& diagnostic : parsed.diagnostics) INFO(format_ptx_diagnostic("test.litmus", text, diagnostic));
  REQUIRE(parsed.diagnostics.empty());
  REQUIRE(parsed.test.has_value());
  return *parsed.test;
}

struct Run {
  PtxTest test;
  PtxExploration exploration;
  Outcomes outcomes() const {
    Outcomes all;
    for (const auto& [values, satisfies] : exploration.outcomes) all.insert(values);
    return all;
  }
};

Run run(const std::string& text) {
  Run result{parse(text), {}};
  result.exploration = explore_ptx(result.test);
  REQUIRE_FALSE(result.exploration.refused.has_value());
  return result;
}

/** Every pair of 0/1 values but those listed. */
Outcomes all_pairs_but(const Outcomes& excluded) {
  Outcomes all;
  for (int64_t a : {0, 1})
    for (int64_t b : {0, 1})
      if (!excluded.count({a, b})) all.insert({a, b});
  return all;
}

std::string message_passing(const std::string& store, const std::string& load, int consumer_cta) {
  return "PTX MP\n{ x=0; y=0; }\n"
         " P0@cta 0,gpu 0 | P1@cta " + std::to_string(consumer_cta) + ",gpu 0 ;\n"
         " st.weak x, 1 | " + load + " r1, y ;\n"
         " " + store + " y, 1 | ld.weak r2, x ;\n"
         "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
}

std::string store_buffering(const std::string& fence, int second_cta) {
  return "PTX SB\n{ x=0; y=0; }\n"
         " P0@cta 0,gpu 0 | P1@cta " + std::to_string(second_cta) + ",gpu 0 ;\n"
         " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n"
         " " + fence + " | " + fence + " ;\n"
         " ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\n"
         "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";
}

} // namespace

TEST_CASE("PTX MP: a release store observed by an acquire load orders the weak data", "[ptx]") {
  // PTX ISA, "Release and acquire patterns" and "Causality order": st.release y synchronizes
  // with ld.acquire y that reads it (morally strong at gpu scope across CTAs), so the weak
  // store of x is causally before the weak load of x, which cannot read the initial 0 (axiom
  // Causality: fr ; cause would be a cycle). Every other pair is allowed.
  Run synchronized = run(message_passing("st.release.gpu", "ld.acquire.gpu", 1));
  CHECK(synchronized.outcomes() == all_pairs_but({{1, 0}}));
  CHECK(synchronized.exploration.condition_holds(PtxQuantifier::exists) == false);
  // Relaxed on both sides: no release/acquire pattern, r1=1 r2=0 is allowed.
  Run relaxed = run(message_passing("st.relaxed.gpu", "ld.relaxed.gpu", 1));
  CHECK(relaxed.outcomes() == all_pairs_but({}));
  CHECK(relaxed.exploration.condition_holds(PtxQuantifier::exists) == true);
  // A cta-scoped release seen from another CTA: not morally strong, so no synchronization.
  Run out_of_scope = run(message_passing("st.release.cta", "ld.acquire.cta", 1));
  CHECK(out_of_scope.outcomes() == all_pairs_but({}));
  // The same cta scope within one CTA synchronizes.
  Run in_scope = run(message_passing("st.release.cta", "ld.acquire.cta", 0));
  CHECK(in_scope.outcomes() == all_pairs_but({{1, 0}}));
}

TEST_CASE("PTX SB: fence.sc of a scope covering both threads forbids r0=0 r1=0", "[ptx]") {
  // PTX ISA, "Fence-SC order": the two morally strong fence.sc are ordered one way; the later
  // one's thread must see the other's store (causality through the fence-SC synchronization),
  // so at least one load reads 1.
  Run fenced = run(store_buffering("fence.sc.gpu", 1));
  CHECK(fenced.outcomes() == all_pairs_but({{0, 0}}));
  CHECK(fenced.exploration.condition_holds(PtxQuantifier::exists) == false);
  // fence.acq_rel is no SC fence: store buffering stays allowed.
  CHECK(run(store_buffering("fence.acq_rel.gpu", 1)).outcomes() == all_pairs_but({}));
  // fence.sc.cta between two CTAs: the fences are not morally strong, nothing is ordered.
  CHECK(run(store_buffering("fence.sc.cta", 1)).outcomes() == all_pairs_but({}));
  CHECK(run(store_buffering("fence.sc.cta", 0)).outcomes() == all_pairs_but({{0, 0}}));
}

TEST_CASE("PTX CoRR: two reads of one location do not see its writes out of coherence order", "[ptx]") {
  // PTX ISA, axioms "Coherence" and "Causality": after reading the store (r1=1), a later read
  // of the same location in program order cannot read the initial value (fr ; po would be a
  // cycle of causality through po_loc).
  Run corr = run("PTX CoRR\n{ x=0; }\n"
                 " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.relaxed.gpu x, 1 | ld.relaxed.gpu r1, x ;\n"
                 "                     | ld.relaxed.gpu r2, x ;\n"
                 "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n");
  CHECK(corr.outcomes() == all_pairs_but({{1, 0}}));
  CHECK(corr.exploration.condition_holds(PtxQuantifier::exists) == false);
}

TEST_CASE("PTX IRIW: readers with fence.sc.gpu agree on the order of two independent writes", "[ptx]") {
  // PTX ISA, "Fence-SC order": the readers' fences are ordered; the later reader sees whatever
  // the earlier one saw before its fence. Of the 16 outcomes only the one where the readers
  // disagree (P1 sees x then not y, P3 sees y then not x) is forbidden; the other 15 are those
  // of interleavings.
  std::string text = "PTX IRIW\n{ x=0; y=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
                     " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, y ;\n"
                     "                     | fence.sc.gpu         |                     | fence.sc.gpu         ;\n"
                     "                     | ld.relaxed.gpu r1, y |                     | ld.relaxed.gpu r1, x ;\n"
                     "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n";
  Run iriw = run(text);
  Outcomes expected;
  for (int code = 0; code < 16; ++code)
    if (code != 0b1010) expected.insert({code >> 3 & 1, code >> 2 & 1, code >> 1 & 1, code & 1});
  CHECK(iriw.outcomes() == expected);
  CHECK(iriw.exploration.positive() == 0);
  // Without the fences (relaxed loads, different CTAs), the readers may disagree.
  std::string unfenced = text;
  for (size_t at; (at = unfenced.find("fence.sc.gpu")) != std::string::npos;) unfenced.replace(at, 12, "            ");
  CHECK(run(unfenced).outcomes().size() == 16);
}

TEST_CASE("PTX release sequence: an RMW between release and acquire passes the synchronization on", "[ptx]") {
  // PTX ISA, "Release sequence"/"Observation": observation = (morally strong rf) | rmw, and
  // synchronization follows a chain of observations. P2 reading the RMW's 2 (the RMW read the
  // release's 1) or the release's 1 is synchronized with P0, so x reads 1; reading 0, or the 1
  // the RMW wrote after reading the initial 0 (coherence-before the release), is not.
  Run sequence = run("PTX RS\n{ x=0; y=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
                     " st.relaxed.gpu x, 1 | atom.relaxed.gpu.add r0, y, 1 | ld.acquire.gpu r1, y ;\n"
                     " st.release.gpu y, 1 |                               | ld.relaxed.gpu r2, x ;\n"
                     "exists (P1:r0 == 1 /\\ P2:r1 == 2 /\\ P2:r2 == 0)\n");
  CHECK(sequence.outcomes() == Outcomes{{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 0, 1}, {1, 1, 1}, {1, 2, 1}});
  CHECK_FALSE(sequence.exploration.condition_holds(PtxQuantifier::exists));
}

TEST_CASE("PTX barriers: bar.cta.sync orders within a CTA, and a thread count lets part of it pass", "[ptx]") {
  // PTX ISA, "bar, barrier" and "Base causality order" (barriers of one CTA synchronize).
  auto two = [](int second_cta) {
    return "PTX BAR\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta " + std::to_string(second_cta) +
           ",gpu 0 ;\n st.weak x, 1 | bar.cta.sync 1 ;\n bar.cta.sync 1 | ld.weak r0, x ;\nforall (P1:r0 == 1)\n";
  };
  CHECK(run(two(0)).outcomes() == Outcomes{{1}});
  CHECK(run(two(1)).outcomes() == Outcomes{{0}, {1}});
  // Three threads at a barrier that waits for COUNT of them: with 2, P1 and P2 may pass without
  // P0 (P1 may read 0); with 3, all pass together; with 4 none ever passes: no execution ends.
  auto counted = [](int count) {
    std::string bar = "bar.cta.sync 1, 1, " + std::to_string(count);
    return "PTX Q\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n st.weak x, 1 | " + bar + " | " + bar +
           " ;\n " + bar + " | ld.weak r0, x | ;\nexists (P1:r0 == 0)\n";
  };
  CHECK(run(counted(2)).outcomes() == Outcomes{{0}, {1}});
  CHECK(run(counted(3)).outcomes() == Outcomes{{1}});
  Run hang = run(counted(4));
  CHECK(hang.outcomes().empty());
  CHECK(hang.exploration.consistent == 0);
  CHECK_FALSE(hang.exploration.condition_holds(PtxQuantifier::exists));
  CHECK(hang.exploration.condition_holds(PtxQuantifier::forall));
}

TEST_CASE("PTX final conditions: exists, ~exists and forall over registers and locations", "[ptx]") {
  // Two atomic increments of one location: every execution ends with x=2 (axiom Atomicity),
  // the two results are 0 and 1 in some order.
  Run increments = run("PTX INC\n{ x=0; }\n"
                       " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                       " atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 ;\n"
                       "forall (x == 2 /\\ (P0:r0 == 0 \\/ P1:r0 == 0) /\\ ~(P0:r0 == P1:r0))\n");
  CHECK(increments.exploration.variables == std::vector<std::string>{"x", "P0:r0", "P1:r0"});
  CHECK(increments.outcomes() == Outcomes{{2, 0, 1}, {2, 1, 0}});
  CHECK(increments.exploration.condition_holds(PtxQuantifier::forall));
  CHECK(increments.exploration.condition_holds(PtxQuantifier::exists));
  CHECK_FALSE(increments.exploration.condition_holds(PtxQuantifier::not_exists));
}

TEST_CASE("PTX load buffering: allowed without dependencies, forbidden with them (No Thin Air)", "[ptx]") {
  auto lb = [](const std::string& value0, const std::string& value1) {
    return "PTX LB\n{ x=0; y=0; }\n"
           " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
           " ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n"
           " st.relaxed.gpu y, " + value0 + " | st.relaxed.gpu x, " + value1 + " ;\n"
           "exists (P0:r0 == 1 /\\ P1:r1 == 1)\n";
  };
  CHECK(run(lb("1", "1")).outcomes() == all_pairs_but({}));
  // st y, r0 and st x, r1: the values flow from the loads; r0=r1=1 would come from thin air, and
  // the values 0 only are possible.
  CHECK(run(lb("r0", "r1")).outcomes() == Outcomes{{0, 0}});
}

TEST_CASE("PTX proxies: a generic alias of a location is ordered after a store only through an alias fence", "[ptx]") {
  // PTX ISA, "Proxies" / "Proxy-preserved base causality order": y is a second generic address
  // of x's memory. Program order between the store to x and the load of y is causality only
  // with a fence.proxy.alias between them; without it the load may still read the initial 0.
  auto alias_test = [](const std::string& fence) {
    return "PTX ALIAS\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 42 ;\n " + fence +
           " ;\n ld.weak r0, y ;\nforall (P0:r0 == 42)\n";
  };
  Run unfenced = run(alias_test(""));
  CHECK(unfenced.outcomes() == Outcomes{{0}, {42}});
  CHECK_FALSE(unfenced.exploration.condition_holds(PtxQuantifier::forall));
  Run fenced = run(alias_test("fence.proxy.alias"));
  CHECK(fenced.outcomes() == Outcomes{{42}});
  CHECK(fenced.exploration.condition_holds(PtxQuantifier::forall));
  // Read through x itself, the same virtual address: ordered without a fence.
  Run same_address = run("PTX SAME\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 42 ;\n ld.weak r0, x ;\nforall (P0:r0 == 42)\n");
  CHECK(same_address.outcomes() == Outcomes{{42}});
}

TEST_CASE("PTX litmus reader: diagnostics name the line and column", "[ptx]") {
  auto first = [](const std::string& text) {
    PtxParseResult parsed = parse_ptx_litmus(text);
    REQUIRE_FALSE(parsed.test.has_value());
    REQUIRE_FALSE(parsed.diagnostics.empty());
    return parsed.diagnostics.front();
  };
  PtxDiagnostic cluster = first("PTX C\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n  ld.relaxed.cluster r0, x ;\nexists (x == 1)\n");
  CHECK(cluster.unsupported);
  CHECK(cluster.message == "unsupported: the .cluster scope");
  CHECK(cluster.position.line == 5);
  CHECK(cluster.position.column == 3);
  PtxDiagnostic alias = first("PTX A\n{ x=0;\n y @ surfaces aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n");
  CHECK(alias.position.line == 3);
  CHECK(alias.position.column == 6);
  CHECK(alias.message == "expected generic, surface, texture or constant, found 'surfaces'");
  PtxDiagnostic bad_order = first("PTX B\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.acquire.gpu x, 1 ;\nexists (x == 1)\n");
  CHECK_FALSE(bad_order.unsupported);
  CHECK(bad_order.position.line == 4);
  CHECK(bad_order.position.column == 2);
  CHECK(bad_order.message == "'st' does not take '.acquire'");
  PtxDiagnostic weak_scope = first("PTX W\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak.gpu r0, x ;\nexists (P0:r0 == 1)\n");
  CHECK(weak_scope.message == "a weak 'ld' takes no scope");
  PtxDiagnostic label = first("PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto LC01 ;\nexists (x == 0)\n");
  CHECK(label.message == "no label 'LC01' in this thread");
  PtxDiagnostic end = first("PTX E\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == \n");
  CHECK(end.position.line == 5);
  CHECK(end.position.column == 13);
  CHECK(end.message == "expected a register, location or number, found the end of the file");
  CHECK(first("struct not_a_test {};").message.find("expected 'PTX NAME'") == 0);
  CHECK(format_ptx_diagnostic("t.litmus", "PTX B\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.acquire.gpu x, 1 ;\n", bad_order) ==
        "t.litmus:4:2: error: 'st' does not take '.acquire'\n   st.acquire.gpu x, 1 ;\n   ^\n");
}

TEST_CASE("PTX relations: sequence, inverse, closure and cycles against hand-made examples", "[ptx]") {
  using fencelab::ptx::Relation;
  Relation chain(4);
  chain.add(0, 1);
  chain.add(1, 2);
  chain.add(2, 3);
  Relation closed = chain.transitive();
  CHECK(closed.has(0, 3));
  CHECK(closed.has(1, 3));
  CHECK_FALSE(closed.has(3, 0));
  CHECK(chain.then(chain).has(0, 2));
  CHECK_FALSE(chain.then(chain).has(0, 1));
  CHECK(chain.inverse().has(3, 2));
  CHECK(chain.acyclic());
  Relation cycle = chain;
  cycle.add(3, 0);
  CHECK_FALSE(cycle.acyclic());
  CHECK(cycle.irreflexive());
  CHECK_FALSE(chain.reflexive().irreflexive());
  CHECK(chain.restrict(0b0010, 0b0100).has(1, 2));
  CHECK_FALSE(chain.restrict(0b0010, 0b0100).has(0, 1));
  CHECK((chain - chain).empty());
}

TEST_CASE("fencelab ptx-litmus prints the outcomes and herd7's verdict, and bad input exits 2 with file:line:col", "[ptx][cli]") {
  using fencelab::testing::run_fencelab;
  using fencelab::testing::write_temp_file;
  const std::string mp = write_temp_file("ptx_mp.litmus", message_passing("st.release.gpu", "ld.acquire.gpu", 1));
  const auto ran = run_fencelab("ptx-litmus " + mp);
  CHECK(ran.exit_code == 0);
  CHECK(ran.output == "Test MP\n"
                      "States 3\n"
                      "  P1:r1=0; P1:r2=0;\n"
                      "  P1:r1=0; P1:r2=1;\n"
                      "  P1:r1=1; P1:r2=1;\n"
                      "Candidates 4, consistent 3\n"
                      "Observation MP Never 0 3\n"
                      "Condition exists: fails\n");
  const std::string bad = write_temp_file("ptx_bad.litmus", "PTX B\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.acquire.gpu x, 1 ;\nexists (x == 1)\n");
  const auto refused = run_fencelab("ptx-litmus " + bad);
  CHECK(refused.exit_code == 2);
  CHECK(refused.output == bad + ":4:2: error: 'st' does not take '.acquire'\n   st.acquire.gpu x, 1 ;\n   ^\n");
}
