// Reduction in the shape of NVIDIA's reduction sample (reduce3): templated on the element type,
// dynamic shared memory reached through the SharedMemory<T> struct (with its double
// specialization), cooperative groups for the block, and the first add during the load.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

//@ launch grid=1 block=4 shared=16
//@ arg g_idata: float[8] = {1, 2, 3, 4, 5, 6, 7, 8}
//@ arg g_odata: float[1] = 0
//@ arg n = 8
//@ observe g_odata
//@ expect all: exactly g_odata[0]=36

// Utility class used to avoid linker errors with extern unsized shared memory arrays with
// templated type.
template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }

  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

// Specialize for double to avoid unaligned memory access compile errors.
template <>
struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }

  __device__ inline operator const double *() const {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

template <class T>
__global__ void reduce3(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  cg::sync(cta);

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

int main(int argc, char **argv) {
  const unsigned int n = 8;
  const int threads = 4, blocks = 1;
  float h_idata[n];
  for (unsigned int i = 0; i < n; i++) h_idata[i] = (float)(i + 1);
  float *d_idata = NULL, *d_odata = NULL;
  cudaMalloc((void **)&d_idata, n * sizeof(float));
  cudaMalloc((void **)&d_odata, blocks * sizeof(float));
  cudaMemcpy(d_idata, h_idata, n * sizeof(float), cudaMemcpyHostToDevice);
  int smemSize = threads * sizeof(float);
  reduce3<float><<<blocks, threads, smemSize>>>(d_idata, d_odata, n);
  float h_odata = 0;
  cudaMemcpy(&h_odata, d_odata, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", h_odata);
  cudaFree(d_idata);
  cudaFree(d_odata);
  return 0;
}
