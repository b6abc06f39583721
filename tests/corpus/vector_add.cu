// Vector addition, as in the CUDA samples: one thread per element, bounds-checked.
#include <cstdio>
#include <cuda_runtime.h>

//@ launch grid=2 block=4
//@ arg a: float[6] = {1, 2, 3, 4, 5, 6}
//@ arg b: float[6] = {10, 20, 30, 40, 50, 60}
//@ arg c: float[6] = 0
//@ arg n = 6
//@ observe c
//@ expect all: exactly c[0]=11 c[1]=22 c[2]=33 c[3]=44 c[4]=55 c[5]=66

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *h_a = (float*)malloc(bytes), *h_b = (float*)malloc(bytes), *h_c = (float*)malloc(bytes);
  for (int i = 0; i < n; ++i) { h_a[i] = i; h_b[i] = 2 * i; }
  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
  printf("c[10] = %f\n", h_c[10]);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
  free(h_a); free(h_b); free(h_c);
  return 0;
}
