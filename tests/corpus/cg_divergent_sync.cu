// A bug: block.sync() called only by the threads of one branch (barrier divergence).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//@ launch grid=1 block=4
//@ arg out: int[4] = 0
//@ expect all: diagnostic barrier-divergence

__global__ void halves(int* out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 2) {
    out[block.thread_rank()] = 1;
    block.sync();
  } else {
    out[block.thread_rank()] = 2;
  }
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 4 * sizeof(int));
  halves<<<1, 4>>>(d_out);
  cudaDeviceSynchronize();
  cudaFree(d_out);
  return 0;
}
