// Dot product: a shared-memory reduction per block, then each block adds its sum under
// a lock built from atomicCAS (CUDA by Example, chapter A.1).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 4
//@ launch grid=2 block=4
//@ arg a: float[8] = {1, 1, 1, 1, 2, 2, 2, 2}
//@ arg b: float[8] = {1, 2, 3, 4, 1, 2, 3, 4}
//@ arg c: float[1] = 0
//@ arg n = 8
//@ observe c
//@ expect all: exactly c[0]=30

__device__ int lock_state = 0;

__global__ void dot(const float* a, const float* b, float* c, int n) {
  __shared__ float cache[THREADS];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  float temp = 0;
  while (tid < n) { temp += a[tid] * b[tid]; tid += blockDim.x * gridDim.x; }
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (int i = blockDim.x / 2; i != 0; i /= 2) {
    if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    while (atomicCAS(&lock_state, 0, 1) != 0) {}
    __threadfence();
    *c += cache[0];
    __threadfence();
    atomicExch(&lock_state, 0);
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  float* d_a;
  CUDA_CHECK(cudaMalloc(&d_a, 8 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_a, 0, 8 * sizeof(float)));
  float* d_b;
  CUDA_CHECK(cudaMalloc(&d_b, 8 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_b, 0, 8 * sizeof(float)));
  float* d_c;
  CUDA_CHECK(cudaMalloc(&d_c, 1 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_c, 0, 1 * sizeof(float)));
  dot<<<2, THREADS>>>(d_a, d_b, d_c, 8);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  printf("done\n");
  return 0;
}
