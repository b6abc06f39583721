// The explorers on the sc model: exact outcome sets and execution counts, witnesses that
// replay, seeded determinism, and random results inside exhaustive ones.
#include <fmt/format.h>
#include "fencelab/explore/search_control.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/report/model_verdict.h"
#include "fencelab/report/report.h"
#include "machine_helpers.h"

#include <algorithm>
#include <map>
#include <random>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

const char* kWriteReadXY = R"(
//@ launch grid=1 block=2
//@ observe readXY.A readXY.B
__device__ int X = 1, Y = 2;
__device__ void writeXY() { X = 10; Y = 20; }
__device__ void readXY() { int B = Y; int A = X; }
__global__ void k() { if (threadIdx.x == 0) writeXY(); else readXY(); }
)";

std::map<std::string, uint64_t> histogram(const Program& program, const ExplorationResult& result) {
  std::map<std::string, uint64_t> out;
  for (const OutcomeCount& o : result.outcomes) out[o.outcome.to_string(program)] = o.executions;
  return out;
}

/** Each outcome's witness, encoded and decoded again, replays to that outcome, and resumes
 *  waiting threads exactly where it says it does (ReplayToken::awaits). */
void check_witnesses_replay(Kernel& k, MemoryModel& model, const ExplorationResult& result) {
  for (const OutcomeCount& o : result.outcomes) {
    INFO(o.witness.encode());
    ReplayError error;
    const auto decoded = ReplayToken::decode(o.witness.encode(), error.message);
    REQUIRE(decoded);
    TraceRecorder trace;
    const auto execution = replay(*k.machine, model, *decoded, &trace, error);
    REQUIRE(execution);
    CHECK(execution->outcome == o.outcome);
    CHECK(execution->awaits_released == decoded->awaits);
    // The trace says where waiting threads were resumed (replay --trace prints it).
    const auto resumed = std::count_if(trace.events().begin(), trace.events().end(),
                                       [](const Event& e) { return e.kind == EventKind::AwaitsReleased; });
    CHECK(resumed == (decoded->awaits ? 1 : 0));
  }
}

/** Thread 0 waits, reading flag with `read`, until thread 1's third store sets it to 3. */
std::string waiter_on_three_stores(const std::string& read) {
  return R"(
//@ launch grid=1 block=2
//@ observe r
__device__ int flag = 0;
__device__ int r = 0;
__global__ void k() {
  if (threadIdx.x == 0) { while ()" +
         read + R"( != 3) { } r = 1; }
  else { atomicExch(&flag, 1); atomicExch(&flag, 2); atomicExch(&flag, 3); }
}
)";
}

/** The full search (--reduction none) and the reduced one of a kernel, both complete, with
 *  the same outcomes. */
struct FullAndReduced {
  ExplorationResult full, reduced;
};
FullAndReduced search_both(Kernel& k, MemoryModel& model) {
  ExhaustiveOptions every_order;
  every_order.reduction = Reduction::None;
  every_order.max_executions = 100000;
  FullAndReduced r{explore_exhaustive(*k.machine, model, every_order), explore_exhaustive(*k.machine, model, {})};
  REQUIRE(r.full.complete);
  REQUIRE(r.reduced.complete);
  CHECK(outcome_strings(k.program(), r.full) == outcome_strings(k.program(), r.reduced));
  return r;
}

} // namespace

TEST_CASE("exhaustive sc exploration of writeXY/readXY finds exactly the interleavings", "[explore]") {
  Kernel k = kernel_from_text(kWriteReadXY);
  auto model = create_model("sc");
  ExhaustiveOptions every_order;
  every_order.reduction = Reduction::None;
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, every_order);
  CHECK(r.complete);
  // Two threads of two events each: C(4,2) = 6 interleavings keep program order.
  CHECK(r.executions == 6);
  CHECK(r.events == 24);
  // A=10 B=20 needs both reads after both writes (1 way); A=1 B=2 both reads first (1 way).
  const std::map<std::string, uint64_t> expected{{"A=1 B=2", 1}, {"A=10 B=2", 4}, {"A=10 B=20", 1}};
  CHECK(histogram(k.program(), r) == expected);
}

