// Configuration through typedefs, an enum, function-like macros and #ifdef.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

typedef unsigned int uint;
enum Op { OP_ADD, OP_MAX };
#define IDX(row, col, width) ((row) * (width) + (col))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#ifndef OPERATION
#define OPERATION OP_MAX
#endif

//@ launch grid=1 block=(2,2)
//@ arg m: int[4] = {4, 9, 2, 5}
//@ arg out: int[2] = 0
//@ observe out
//@ expect all: exactly out[0]=9 out[1]=5

__global__ void rowop(const int* m, int* out) {
  uint row = threadIdx.y, col = threadIdx.x;
  if (col == 0) {
    int v = m[IDX(row, 0, 2)];
#if OPERATION == OP_MAX
    v = MAX(v, m[IDX(row, 1, 2)]);
#else
    v = v + m[IDX(row, 1, 2)];
#endif
    out[row] = v;
  }
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_m;
  CUDA_CHECK(cudaMalloc(&d_m, 4 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_m, 0, 4 * sizeof(int)));
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, 2 * sizeof(int)));
  rowop<<<1, dim3(2, 2)>>>(d_m, d_out);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_m));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
