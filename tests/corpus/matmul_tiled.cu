// Tiled matrix multiply C = A * B with shared-memory tiles.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 2
//@ launch grid=(1,1) block=(2,2)
//@ arg A: int[4] = {1, 2, 3, 4}
//@ arg B: int[4] = {5, 6, 7, 8}
//@ arg C: int[4] = 0
//@ arg n = 2
//@ observe C
//@ expect all: exactly C[0]=19 C[1]=22 C[2]=43 C[3]=50

__global__ void matmul(const int* A, const int* B, int* C, int n) {
  __shared__ int As[TILE][TILE];
  __shared__ int Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  int sum = 0;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_A;
  CUDA_CHECK(cudaMalloc(&d_A, 128*128 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_A, 0, 128*128 * sizeof(int)));
  int* d_B;
  CUDA_CHECK(cudaMalloc(&d_B, 128*128 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_B, 0, 128*128 * sizeof(int)));
  int* d_C;
  CUDA_CHECK(cudaMalloc(&d_C, 128*128 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_C, 0, 128*128 * sizeof(int)));
  matmul<<<dim3(64, 64), dim3(TILE, TILE)>>>(d_A, d_B, d_C, 128);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_A));
  CUDA_CHECK(cudaFree(d_B));
  CUDA_CHECK(cudaFree(d_C));
  printf("done\n");
  return 0;
}
