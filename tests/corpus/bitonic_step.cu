// One bitonic sort step per launch (the host loops over j and k, as in the samples).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

//@ launch grid=1 block=4
//@ arg values: int[4] = {3, 1, 4, 2}
//@ arg j = 1
//@ arg k = 2
//@ observe values
//@ expect all: exactly values[0]=1 values[1]=3 values[2]=4 values[3]=2

__device__ void swap_if(int* values, int i, int ixj, bool ascending) {
  if ((values[i] > values[ixj]) == ascending) {
    int t = values[i];
    values[i] = values[ixj];
    values[ixj] = t;
  }
}

__global__ void bitonic_sort_step(int* values, int j, int k) {
  unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned int ixj = i ^ j;
  if (ixj > i) swap_if(values, i, ixj, (i & k) == 0);
}

int main() {
  int* d_values;
  cudaMalloc(&d_values, 4 * sizeof(int));
  for (int k = 2; k <= 4; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) bitonic_sort_step<<<1, 4>>>(d_values, j, k);
  cudaDeviceSynchronize();
  cudaFree(d_values);
  return 0;
}
