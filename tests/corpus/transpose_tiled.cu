// Matrix transpose through a shared tile padded by one column (no bank conflicts).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 2
//@ launch grid=(2,2) block=(2,2)
//@ arg in: int[16] = iota
//@ arg out: int[16] = 0
//@ arg width = 4
//@ arg height = 4
//@ observe out
//@ expect all: exactly out[0]=0 out[1]=4 out[2]=8 out[3]=12 out[4]=1 out[5]=5 out[6]=9 out[7]=13 out[8]=2 out[9]=6 out[10]=10 out[11]=14 out[12]=3 out[13]=7 out[14]=11 out[15]=15

__global__ void transpose(const int* in, int* out, int width, int height) {
  __shared__ int tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  int* d_in;
  CUDA_CHECK(cudaMalloc(&d_in, 1<<20 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_in, 0, 1<<20 * sizeof(int)));
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 1<<20 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, 1<<20 * sizeof(int)));
  transpose<<<dim3(32, 32), dim3(TILE, TILE)>>>(d_in, d_out, 1024, 1024);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  printf("done\n");
  return 0;
}
