// Block reduction with cooperative groups: thread_block sync and a tile's cg::reduce.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

//@ launch grid=1 block=8
//@ arg in: int[8] = iota(1)
//@ arg out: int[1] = 0
//@ observe out
//@ expect all: exactly out[0]=36

__global__ void block_sum(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[2];
  cg::thread_block_tile<4> tile = cg::tiled_partition<4>(block);
  int v = in[block.thread_rank()];
  int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  block.sync();
  if (block.thread_rank() == 0) out[0] = partial[0] + partial[1];
}

int main() {
  int *d_in, *d_out;
  cudaMalloc(&d_in, 8 * sizeof(int));
  cudaMalloc(&d_out, sizeof(int));
  block_sum<<<1, 8>>>(d_in, d_out);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