TEST_CASE("exhaustive sc exploration with the reduction explores one order per outcome class", "[explore][reduction]") {
  Kernel k = kernel_from_text(kWriteReadXY);
  auto model = create_model("sc");
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, {});
  CHECK(r.complete);
  CHECK(r.reduction == "dpor");
  // Each write conflicts only with the read of its variable, so what matters of the 6
  // interleavings is the order within each pair: both reads first (A=1 B=2), only X's write
  // first (A=10 B=2), both writes first (A=10 B=20); Y's write first alone is impossible
  // (X=10 precedes Y=20, B=Y precedes A=X). One execution per class: 3.
  CHECK(r.executions == 3);
  const std::set<std::string> expected{"A=1 B=2", "A=10 B=2", "A=10 B=20"};
  CHECK(outcome_strings(k.program(), r) == expected);
}

TEST_CASE("every witness token replays to its outcome", "[explore][replay]") {
  for (const char* file : {"fences/write_read_xy.cu", "fences/write_read_xy_fenced.cu",
                           "locks/potential_deadlock_demo.cu", "races/race_condition_demo.cu"}) {
    Kernel k = kernel_from_file(catalogue_path(file));
    auto model = create_model("sc");
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{3000});
    REQUIRE(!r.outcomes.empty());
    INFO(file);
    check_witnesses_replay(k, *model, r);
  }
}

// docs/architecture.md, "Awaiting spins".
TEST_CASE("under the reduction a spinning thread reads once per execution, and its witnesses replay",
          "[explore][reduction][replay]") {
  Kernel k = kernel_from_text(waiter_on_three_stores("atomicAdd(&flag, 0)"));
  for (const char* name : {"sc", "gpu"}) {
    INFO(name);
    auto model = create_model(name);
    const auto [full, reduced] = search_both(k, *model);
    // Without awaiting, the waiter reads again after each store or not: 2^3 orders. With it,
    // its one read comes before the first store, between two, or after the last: 4, of which
    // the first 3 resume it at their end.
    CHECK(full.executions == 8);
    CHECK(reduced.executions == 4);
    CHECK(reduced.awaits_released == 3);
    check_witnesses_replay(k, *model, reduced);
  }
}

// docs/architecture.md, "Failing values".
TEST_CASE("under gpu a waiter's stale failing values are one choice, and its witnesses replay",
          "[explore][reduction][replay]") {
  Kernel k = kernel_from_text(waiter_on_three_stores("*(volatile int*)&flag"));
  auto model = create_model("gpu");
  const ExplorationResult reduced = search_both(k, *model).reduced;
  // The waiter's one read after k of the three stores may read any of the k + 1 values from
  // the initial one on (its view of flag is still the initial value): 1 + 2 + 3 + 4 = 10
  // orders and values, of which only the newest after the third store passes. The first
  // failing value explored at each place stands for the others there: one execution per
  // place, and after the third store the passing one too: 5, the other 5 abandoned.
  CHECK(reduced.executions == 5);
  CHECK(reduced.abandoned == 5);
  CHECK(reduced.awaits_released == 4);
  check_witnesses_replay(k, *model, reduced);
}

TEST_CASE("replay refuses a token that does not fit", "[replay]") {
  Kernel k = kernel_from_text(kWriteReadXY);
  auto model = create_model("sc");
  ReplayError error;
  CHECK_FALSE(replay(*k.machine, *model, ReplayToken{"sc", {0, 1, 0, 1}}, nullptr, error));
  CHECK(error.message.find("ended before the token") != std::string::npos);
  CHECK_FALSE(replay(*k.machine, *model, ReplayToken{"sc", {5}}, nullptr, error));
  CHECK(error.message.find("has only 2 options") != std::string::npos);
  CHECK_FALSE(replay(*k.machine, *model, ReplayToken{"gpu", {0}}, nullptr, error));
  CHECK(error.message.find("model 'gpu'") != std::string::npos);
}

