// A file with two kernels: the directive picks the second.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ kernel scale
//@ launch grid=1 block=3
//@ arg v: int[3] = {1, 2, 3}
//@ arg factor = 10
//@ observe v
//@ expect all: exactly v[0]=10 v[1]=20 v[2]=30

__global__ void fill(int* v, int value) { v[threadIdx.x] = value; }
__global__ void scale(int* v, int factor) { v[threadIdx.x] *= factor; }

static void run_all(int* d_v) {
  fill<<<1, 3>>>(d_v, 1);
  scale<<<1, 3>>>(d_v, 10);
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_v;
  CUDA_CHECK(cudaMalloc(&d_v, 3 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_v, 0, 3 * sizeof(int)));
  run_all(d_v);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_v));
  printf("done\n");
  return 0;
}
