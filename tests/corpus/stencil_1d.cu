// 1D stencil of radius 1 with a halo in shared memory.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define RADIUS 1
#define BLOCK 4
//@ launch grid=1 block=4
//@ arg in: int[6] = {1, 2, 3, 4, 5, 6}
//@ arg out: int[4] = 0
//@ observe out
//@ expect all: exactly out[0]=6 out[1]=9 out[2]=12 out[3]=15

__global__ void stencil_1d(const int* in, int* out) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int gindex = threadIdx.x + blockIdx.x * blockDim.x + RADIUS;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = in[gindex];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex - RADIUS];
    temp[lindex + BLOCK] = in[gindex + BLOCK];
  }
  __syncthreads();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  out[gindex - RADIUS] = result;
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 6 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 6 * sizeof(int)));
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, 4 * sizeof(int)));
  stencil_1d<<<1, BLOCK>>>(d_in, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
