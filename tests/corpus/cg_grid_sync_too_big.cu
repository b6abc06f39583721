// A grid-wide sync in a grid larger than can be resident at once: the resident blocks
// wait forever for blocks that cannot start (cudaLaunchCooperativeKernel would refuse it).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//@ launch grid=3 block=1 resident=2
//@ arg out: int[3] = 0
//@ expect all: diagnostic deadlock

__global__ void two_phase(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[blockIdx.x] = 1;
  grid.sync();
  out[blockIdx.x] += out[(blockIdx.x + 1) % gridDim.x];
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 3 * sizeof(int));
  void* args[] = {&d_out};
  cudaLaunchCooperativeKernel((void*)two_phase, 3, 1, args);
  cudaDeviceSynchronize();
  cudaFree(d_out);
  return 0;
}
