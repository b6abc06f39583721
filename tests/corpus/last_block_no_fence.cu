// The same last-block sum without __threadfence(): the last block may read a stale
// partial sum.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=2 block=1
//@ arg partial: int[2] = 0
//@ arg result: int[1] = 0
//@ observe result
//@ expect sc: exactly result[0]=3
//@ expect gpu: exactly result[0]=3 | result[0]=1 | result[0]=2
//@ expect all: diagnostic data-race

__device__ unsigned int count = 0;

__global__ void sum(int* partial, int* result) {
  partial[blockIdx.x] = blockIdx.x + 1;
  unsigned int ticket = atomicAdd(&count, 1);
  if (ticket == gridDim.x - 1) result[0] = partial[0] + partial[1];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_partial;
  CUDA_CHECK(cudaMalloc(&d_partial, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_partial, 0, 2 * sizeof(int)));
  int* d_result;
  CUDA_CHECK(cudaMalloc(&d_result, 1 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_result, 0, 1 * sizeof(int)));
  sum<<<2, 1>>>(d_partial, d_result);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_result));
  printf("done\n");
  return 0;
}
