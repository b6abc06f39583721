// SAXPY in half precision, y = a*x + y on __half (cuda_fp16.h), with a grid-stride loop.
// Each product and sum is rounded to half: 0.5 * 2 + 2048 is 2049, a tie between the halves
// 2048 and 2050, which rounds to the even 2048.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

//@ launch grid=2 block=2
//@ arg n = 6
//@ arg a = 0.5
//@ arg x: half[6] = {2, 4, 6, 8, 2, 1}
//@ arg y: half[6] = {0, 1, 2, 3, 2048, 0.25}
//@ observe y
//@ expect all: exactly y[0]=1 y[1]=3 y[2]=5 y[3]=7 y[4]=2048 y[5]=0.75
//@ expect all: always y[4] == 2048 && y[5] > 0.5

__global__ void haxpy(int n, half a, const half* __restrict__ x, half* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

int main() {
  const int n = 1 << 20;
  std::vector<__half> h_x(n), h_y(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = __float2half(1.0f);
    h_y[i] = __float2half(2.0f);
  }
  __half *d_x, *d_y;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(__half)));
  CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  haxpy<<<256, 256>>>(n, __float2half(3.0f), d_x, d_y);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h_y.data(), d_y, n * sizeof(__half), cudaMemcpyDeviceToHost));
  printf("y[0] = %f\n", __half2float(h_y[0]));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  return 0;
}
