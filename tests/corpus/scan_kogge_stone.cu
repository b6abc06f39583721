// Inclusive scan, Kogge-Stone, double-buffered in shared memory.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=4
//@ arg in: int[4] = {1, 2, 3, 4}
//@ arg out: int[4] = 0
//@ observe out
//@ expect all: exactly out[0]=1 out[1]=3 out[2]=6 out[3]=10

__global__ void scan(const int* in, int* out) {
  __shared__ int buf[2][4];
  int tid = threadIdx.x, pout = 0, pin = 1;
  buf[pout][tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset) buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else buf[pout][tid] = buf[pin][tid];
    __syncthreads();
  }
  out[tid] = buf[pout][tid];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 4 * sizeof(int)));
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, 4 * sizeof(int)));
  scan<<<1, 4>>>(d_in, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
