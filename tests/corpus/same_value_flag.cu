// Every thread writes 1 to the same 'found' flag: a same-value race, a lesser finding.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=4
//@ arg data: int[4] = {0, 7, 0, 7}
//@ observe found
//@ expect all: exactly found=1
//@ expect all: diagnostic same-value-race

__device__ int found = 0;

__global__ void any_seven(const int* data) {
  if (data[threadIdx.x] == 7) found = 1;
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_data;
  CUDA_CHECK(cudaMalloc(&d_data, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_data, 0, 4 * sizeof(int)));
  any_seven<<<1, 4>>>(d_data);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_data));
  printf("done\n");
  return 0;
}