TEST_CASE("the same seed gives the same histogram", "[explore][random]") {
  Kernel k = kernel_from_text(kWriteReadXY);
  auto model = create_model("sc");
  const auto a = explore_random(*k.machine, *model, RandomOptions{5000, 42});
  const auto b = explore_random(*k.machine, *model, RandomOptions{5000, 42});
  const auto c = explore_random(*k.machine, *model, RandomOptions{5000, 43});
  CHECK(histogram(k.program(), a) == histogram(k.program(), b));
  CHECK(histogram(k.program(), a) != histogram(k.program(), c));
  for (size_t i = 0; i < a.outcomes.size(); ++i) CHECK(a.outcomes[i].witness.encode() == b.outcomes[i].witness.encode());
}

TEST_CASE("random executions of more decisions than the first piece of storage have witnesses that replay",
          "[explore][random][replay]") {
  // 512 threads of 200 stores each: about 100,000 decisions an execution, past the first 65,536
  // (random_search.cpp, Decisions), and the outcome is whichever thread stored last. Three
  // executions, so that the second and third reuse the pieces the first grew.
  Kernel k = kernel_from_text(R"(
//@ launch grid=2 block=256
//@ observe last
__device__ int last = -1;
__global__ void k() { for (int i = 0; i < 200; ++i) last = blockIdx.x * 256 + threadIdx.x; }
)");
  auto model = create_model("sc");
  const auto r = explore_random(*k.machine, *model, RandomOptions{3, 11});
  REQUIRE(r.executions == 3);
  REQUIRE_FALSE(r.outcomes.empty());
  for (const OutcomeCount& o : r.outcomes) CHECK(o.witness.choices.size() > 65536);
  check_witnesses_replay(k, *model, r);
}

TEST_CASE("random outcomes are a subset of exhaustive ones for every catalogue kernel explore finishes",
          "[explore][random][catalogue]") {
  std::map<std::string, size_t> finished;
  for (const std::string& file : catalogue_files()) {
    auto compiled = compile_text(read_source_text(file));
    if (compiled->program == nullptr) continue; // warp kernels, until warp support lands
    Machine machine(*compiled->program, {});
    for (const char* model_name : kModelNames) {
      auto model = create_model(model_name);
      const auto exhaustive =
          explore_exhaustive(machine, *model, ExhaustiveOptions{sweep_budget(*compiled->program, 5000)});
      if (!exhaustive.complete) continue;
      ++finished[model_name];
      const auto random = explore_random(machine, *model, RandomOptions{500, 7});
      const auto all = outcome_strings(*compiled->program, exhaustive);
      for (const std::string& outcome : outcome_strings(*compiled->program, random)) {
        INFO(file << " under " << model_name << ": random outcome " << outcome);
        CHECK(all.count(outcome) == 1);
      }
    }
  }
  // The catalogue has at least this many kernels small enough to explore fully, per model
  // (the litmus kernels among them).
  CHECK(finished["sc"] >= 50);
  CHECK(finished["tso"] >= 40);
  CHECK(finished["gpu"] >= 40);
}

TEST_CASE("a text report shows a short token whole and cuts a long one", "[replay]") {
  const ReplayToken short_token{"gpu", {1, 0, 2}};
  CHECK(short_token.display() == short_token.encode());
  std::vector<uint32_t> many;
  for (uint32_t i = 0; i < 5000; ++i) many.push_back(i % 3);
  const ReplayToken long_token{"gpu", many};
  const std::string shown = long_token.display();
  CHECK(shown.size() < 2 * ReplayToken::kDisplayLimit);
  CHECK(shown.find(fmt::format("a token of {} characters, 5000 decisions: --json prints it whole",
                               long_token.encode().size())) != std::string::npos);
  CHECK(shown.rfind(long_token.encode().substr(0, ReplayToken::kDisplayLimit / 2), 0) == 0);

  // The length a cut token reports is counted, not built: it must be the encoding's, whatever
  // its choices (one character, {N} of every width, runs of two, runs of 3 to thousands).
  std::mt19937 random(12);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> choices;
    while (ReplayToken{"sc", choices}.encode().size() < 3 * ReplayToken::kDisplayLimit) {
      const uint32_t widths[] = {9, 35, 36, 99, 1000, 100000, 4000000000u};
      const uint32_t choice = uint32_t(random() % (uint64_t(widths[random() % 7]) + 1));
      const uint32_t repeats[] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 9, 10, 11, 99, 100, 1234};
      choices.insert(choices.end(), repeats[random() % 18], choice);
    }
    const ReplayToken token{"sc", choices};
    INFO("round " << round);
    CHECK(token.display().find(fmt::format("a token of {} characters,", token.encode().size())) != std::string::npos);
  }
  // Every width's edges, as choices and as run lengths, past the part a report shows.
  std::vector<uint32_t> edges;
  for (uint32_t i = 0; i < 2 * ReplayToken::kDisplayLimit; ++i) edges.push_back(i % 2);
  for (uint64_t power = 10; power <= 1000000000; power *= 10) {
    for (const uint64_t value : {power - 1, power, power + 1}) {
      edges.push_back(uint32_t(value));
      edges.push_back(7);
      if (value <= 100000) edges.insert(edges.end(), size_t(value), 5); // a run of that length
      edges.push_back(8);
    }
  }
  edges.push_back(4294967295u);
  const ReplayToken edge_token{"sc", edges};
  CHECK(edge_token.display().find(fmt::format("a token of {} characters,", edge_token.encode().size())) !=
        std::string::npos);
}

