// SAXPY, y = a*x + y, with a grid-stride loop.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=2 block=2
//@ arg n = 6
//@ arg a = 3
//@ arg x: float[6] = iota
//@ arg y: float[6] = 1
//@ observe y
//@ expect all: exactly y[0]=1 y[1]=4 y[2]=7 y[3]=10 y[4]=13 y[5]=16

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  float* d_x;
  CUDA_CHECK(cudaMalloc(&d_x, 1<<20 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_x, 0, 1<<20 * sizeof(float)));
  float* d_y;
  CUDA_CHECK(cudaMalloc(&d_y, 1<<20 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_y, 0, 1<<20 * sizeof(float)));
  saxpy<<<4096, 256>>>(1 << 20, 2.0f, d_x, d_y);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  printf("done\n");
  return 0;
}
