// Histogram: per-block counts in shared memory with shared atomics, merged globally.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BINS 4
//@ launch grid=2 block=2
//@ arg data: unsigned char[8] = {0, 1, 1, 3, 3, 3, 2, 1}
//@ arg hist: unsigned int[4] = 0
//@ arg n = 8
//@ observe hist
//@ expect all: exactly hist[0]=1 hist[1]=3 hist[2]=1 hist[3]=3

__global__ void histogram(const unsigned char* data, unsigned int* hist, int n) {
  __shared__ unsigned int local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  if (threadIdx.x + blockDim.x < BINS) local[threadIdx.x + blockDim.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&hist[b], local[b]);
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  unsigned char* d_data;
  CUDA_CHECK(cudaMalloc(&d_data, 8 * sizeof(unsigned char)));
  CUDA_CHECK(cudaMemset(d_data, 0, 8 * sizeof(unsigned char)));
  unsigned int* d_hist;
  CUDA_CHECK(cudaMalloc(&d_hist, 4 * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_hist, 0, 4 * sizeof(unsigned int)));
  histogram<<<2, 2>>>(d_data, d_hist, 8);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_hist));
  printf("done\n");
  return 0;
}
