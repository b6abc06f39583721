// Reduction templated on the element type and the block size, last warp unrolled
// through a volatile pointer (the shape of the classic reduction kernel 5). Subtly wrong
// since Volta: the unrolled steps assume the warp's lanes run in lockstep, but with
// independent thread scheduling a lane may read its neighbour's slot before the neighbour
// wrote it; each step needs __syncwarp(). The volatile accesses are relaxed ones in the
// PTX model, so this is no data race, but many sums besides 18 are reachable.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ template blockSize=8
//@ launch grid=1 block=8
//@ arg g_in: float[8] = {0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4}
//@ arg g_out: float[1] = 0
//@ observe g_out
//@ expect sc: reachable g_out[0]=18
//@ expect sc: reachable g_out[0]=5.5

template <class T>
__device__ void warpReduce(volatile T* sdata, unsigned int tid, unsigned int n) {
  if (n >= 8) sdata[tid] += sdata[tid + 4];
  if (n >= 4) sdata[tid] += sdata[tid + 2];
  if (n >= 2) sdata[tid] += sdata[tid + 1];
}

template <class T, unsigned int blockSize>
__global__ void reduce5(const T* g_in, T* g_out) {
  __shared__ T sdata[blockSize];
  unsigned int tid = threadIdx.x;
  sdata[tid] = g_in[blockIdx.x * blockSize + tid];
  __syncthreads();
  if (tid < 4) warpReduce(sdata, tid, blockSize);
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  float* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 8 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_in, 0, 8 * sizeof(float)));
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 1 * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_out, 0, 1 * sizeof(float)));
  reduce5<float, 8><<<1, 8>>>(d_in, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
