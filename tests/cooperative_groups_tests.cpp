// Cooperative groups (CUDA Programming Guide, "Cooperative Groups"): each kernel run and checked
// for its exact outcome set or its diagnostic, and what lies outside the subset named.
#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "frontend_helpers.h"
#include "machine_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** Every outcome of the kernel under `model`, explored exhaustively. */
std::set<std::string> outcomes(const std::string& text, const std::string& model_name = "sc",
                               uint64_t max_executions = 2000) {
  Kernel k = kernel_from_text(text);
  auto model = create_model(model_name);
  const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{max_executions});
  REQUIRE(r.complete);
  return outcome_strings(k.program(), r);
}

/** The kinds and messages of what the checkers report under `model_name`. */
std::vector<std::pair<DiagnosticKind, std::string>> checked_reports(const std::string& text,
                                                                     const std::string& model_name = "sc") {
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  auto model = create_model(model_name);
  const ExplorationResult r = explore_checked(*k.machine, *model, checkers, CheckBudget{});
  std::vector<std::pair<DiagnosticKind, std::string>> reports;
  for (const ReportCount& report : r.reports) reports.emplace_back(report.report.kind, report.report.message);
  return reports;
}

/** The first line of each diagnostic compiling `text` gives (`k.cu:L:C: error: ...`). */
std::string compile_messages(const std::string& text) { return compile_text(text)->messages(); }

} // namespace

TEST_CASE("a block reduction over tiles of 32 with cg::reduce gives exactly the sum", "[frontend][language][cg]") {
  const std::string text = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=64
//@ arg in: int[64] = iota(1)
//@ arg out: int[1] = zeros
//@ observe out
__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[2];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int s = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  block.sync();
  if (block.thread_rank() == 0) out[0] = partial[0] + partial[1];
}
)";
  // 1 + 2 + ... + 64 = 2080, under every model: the block barrier orders the partial sums.
  for (const char* model : {"sc", "tso", "gpu"}) {
    INFO(model);
    CHECK(outcomes(text, model) == std::set<std::string>{"out[0]=2080"});
  }
  CHECK(checked_reports(text, "gpu").empty());
}

TEST_CASE("tile operations: shfl_down, ballot, any, ranks and meta groups, with `using namespace`",
          "[frontend][language][cg]") {
  CHECK(outcomes(R"(
#include <cooperative_groups.h>
using namespace cooperative_groups;
//@ launch grid=1 block=16
//@ arg out: int[8] = zeros
//@ observe out
__global__ void k(int* out) {
  thread_block block = this_thread_block();
  auto tile = tiled_partition(block, 4);
  int v = tile.thread_rank() + 1;
  for (int d = tile.num_threads() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = v + 10 * tile.meta_group_rank();
  unsigned even = tile.ballot(threadIdx.x % 2 == 0);
  if (threadIdx.x == 5) out[4] = even;                          // ranks 0 and 2 of tile 1: 0b0101
  int any3 = tile.any(threadIdx.x == 3), all_small = tile.all(threadIdx.x < 8);
  if (threadIdx.x == 2) out[5] = any3 * 10 + all_small;        // tile 0: 11
  int all_below_8 = tile.all(threadIdx.x < 8);
  if (threadIdx.x == 9) out[6] = all_below_8;                  // tile 2: 0
  if (threadIdx.x == 3) out[7] = block.group_index().x + block.thread_index().x + tile.meta_group_size() + block.size();
}
)") == std::set<std::string>{"out[0]=10 out[1]=20 out[2]=30 out[3]=40 out[4]=5 out[5]=11 out[6]=0 out[7]=23"});
}

TEST_CASE("tile.shfl reads the lane of the given rank within the tile, tiles of tiles rank within their parent",
          "[frontend][language][cg]") {
  CHECK(outcomes(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=32
//@ arg out: int[32] = zeros
//@ observe out[0:4] out[8:12]
__global__ void k(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(half);
  int from_last = half.shfl((int)threadIdx.x, 15);
  half.sync();
  cg::sync(eighth);
  out[threadIdx.x] = from_last * 100 + eighth.meta_group_rank() * 10 + eighth.meta_group_size();
}
)") == std::set<std::string>{"out[0]=1502 out[1]=1502 out[2]=1502 out[3]=1502 out[8]=1512 out[9]=1512 "
                                "out[10]=1512 out[11]=1512"});
}

TEST_CASE("a coalesced group holds the active lanes: ranks among them, size, and a broadcast from rank 0",
          "[frontend][language][cg]") {
  // Warp-aggregated atomics (Programming Guide, "Coalesced Groups"): one atomicAdd per group.
  const std::string text = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=8
//@ arg counter: int[1] = zeros
//@ arg out: int[8] = zeros
//@ observe counter out
__global__ void k(int* counter, int* out) {
  if (threadIdx.x % 2 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int prev = 0;
    if (active.thread_rank() == 0) prev = atomicAdd(&counter[0], active.size());
    prev = active.shfl(prev, 0);
    out[threadIdx.x] = prev + active.thread_rank() + 10 * active.size();
  }
}
)";
  const std::string together = "counter[0]=4 out[0]=40 out[1]=0 out[2]=41 out[3]=0 out[4]=42 out[5]=0 out[6]=43 out[7]=0";
  // Lockstep: the four even lanes reach coalesced_threads() together, one group of 4.
  {
    MachineOptions lockstep;
    lockstep.warp = WarpMode::Lockstep;
    Kernel k = kernel_from_text(text, lockstep);
    auto model = create_model("sc");
    ExhaustiveOptions options{20000};
    options.reduction = Reduction::None;
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, options);
    REQUIRE(r.complete);
    CHECK(outcome_strings(k.program(), r) == std::set<std::string>{together});
  }
  // Independent thread scheduling: the lanes that reach __activemask() together form the group.
  // Here no visible event precedes it, so the four even lanes are all waiting there when the
  // first is scheduled: the same single group, and the count is 4.
  CHECK(outcomes(text, "sc", 20000) == std::set<std::string>{together});
}

