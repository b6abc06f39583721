// The last block done sums the partial sums (threadFenceReduction): each block stores its
// partial sum, fences, and takes a ticket; the block with the last ticket adds them up.
// Subtly wrong as written (like the sample): the last block reads the partial sums with no
// fence after its ticket, so under the PTX model nothing orders those reads after the other
// blocks' writes: a data race, and under the gpu model the last block can add up stale
// partial sums (sc and tso always give 21).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=3 block=2
//@ arg in: int[6] = {1, 2, 3, 4, 5, 6}
//@ arg partial: int[3] = 0
//@ arg result: int[1] = 0
//@ observe result
//@ expect sc,tso: exactly result[0]=21
//@ expect gpu: reachable result[0]=21
//@ expect gpu: reachable result[0]=18
//@ expect all: diagnostic data-race

__device__ unsigned int count = 0;

__global__ void sum(const int* in, int* partial, int* result) {
  __shared__ bool amLast;
  __shared__ int s[2];
  s[threadIdx.x] = in[blockIdx.x * 2 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0] + s[1];
    __threadfence();
    unsigned int ticket = atomicInc(&count, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && threadIdx.x == 0) {
    int total = 0;
    for (int i = 0; i < gridDim.x; ++i) total += partial[i];
    result[0] = total;
    count = 0;
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 6 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 6 * sizeof(int)));
  int* d_partial;
  CUDA_CHECK(cudaMalloc(&d_partial, 3 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_partial, 0, 3 * sizeof(int)));
  int* d_result;
  CUDA_CHECK(cudaMalloc(&d_result, 1 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_result, 0, 1 * sizeof(int)));
  sum<<<3, 2>>>(d_in, d_partial, d_result);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_result));
  printf("done\n");
  return 0;
}