TEST_CASE("replay tokens round-trip", "[replay]") {
  const std::vector<std::vector<uint32_t>> cases{
      {}, {0}, {1, 1}, {0, 0, 0, 0, 0}, {35, 36, 1000, 1000, 1000, 2}, {3, 3, 3, 1, 1, 1, 1, 7},
      {0, 0, 0, 0, 0, 1, 0, 0, 0}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 5}};
  for (const auto& choices : cases) {
    const ReplayToken token{"sc", choices};
    std::string error;
    const auto back = ReplayToken::decode(token.encode(), error);
    INFO(token.encode());
    REQUIRE(back);
    CHECK(back->model == "sc");
    CHECK(back->choices == choices);
  }
  CHECK(ReplayToken{"sc", {0, 0, 0, 0, 1}}.encode() == "sc:0[4]1");
  CHECK(ReplayToken{"sc", {0, 0, 0, 0, 0, 1, 0, 0, 0}}.encode() == "sc:0[5]10[3]");
  CHECK(ReplayToken{"gpu", {10, 40}}.encode() == "gpu:a{40}");
  ReplayToken awaited{"gpu", {0, 1}};
  awaited.awaits = true;
  CHECK(awaited.encode() == "gpu+awaits:01");
  std::string error;
  const auto back = ReplayToken::decode("gpu+awaits:01", error);
  REQUIRE(back);
  CHECK(back->model == "gpu");
  CHECK(back->awaits);
  CHECK_FALSE(ReplayToken::decode("gpu:01", error)->awaits);
  CHECK_FALSE(ReplayToken::decode("0101", error));
  CHECK_FALSE(ReplayToken::decode("sc:0{x}", error));
  CHECK_FALSE(ReplayToken::decode("sc:[3]", error));
  CHECK_FALSE(ReplayToken::decode("sc:0[1]", error));
  CHECK_FALSE(ReplayToken::decode("sc:0[3", error));
  CHECK_FALSE(ReplayToken::decode("sc:0!", error));
}

