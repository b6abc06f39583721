// The corpus (issue 13): whole .cu files as users have them, host code included, each run with
// its directives alone. For every file the table states what `explore` (under sc, with the
// file's small launch), `check` and `run` give: exit code, and text the output must hold (an
// outcome, or the diagnostic found). tests/corpus/README.md says what each file is.
#include "process_helpers.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace {

struct CorpusCase {
  const char* file;
  int explore_code;
  const char* explore_shows; ///< in `explore --model sc`'s output; also: no expectation FAILS
  int check_code;
  const char* check_shows;   ///< in `check`'s output
  const char* run_shows;     ///< in `run --runs 100 --seed 1`'s output (exit 0, or 1 where an
                             ///< expectation only an exhaustive search proves stays unproven)
};

constexpr const char* kClean = "summary: 0 errors, 0 warnings";

// clang-format off
const CorpusCase kCases[] = {
  {"vector_add.cu", 0, "c[0]=11 c[1]=22 c[2]=33 c[3]=44 c[4]=55 c[5]=66", 0, kClean, "c[0]=11 c[1]=22"},
  {"saxpy.cu", 0, "y[0]=1 y[1]=4 y[2]=7 y[3]=10 y[4]=13 y[5]=16", 0, kClean, "y[5]=16"},
  {"half_saxpy.cu", 0, "y[0]=1 y[1]=3 y[2]=5 y[3]=7 y[4]=2048 y[5]=0.75", 0, kClean, "y[4]=2048"},
  {"saxpy_float4.cu", 0, "y[0]=3 y[1]=5 y[2]=7 y[3]=9 y[4]=11 y[5]=13 y[6]=15 y[7]=17", 0, kClean, "y[7]=17"},
  {"transpose_tiled.cu", 0, "out[0]=0 out[1]=4 out[2]=8 out[3]=12 out[4]=1", 0, kClean, "out[15]=15"},
  {"matmul_tiled.cu", 0, "C[0]=19 C[1]=22 C[2]=43 C[3]=50", 0, kClean, "C[0]=19 C[1]=22 C[2]=43 C[3]=50"},
  {"matmul_missing_sync.cu", 0, "holds    line 13: expect all: diagnostic data-race", 0,
   "summary: 2 errors, 0 warnings (2 data-race)", "data race"},
  {"reduce_interleaved.cu", 0, "g_out[0]=28", 0, kClean, "g_out[0]=28"},
  {"reduce_sequential.cu", 0, "g_out[0]=36", 0, kClean, "g_out[0]=36"},
  {"reduce_templated.cu", 0, "g_out[0]=5.5", 1, kClean, "g_out[0]="}, // check samples: inconclusive
  {"reduce_warp_shuffle.cu", 0, "total[0]=28", 0, kClean, "total[0]=28"},
  {"threadfence_reduction.cu", 0, "result[0]=21", 0, "summary: 1 error, 0 warnings (1 data-race)", "result[0]="},
  {"last_block_no_fence.cu", 0, "result[0]=3", 0, "summary: 2 errors, 0 warnings (2 data-race)", "result[0]="},
  {"scan_kogge_stone.cu", 0, "out[0]=1 out[1]=3 out[2]=6 out[3]=10", 0, kClean, "out[3]=10"},
  {"scan_blelloch.cu", 0, "out[0]=0 out[1]=3 out[2]=4 out[3]=11", 0, kClean, "out[3]=11"},
  {"histogram_shared.cu", 0, "hist[0]=1 hist[1]=3 hist[2]=1 hist[3]=3", 0, kClean, "hist[3]=3"},
  {"stencil_1d.cu", 0, "out[0]=6 out[1]=9 out[2]=12 out[3]=15", 0, kClean, "out[3]=15"},
  {"bitonic_step.cu", 0, "values[0]=1 values[1]=3 values[2]=4 values[3]=2", 0, kClean, "values[0]=1"},
  {"spin_lock.cu", 0, "total=2", 0, kClean, "total=2"},
  {"dot_product_lock.cu", 0, "c[0]=30", 0, kClean, "c[0]=30"},
  {"warp_aggregated_atomics.cu", 0, "count=3", 0, kClean, "count=3"},
  {"message_passing_fence.cu", 0, "r=42", 0, kClean, "r=42"},
  {"message_passing_race.cu", 0, "holds    line 11: expect all: diagnostic data-race", 0,
   "summary: 2 errors, 0 warnings (2 data-race)", "data race"},
  {"cg_block_reduce.cu", 0, "out[0]=36", 0, kClean, "out[0]=36"},
  {"cg_divergent_sync.cu", 0, "holds    line 7: expect all: diagnostic barrier-divergence", 0,
   "summary: 1 error, 0 warnings (1 barrier-divergence)", "barrier divergence"},
  {"cg_grid_sync_too_big.cu", 0, "the grid is not co-resident, so its grid sync can never complete", 0,
   "summary: 1 error, 0 warnings (1 deadlock)", "deadlock"},
  {"assert_bounds.cu", 0, "runtime error: assertion failed", 0, "summary: 1 error, 0 warnings (1 assertion-failed)",
   "assertion failed"},
  {"typedef_enum_macros.cu", 0, "out[0]=9 out[1]=5", 0, kClean, "out[0]=9 out[1]=5"},
  {"two_kernels_pick.cu", 0, "v[0]=10 v[1]=20 v[2]=30", 0, kClean, "v[0]=10 v[1]=20 v[2]=30"},
  {"same_value_flag.cu", 0, "found=1", 0, "summary: 0 errors, 1 warning (1 same-value-race)", "found=1"},
  {"null_pointer_arg.cu", 0, "sum[0]=7", 0, kClean, "sum[0]=7"},
  {"lock_struct_dot.cu", 0, "c[0]=30", 0, kClean, "c[0]=30"},
  {"matmul_struct.cu", 0, "C.elements[12]=13 C.elements[13]=28", 0, kClean, "C.elements[13]=28"},
  {"reduce_shared_memory_template.cu", 0, "g_odata[0]=36", 0, kClean, "g_odata[0]=36"},
  {"reduce_shared_memory_getpointer.cu", 0, "g_odata[0]=10 g_odata[1]=4", 0, kClean, "g_odata[0]=10 g_odata[1]=4"},
};
// clang-format on

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

