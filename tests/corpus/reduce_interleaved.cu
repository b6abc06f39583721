// Shared-memory reduction, interleaved addressing (the first kernel of the classic talk).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=8 shared=32
//@ arg g_in: int[8] = iota
//@ arg g_out: int[1] = 0
//@ observe g_out
//@ expect all: exactly g_out[0]=28

__global__ void reduce0(const int* g_in, int* g_out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = g_in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 1<<18 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 1<<18 * sizeof(int)));
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 1024 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, 1024 * sizeof(int)));
  reduce0<<<1024, 256, 256 * sizeof(int)>>>(d_in, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
