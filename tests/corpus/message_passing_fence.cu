// Producer/consumer between two blocks through a flag, with fences: the consumer never
// sees the flag without the data.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=2 block=1
//@ observe r
//@ expect all: exactly r=42

__device__ int data = 0;
__device__ volatile int flag = 0;
__device__ int r = -1;

__global__ void producer_consumer() {
  if (blockIdx.x == 0) {
    data = 42;
    __threadfence();
    flag = 1;
  } else {
    while (flag == 0) {}
    __threadfence();
    r = data;
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  producer_consumer<<<2, 1>>>();
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
