// SAXPY with float4 loads and stores: four elements a thread.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=2
//@ arg n4 = 2
//@ arg a = 2
//@ arg x: float4[2] = {1, 2, 3, 4, 5, 6, 7, 8}
//@ arg y: float4[2] = 1
//@ observe y
//@ expect all: exactly y[0]=3 y[1]=5 y[2]=7 y[3]=9 y[4]=11 y[5]=13 y[6]=15 y[7]=17

__global__ void saxpy4(int n4, float a, const float4* x, float4* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 xv = x[i];
  float4 yv = y[i];
  yv.x = a * xv.x + yv.x;
  yv.y = a * xv.y + yv.y;
  yv.z = a * xv.z + yv.z;
  yv.w = a * xv.w + yv.w;
  y[i] = yv;
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
  saxpy4<<<1024, 256>>>(1 << 18, 2.0f, (float4*)d_x, (float4*)d_y);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  printf("done\n");
  return 0;
}
