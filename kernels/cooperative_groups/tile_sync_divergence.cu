// tile_sync_divergence: block.sync() reached by half of the block only.
//
// Source: CUDA C++ Programming Guide, "Cooperative Groups" ("Thread Block Group": sync() is
// __syncthreads(), which "is allowed in conditional code but only if the conditional evaluates
// identically across the entire thread block", 10.6), written for the catalogue by fencelab.
// Teaches: a group's sync must be reached by every thread of the group; here the threads of
// the second tile skip it and exit.
// Status: BUGGY (barrier divergence).
// Launch: one block of 32.
//
// Weak models: the same divergence under every model.
//
//@ launch grid=1 block=32
//@ arg out: int[32] = zeros
//@ expect all: diagnostic barrier-divergence

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sync_divergence(int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    out[block.thread_rank()] = tile.meta_group_rank();
    if (tile.meta_group_rank() == 0) block.sync();
}
