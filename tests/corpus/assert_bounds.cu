// A device assert that fails: the index computed from the block size overruns the table.
#include <cassert>
#include <cstdio>

//@ launch grid=1 block=4
//@ arg table: int[3] = {7, 8, 9}
//@ arg out: int[4] = 0
//@ arg size = 3
//@ expect all: diagnostic assertion-failed

__global__ void lookup(const int* table, int* out, int size) {
  int i = threadIdx.x;
  assert(i < size);
  out[i] = table[i];
}

int main() {
  int *d_table, *d_out;
  cudaMalloc(&d_table, 3 * sizeof(int));
  cudaMalloc(&d_out, 4 * sizeof(int));
  lookup<<<1, 4>>>(d_table, d_out, 3);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) printf("assertion: %s\n", cudaGetErrorString(err));
  return 0;
}
