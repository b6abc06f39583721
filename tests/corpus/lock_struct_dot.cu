// Dot product with CUDA by Example's Lock struct (appendix A.1): a struct holding a pointer to
// the mutex, a host constructor that allocates it, and __device__ lock()/unlock(); the kernel
// takes the Lock by value and each block adds its partial sum under it.
#include <cstdio>
#include <cuda_runtime.h>
#include "../common/book.h"

#define imin(a, b) (a < b ? a : b)
const int N = 8;
const int threadsPerBlock = 4;
const int blocksPerGrid = imin(2, (N + threadsPerBlock - 1) / threadsPerBlock);

//@ launch grid=2 block=4
//@ arg lock.mutex: int[1] = 0
//@ arg a: float[8] = {1, 1, 1, 1, 2, 2, 2, 2}
//@ arg b: float[8] = {1, 2, 3, 4, 1, 2, 3, 4}
//@ arg c: float[1] = 0
//@ observe c
//@ expect all: exactly c[0]=30

struct Lock {
  int *mutex;
  Lock(void) {
    int state = 0;
    HANDLE_ERROR(cudaMalloc((void **)&mutex, sizeof(int)));
    HANDLE_ERROR(cudaMemcpy(mutex, &state, sizeof(int), cudaMemcpyHostToDevice));
  }
  ~Lock(void) { cudaFree(mutex); }
  __device__ void lock(void) {
    while (atomicCAS(mutex, 0, 1) != 0);
    __threadfence();
  }
  __device__ void unlock(void) {
    __threadfence();
    atomicExch(mutex, 0);
  }
};

__global__ void dot(Lock lock, float *a, float *b, float *c) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;
  float temp = 0;
  while (tid < N) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();
  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }
  if (cacheIndex == 0) {
    lock.lock();
    *c += cache[0];
    lock.unlock();
  }
}

int main(void) {
  float *a, *b, c = 0;
  float *dev_a, *dev_b, *dev_c;
  a = (float *)malloc(N * sizeof(float));
  b = (float *)malloc(N * sizeof(float));
  HANDLE_ERROR(cudaMalloc((void **)&dev_a, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_b, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_c, sizeof(float)));
  for (int i = 0; i < N; i++) {
    a[i] = i < 4 ? 1 : 2;
    b[i] = i % 4 + 1;
  }
  HANDLE_ERROR(cudaMemcpy(dev_a, a, N * sizeof(float), cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dev_b, b, N * sizeof(float), cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dev_c, &c, sizeof(float), cudaMemcpyHostToDevice));
  Lock lock;
  dot<<<blocksPerGrid, threadsPerBlock>>>(lock, dev_a, dev_b, dev_c);
  HANDLE_ERROR(cudaMemcpy(&c, dev_c, sizeof(float), cudaMemcpyDeviceToHost));
  printf("Does GPU value %.6g = %.6g?\n", c, 30.0f);
  cudaFree(dev_a);
  cudaFree(dev_b);
  cudaFree(dev_c);
  free(a);
  free(b);
  return 0;
}
