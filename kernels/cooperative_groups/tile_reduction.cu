// tile_reduction: a block's sum with cooperative groups: each tile of 8 reduces its values with
// cg::reduce, its first thread stores the tile's sum, and after block.sync() thread 0 adds them.
//
// Source: CUDA C++ Programming Guide, "Cooperative Groups" ("Group Collectives": reduce;
// "Thread Block Tile"), written for the catalogue by fencelab in the Guide's style.
// Teaches: cg::reduce gives every thread of the tile the tile's sum (a shfl_xor butterfly, each
// shuffle a warp operation over the tile's lanes); the partial sums are shared-memory stores
// made visible to thread 0 by block.sync(), which is __syncthreads().
// Status: correct.
// Launch: one block of 16 (two tiles of 8), input 1..16: sum 136.
//
// Lockstep warps (--warp lockstep) give the same sum.
// Weak models: tso and gpu give the same sum: the barrier drains buffers and joins views (Guide
// 10.6); the shuffles exchange registers, not memory.
//
//@ launch grid=1 block=16
//@ arg in: int[16] = iota(1)
//@ arg out: int[1] = zeros
//@ observe out
//@ expect all: exactly out[0]=136
//@ expect all: no diagnostics
//@ expect all/lockstep: exactly out[0]=136
//@ expect all/lockstep: no diagnostics

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reduction(const int* in, int* out) {
    __shared__ int partial[2];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);

    int sum = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
    if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = sum;
    block.sync();

    if (block.thread_rank() == 0) out[0] = partial[0] + partial[1];
}
