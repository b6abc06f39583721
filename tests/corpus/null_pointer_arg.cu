// An optional output: the kernel checks its pointer against NULL.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=2
//@ arg in: int[2] = {3, 4}
//@ arg squares = NULL
//@ arg sum: int[1] = 0
//@ observe sum
//@ expect all: exactly sum[0]=7

__global__ void process(const int* in, int* squares, int* sum) {
  int v = in[threadIdx.x];
  if (squares != NULL) squares[threadIdx.x] = v * v;
  atomicAdd(sum, v);
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 2 * sizeof(int)));
  int* d_sum;
  CUDA_CHECK(cudaMalloc(&d_sum, 1 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_sum, 0, 1 * sizeof(int)));
  process<<<1, 2>>>(d_in, nullptr, d_sum);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_sum));
  printf("done\n");
  return 0;
}
