// A global spin lock (CUDA by Example style): atomicCAS to take it, atomicExch to give
// it back, with fences around the critical section.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=2 block=1
//@ observe total
//@ expect all: exactly total=2

__device__ int mutex = 0;
__device__ int total = 0;

__device__ void lock(int* m) { while (atomicCAS(m, 0, 1) != 0) {} __threadfence(); }
__device__ void unlock(int* m) { __threadfence(); atomicExch(m, 0); }

__global__ void count_blocks() {
  if (threadIdx.x == 0) {
    lock(&mutex);
    total = total + 1;
    unlock(&mutex);
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  count_blocks<<<2, 1>>>();
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