fencelab::testing::ProcessResult fencelab_on(const std::string& arguments, const std::string& file) {
  const std::string path = std::string(FENCELAB_SOURCE_DIR) + "/tests/corpus/" + file;
  // stderr too: the host-code note and the diagnostics go there.
  return fencelab::testing::run_process(std::string(FENCELAB_BINARY) + " " + arguments + " " + path);
}

} // namespace

TEST_CASE("the corpus: every whole .cu file runs with its directives alone, as the table states", "[corpus]") {
  size_t files_on_disk = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FENCELAB_SOURCE_DIR) + "/tests/corpus"))
    if (entry.path().extension() == ".cu") ++files_on_disk;
  CHECK(files_on_disk >= 25);
  CHECK(files_on_disk == std::size(kCases)); // every file is in the table
  for (const CorpusCase& c : kCases) {
    INFO(c.file);
    const auto explored = fencelab_on("explore --model sc", c.file);
    INFO("explore:\n" << explored.output);
    CHECK(explored.exit_code == c.explore_code);
    CHECK(contains(explored.output, "note: host code skipped"));
    CHECK(contains(explored.output, c.explore_shows));
    CHECK(!contains(explored.output, "cut short")); // a complete search: its verdicts are proofs
    CHECK(!contains(explored.output, "FAILS"));
    const auto checked = fencelab_on("check", c.file);
    INFO("check:\n" << checked.output);
    CHECK(checked.exit_code == c.check_code);
    CHECK(contains(checked.output, c.check_shows));
    const auto ran = fencelab_on("run --runs 100 --seed 1", c.file);
    INFO("run:\n" << ran.output);
    CHECK((ran.exit_code == 0 || ran.exit_code == 1));
    CHECK(contains(ran.output, c.run_shows));
  }
}
