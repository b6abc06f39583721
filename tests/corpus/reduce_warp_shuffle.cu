// Sum with warp shuffles over a group of 8 lanes (width 8): each group reduces in registers,
// its lane 0 adds the result atomically.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=8
//@ arg in: int[8] = iota
//@ arg total: int[1] = 0
//@ observe total
//@ expect all: exactly total[0]=28

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = 4; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xff, val, offset, 8);
  return val;
}

__global__ void sumKernel(const int* in, int* total) {
  int sum = in[blockIdx.x * blockDim.x + threadIdx.x];
  sum = warpReduceSum(sum);
  if ((threadIdx.x & 7) == 0) atomicAdd(total, sum);
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 8 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 8 * sizeof(int)));
  int* d_total;
  CUDA_CHECK(cudaMalloc(&d_total, 1 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_total, 0, 1 * sizeof(int)));
  sumKernel<<<1, 8>>>(d_in, d_total);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_total));
  printf("done\n");
  return 0;
}