TEST_CASE("a thread_group parameter takes the group its calls pass", "[frontend][language][cg]") {
  // The Programming Guide's reduce_sum (Cooperative Groups, "Group Types"), over tiles of 4.
  CHECK(outcomes(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=8
//@ arg out: int[2] = zeros
//@ observe out
__device__ int reduce_sum(cg::thread_group g, int* temp, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) val += temp[lane + i];
    g.sync();
  }
  return val;
}
__global__ void k(int* out) {
  __shared__ int temp[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 4);
  int* my_temp = temp + (block.thread_rank() / 4) * 4;
  int sum = reduce_sum(tile, my_temp, threadIdx.x);
  if (tile.thread_rank() == 0) out[threadIdx.x / 4] = sum;
}
)", "sc", 20000) == std::set<std::string>{"out[0]=6 out[1]=22"});
}

TEST_CASE("typed group parameters, a template tile size, and cg::reduce with less and greater",
          "[frontend][language][cg]") {
  CHECK(outcomes(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=8
//@ template N=4
//@ arg in: int[8] = {5, 3, 9, 1, 7, 2, 8, 6}
//@ arg out: int[6] = zeros
//@ observe out
__device__ void extremes(const cg::thread_block& block, cg::thread_block_tile<4> tile, const int* in, int* out) {
  int v = in[block.thread_rank()];
  int low = cg::reduce(tile, v, cg::less<int>());
  int high = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) {
    out[tile.meta_group_rank() * 2] = low;
    out[tile.meta_group_rank() * 2 + 1] = high;
  }
  block.sync();
}
template <int N>
__global__ void k(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  extremes(block, tile, in, out);
  if (block.thread_rank() == 0) out[4] = out[0] + out[2];
  int pairs = cg::reduce(cg::tiled_partition<2>(block), 1, cg::plus<int>());
  if (block.thread_rank() == 1) out[5] = pairs;
}
)") == std::set<std::string>{"out[0]=1 out[1]=9 out[2]=2 out[3]=8 out[4]=3 out[5]=2"});
}

TEST_CASE("block.sync() under a condition some threads skip is barrier divergence", "[checkers][cg]") {
  const auto reports = checked_reports(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=1 block=32
__global__ void k() {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 16) block.sync();
}
)");
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].first == DiagnosticKind::BarrierDivergence);
}

TEST_CASE("this_grid().sync() orders every block's writes before every block's reads", "[checkers][cg]") {
  const std::string text = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=2 block=2
//@ arg data: int[4] = zeros
//@ arg out: int[4] = zeros
//@ observe out
__global__ void k(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = grid.thread_rank();
  data[i] = i + 1;
  grid.sync();
  out[i] = data[(i + 2) % grid.size()];
}
)";
  for (const char* model : {"sc", "gpu"}) {
    INFO(model);
    CHECK(outcomes(text, model, 100000) == std::set<std::string>{"out[0]=3 out[1]=4 out[2]=1 out[3]=2"});
    CHECK(checked_reports(text, model).empty());
  }
  // The grid barrier's counter is the runtime's: not observed by default.
  CHECK(compile_text(text)->program->observed.size() == 4);
}

