// Warp-aggregated atomic increment: one atomicAdd per warp, each lane gets its own slot.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=4
//@ arg src: int[4] = {5, -1, 7, 9}
//@ arg dst: int[4] = 0
//@ observe count
//@ expect all: exactly count=3

__device__ int count = 0;

__device__ int atomicAggInc(int* ctr) {
  unsigned int active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x & 31;
  int res = 0;
  if (lane == leader) res = atomicAdd(ctr, __popc(active));
  res = __shfl_sync(active, res, leader);
  return res + __popc(active & ((1u << lane) - 1));
}

__global__ void filter_positive(const int* src, int* dst) {
  int v = src[threadIdx.x];
  if (v > 0) dst[atomicAggInc(&count)] = v;
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_src;
  CUDA_CHECK(cudaMalloc(&d_src, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_src, 0, 4 * sizeof(int)));
  int* d_dst;
  CUDA_CHECK(cudaMalloc(&d_dst, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_dst, 0, 4 * sizeof(int)));
  filter_positive<<<1, 4>>>(d_src, d_dst);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_dst));
  printf("done\n");
  return 0;
}
