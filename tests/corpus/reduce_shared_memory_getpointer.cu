// Reduction in the shape of the older CUDA SDK's reduction sample (reduce0 with sharedmem.cuh):
// dynamic shared memory reached through SharedMemory<T>'s getPointer(), one specialization per
// element type, and a generic template that calls an undefined error() so that an
// unspecialized type fails to link. Both the object form and a temporary are used.
#include <cstdio>
#include <cuda_runtime.h>

//@ launch grid=1 block=4 shared=16
//@ arg g_idata: int[4] = {1, 2, 3, 4}
//@ arg g_odata: int[2] = zeros
//@ observe g_odata
//@ expect all: exactly g_odata[0]=10 g_odata[1]=4

template <typename T>
struct SharedMemory {
  // Ensure that we won't compile any un-specialized types
  __device__ T *getPointer() {
    extern __device__ void error(void);
    error();
    return NULL;
  }
};

template <>
struct SharedMemory<int> {
  __device__ int *getPointer() {
    extern __shared__ int s_int[];
    return s_int;
  }
};

template <>
struct SharedMemory<float> {
  __device__ float *getPointer() {
    extern __shared__ float s_float[];
    return s_float;
  }
};

template <class T>
__global__ void reduce0(T *g_idata, T *g_odata) {
  SharedMemory<T> smem;
  T *sdata = smem.getPointer();

  unsigned int tid = threadIdx.x;
  sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid];
  __syncthreads();

  // interleaved addressing, as reduce0
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid == 0) {
    g_odata[blockIdx.x] = sdata[0];
    g_odata[1] = SharedMemory<T>().getPointer()[3]; // the last input, read back through a temporary
  }
}

int main() {
  const int n = 4, threads = 4;
  int h_idata[n] = {1, 2, 3, 4};
  int *d_idata = NULL, *d_odata = NULL;
  cudaMalloc((void **)&d_idata, n * sizeof(int));
  cudaMalloc((void **)&d_odata, 2 * sizeof(int));
  cudaMemcpy(d_idata, h_idata, n * sizeof(int), cudaMemcpyHostToDevice);
  reduce0<int><<<1, threads, threads * sizeof(int)>>>(d_idata, d_odata);
  int h_odata[2] = {0, 0};
  cudaMemcpy(h_odata, d_odata, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum = %d, last = %d\n", h_odata[0], h_odata[1]);
  cudaFree(d_idata);
  cudaFree(d_odata);
  return 0;
}