TEST_CASE("a grid group's ranks, counts and indexes", "[frontend][language][cg]") {
  CHECK(outcomes(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=2 block=2
//@ arg out: int[4] = zeros
//@ observe out
__global__ void k(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1000 * grid.is_valid() + 100 * grid.block_rank() + 10 * grid.num_blocks() +
                            grid.dim_threads().x * grid.dim_blocks().x + grid.block_index().x + grid.thread_index().x;
}
)") == std::set<std::string>{"out[0]=1024 out[1]=1025 out[2]=1125 out[3]=1126"});
}

TEST_CASE("without the grid sync the same exchange between blocks is a race", "[checkers][cg]") {
  const auto reports = checked_reports(R"(
//@ launch grid=2 block=2
//@ arg data: int[4] = zeros
//@ arg out: int[4] = zeros
__global__ void k(int* data, int* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i + 1;
  __syncthreads();
  out[i] = data[(i + 2) % 4];
}
)");
  REQUIRE(!reports.empty());
  CHECK(reports[0].first == DiagnosticKind::DataRace);
}

TEST_CASE("a grid sync in a grid that cannot be co-resident is a deadlock that says so", "[checkers][cg]") {
  const auto reports = checked_reports(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
//@ launch grid=3 block=1 resident=2
//@ arg data: int[3] = zeros
__global__ void k(int* data) {
  data[blockIdx.x] = 1;
  cg::this_grid().sync();
}
)");
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].first == DiagnosticKind::Deadlock);
  CHECK_THAT(reports[0].second, Catch::Contains("the grid is not co-resident") &&
                                    Catch::Contains("cudaLaunchCooperativeKernel would refuse this launch"));
}

TEST_CASE("cooperative groups outside the subset are named as not supported, at their place", "[frontend][cg]") {
  CHECK(compile_messages(R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k() {
  cg::thread_block block = cg::this_thread_block();
  auto part = cg::labeled_partition(block, threadIdx.x % 2);
}
)") == "k.cu:5:19: error: not supported: cooperative_groups::labeled_partition\n");
  CHECK(compile_messages(R"(namespace cg = cooperative_groups;
__global__ void k() {
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, 0, 0, 4);
  cg::thread_block_tile<64> big = cg::tiled_partition<64>(block);
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned b = active.ballot(1);
  block.shfl(1, 0);
}
)") == "k.cu:4:7: error: not supported: cooperative_groups::memcpy_async\n"
        "k.cu:5:55: error: not supported: a tile of 64 threads (tiles of 1, 2, 4, 8, 16 or 32 threads)\n"
        "k.cu:7:23: error: not supported: cooperative_groups::coalesced_group::ballot\n"
        "k.cu:8:9: error: not supported: cooperative_groups::thread_block::shfl\n");
}

TEST_CASE("a broadcast from coalesced_threads() itself is refused: a second __activemask() could differ",
          "[frontend][cg]") {
  CHECK(compile_messages(R"(namespace cg = cooperative_groups;
__global__ void k() { int n = cg::coalesced_threads().size(); int v = cg::coalesced_threads().shfl(n, 0); }
)") == "k.cu:2:95: error: not supported: shfl on coalesced_threads() itself (declare the group first: "
        "cg::coalesced_group g = cg::coalesced_threads();)\n");
}

TEST_CASE("misused groups get a clear error, never a crash", "[frontend][cg]") {
  CHECK(compile_messages(R"(namespace cg = cooperative_groups;
__device__ void f(cg::thread_group g) { g.sync(); }
__global__ void k() {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<16>(block);
  int x = block;
  f(block);
  f(cg::tiled_partition<8>(block));
}
)") == "k.cu:5:36: error: cannot initialize a cooperative_groups::thread_block_tile<32> with a "
        "thread_block_tile<16>\n"
        "k.cu:6:11: error: 'block' is a cooperative group, not a value: call its member functions\n"
        "k.cu:8:5: error: not supported: passing different kinds of group (thread_block_tile<8> here, thread_block "
        "elsewhere) to the thread_group parameter 'g' of 'f' (each function's groups are resolved at compile "
        "time)\n");
}
