// grid_sync_not_coresident: this_grid().sync() in a grid larger than what can be resident.
//
// Source: CUDA C++ Programming Guide, "Cooperative Groups" ("Grid Synchronization": the grid
// must be launched with cudaLaunchCooperativeKernel, which fails when the blocks cannot all be
// resident), written for the catalogue by fencelab.
// Teaches: a grid barrier waits for every block; a block that is not resident starts only when
// a resident one finishes, and the resident ones never finish. On hardware the cooperative
// launch is refused; fencelab runs it and reports the deadlock, saying the grid is not
// co-resident (compare interblock/grid_barrier_oversubscribed.cu, the hand-made barrier).
// Status: BUGGY (launch shape: 3 blocks, at most 2 resident).
// Launch: 3 blocks of 1 thread, `resident=2`. With `--resident-blocks 3` it completes.
//
// Weak models: the same deadlock under every model.
//
//@ launch grid=3 block=1 resident=2
//@ arg data: int[3] = zeros
//@ expect all: diagnostic deadlock

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync_not_coresident(int* data) {
    data[blockIdx.x] = 1;
    cg::this_grid().sync();
    data[blockIdx.x] += data[(blockIdx.x + 1) % gridDim.x];
}
