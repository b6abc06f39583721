// grid_sync_exchange: every thread writes its element, the grid synchronizes, and every thread
// reads an element another block wrote.
//
// Source: CUDA C++ Programming Guide, "Cooperative Groups" ("Grid Synchronization",
// `grid.sync()`), written for the catalogue by fencelab in the Guide's style.
// Teaches: this_grid().sync() is a barrier for the whole grid: what any thread wrote before it
// is visible to every thread after it. __syncthreads() would order only the block's own threads
// (the same exchange with it is a data race). It needs a cooperative launch, in which every
// block is resident at once (see grid_sync_not_coresident.cu).
// Status: correct.
// Launch: 2 blocks of 2; thread i reads the element of thread (i + 2) % 4, in the other block.
//
// Weak models: tso and gpu give the same outcome: fencelab runs grid.sync() as the runtime's
// barrier in global memory (a device-scope fence before each block's arrival and after its
// departure, __syncthreads() around), which orders the writes before the reads under every model.
//
//@ launch grid=2 block=2
//@ arg data: int[4] = zeros
//@ arg out: int[4] = zeros
//@ observe out
//@ expect all: exactly out[0]=3 out[1]=4 out[2]=1 out[3]=2
//@ expect all: no diagnostics

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync_exchange(int* data, int* out) {
    cg::grid_group grid = cg::this_grid();
    unsigned i = grid.thread_rank();
    data[i] = i + 1;
    grid.sync();
    out[i] = data[(i + 2) % grid.size()];
}
