#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf("%s: %s\n", #call, cudaGetErrorString(e)); exit(1); } } while (0)
using namespace std;
const int N = 4;
float *d_a, *d_b;
static cudaStream_t stream;
namespace util { int helper(std::vector<int>& v) { return v.size(); } }
template <typename T> T host_max(T a, T b) { return a > b ? a : b; }
//@ launch grid=1 block=4
//@ arg a: float[4] = iota(1)
//@ observe a
__global__ void scale(float* a) {
  a[threadIdx.x] = a[threadIdx.x] * 2.0f;
}
void checkLast(const char* where) { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) printf("%s\n", where); }
int main(int argc, char** argv) {
  std::vector<float> h(N, 1.0f);
  CUDA_CHECK(cudaMalloc(&d_a, N * sizeof(float)));
  scale<<<1, N>>>(d_a);
  checkLast("scale");
  return 0;
}
