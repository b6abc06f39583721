// Tiled matrix multiply that forgot the second __syncthreads(): a thread may overwrite
// the tile while another still reads it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 2
//@ launch grid=1 block=(2,2)
//@ arg A: int[16] = 1
//@ arg B: int[16] = 1
//@ arg C: int[16] = 0
//@ arg n = 4
//@ expect all: diagnostic data-race

__global__ void matmul(const int* A, const int* B, int* C, int n) {
  __shared__ int As[TILE][TILE];
  __shared__ int Bs[TILE][TILE];
  int row = threadIdx.y, col = threadIdx.x;
  int sum = 0;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    // missing: __syncthreads();
  }
  C[row * n + col] = sum;
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_A;
  CUDA_CHECK(cudaMalloc(&d_A, 16 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_A, 0, 16 * sizeof(int)));
  int* d_B;
  CUDA_CHECK(cudaMalloc(&d_B, 16 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_B, 0, 16 * sizeof(int)));
  int* d_C;
  CUDA_CHECK(cudaMalloc(&d_C, 16 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_C, 0, 16 * sizeof(int)));
  matmul<<<1, dim3(TILE, TILE)>>>(d_A, d_B, d_C, 4);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_A));
  CUDA_CHECK(cudaFree(d_B));
  CUDA_CHECK(cudaFree(d_C));
  printf("done\n");
  return 0;
}