TEST_CASE("a SearchControl's time limit ends both explorers with the partial result", "[explore][control]") {
  // Six threads' atomics on one location, whose results they use: every order differs, so even
  // the reduced search is long (discarded results would commute: one execution).
  Kernel k = kernel_from_text("//@ launch grid=1 block=6\n//@ observe x\n__device__ int x;\n"
                              "__global__ void k() { for (int i = 0; i < 3; ++i) { int r = atomicAdd(&x, 1); } }\n");
  auto model = create_model("sc");
  std::vector<SearchProgress> seen;
  SearchControl::Options options;
  options.time_limit_seconds = 0.2;
  options.progress = [&seen](const SearchProgress& p) { seen.push_back(p); };
  options.progress_delay = 0.05;
  options.progress_interval = 0.02;
  SearchControl control(options);

  control.start_search();
  const ExplorationResult exhaustive =
      explore_exhaustive(*k.machine, *model, ExhaustiveOptions{100'000'000, nullptr, &control});
  control.end_search();
  CHECK_FALSE(exhaustive.complete);
  CHECK(exhaustive.stopped_because == "time limit of 0.2 s reached (--time-limit)");
  CHECK(exhaustive.executions > 0);
  CHECK(exhaustive.seconds < 2.0);
  REQUIRE(exhaustive.outcomes.size() == 1); // what it found so far, with counts and a witness
  CHECK(exhaustive.outcomes[0].executions == exhaustive.executions);
  // Progress: after the delay, at most once an interval, counting up, with the search depth.
  REQUIRE(seen.size() >= 2);
  CHECK(seen.size() <= 10);
  CHECK(seen.front().seconds >= 0.05);
  CHECK(seen.back().executions > seen.front().executions);
  CHECK(seen.back().depth > 0);

  control.start_search(); // the clock starts again for the next search
  const ExplorationResult random = explore_random(*k.machine, *model, RandomOptions{100'000'000, 1, 0.5, nullptr, &control});
  control.end_search();
  CHECK(random.stopped_because == "time limit of 0.2 s reached (--time-limit)");
  CHECK(random.executions > 0);
  CHECK(random.executions < 100'000'000);
}

TEST_CASE("a SearchControl's time limit ends a search inside one long execution", "[explore][control]") {
  // One execution is 2 x 10^8 stores (minutes): the limit must not wait for its end. Before,
  // the explorers asked only between executions (a real kernel's `check --time-limit 2` ran
  // 97 s).
  MachineOptions machine_options;
  machine_options.max_steps = 1'000'000'000;
  Kernel k = kernel_from_text("//@ launch grid=1 block=2\n__device__ int out[2];\n"
                              "__global__ void k() { for (int i = 0; i < 100000000; ++i) out[threadIdx.x] = i; }\n",
                              machine_options);
  auto model = create_model("sc");
  SearchControl::Options options;
  options.time_limit_seconds = 0.3;
  SearchControl control(options);
  const auto check_stopped = [](const ExplorationResult& r) {
    CHECK(r.stopped_because == "time limit of 0.3 s reached (--time-limit)");
    CHECK(r.executions == 0); // the unfinished execution is not counted
    CHECK(r.outcomes.empty());
    CHECK(r.seconds < 10.0);
  };
  for (const Reduction reduction : {Reduction::Dpor, Reduction::None}) {
    control.start_search();
    check_stopped(explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000, nullptr, &control, reduction}));
    control.end_search();
  }
  for (const uint32_t jobs : {1u, 2u}) {
    control.start_search();
    check_stopped(explore_random(*k.machine, *model, RandomOptions{1000, 1, 0.5, nullptr, &control, jobs}));
    control.end_search();
  }
}

TEST_CASE("a SearchControl that never fires changes nothing", "[explore][control]") {
  Kernel k = kernel_from_text(kWriteReadXY);
  auto model = create_model("sc");
  SearchControl control(SearchControl::Options{});
  control.start_search();
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000, nullptr, &control});
  control.end_search();
  CHECK(r.complete);
  CHECK(r.executions == explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000}).executions);
  CHECK(r.stopped_because.empty());
}

TEST_CASE("model_verdict: only a complete exhaustive search forbids, one cut short did not reach", "[explore][compare]") {
  ExplorationResult result;
  result.mode = ExplorationMode::Exhaustive;
  Outcome reached, other;
  reached.values = {2};
  other.values = {3};
  result.outcomes.push_back(OutcomeCount{reached, 1, {}, std::nullopt});
  result.complete = true;
  CHECK(model_verdict(result, reached) == ModelVerdict::Allowed);
  CHECK(model_verdict(result, other) == ModelVerdict::Forbidden);
  result.complete = false; // cut short: by --max-executions, --time-limit or Ctrl-C
  CHECK(model_verdict(result, other) == ModelVerdict::NotReached);
  CHECK(std::string(model_verdict_name(ModelVerdict::NotReached)) == "not reached");
  result.mode = ExplorationMode::Random;
  result.complete = true; // never true for random searches; a random search proves nothing absent
  CHECK(model_verdict(result, other) == ModelVerdict::NotReached);

}
