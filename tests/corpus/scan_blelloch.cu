// Exclusive scan, Blelloch work-efficient (up-sweep, clear, down-sweep).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=2
//@ arg in: int[4] = {3, 1, 7, 0}
//@ arg out: int[4] = 0
//@ arg n = 4
//@ observe out
//@ expect all: exactly out[0]=0 out[1]=3 out[2]=4 out[3]=11

__global__ void prescan(int* out, const int* in, int n) {
  __shared__ int temp[4];
  int thid = threadIdx.x, offset = 1;
  temp[2 * thid] = in[2 * thid];
  temp[2 * thid + 1] = in[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[2 * thid] = temp[2 * thid];
  out[2 * thid + 1] = temp[2 * thid + 1];
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
  prescan<<<1, 2>>>(d_out, d_in, 4);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
