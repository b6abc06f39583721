// The same producer/consumer with a plain flag and no fences: a data race, and under the
// gpu model the consumer may read stale data.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=2 block=1
//@ observe r0 r1
//@ expect sc: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int data = 0;
__device__ int flag = 0;
__device__ int r0 = -1, r1 = -1;

__global__ void mp() {
  if (blockIdx.x == 0) {
    data = 1;
    flag = 1;
  } else {
    r0 = flag;
    r1 = data;
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  mp<<<2, 1>>>();
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
