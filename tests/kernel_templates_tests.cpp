// Kernels as people write them (issue 13), continued: templates (type parameters deduced from
// the kernel's buffers or a helper's first call, or given by //@ template) and the standard
// library names device code uses, each run and checked for its exact outcome.
#include "language_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("a type template parameter is deduced from the kernel's buffers, or given by //@ template",
          "[frontend][language][templates]") {
  // T from `arg in: float[...]`; blockSize from the directive; `add<T>`, `add(...)` and `T(0)`.
  const std::string reduction = R"(
//@ template blockSize=4
//@ launch grid=1 block=4
//@ arg in: float[4] = {0.5, 1, 2, 4}
//@ arg out: float[1] = 0
//@ observe out
template <typename T>
__device__ T add(T a, T b) { return a + b; }
template <class T, unsigned int blockSize>
__global__ void reduce(const T* in, T* out) {
  __shared__ T s[blockSize];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned k = blockSize / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] = add<T>(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0) out[0] = add(s[0], T(0));
}
)";
  CHECK(small_kernel_outcomes(reduction) == std::set<std::string>{"out[0]=7.5"});
  // Given: T=double; the shared array holds doubles, so 1/3 keeps its precision past float's.
  CHECK(small_kernel_outcomes(R"(
//@ template T=double
//@ launch grid=1 block=1
//@ observe out
__device__ int out;
template <typename T> __global__ void k() {
  T third = T(1) / 3;
  out = (third * 3e9 - 1e9) * 1e6 < 1 ? 1 : 0;
}
)") == std::set<std::string>{"out=1"});
}

TEST_CASE("a helper's type parameter is deduced from its first call", "[frontend][language][templates]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=2
//@ observe out
__device__ unsigned out[2];
template <typename T>
__device__ T twice(T a) { return a + a; }
template <typename T>
__device__ void store(T* p, T v) { *p = v; }
__global__ void k() {
  store(&out[threadIdx.x], twice(threadIdx.x + 1));
}
)") == std::set<std::string>{"out[0]=2 out[1]=4"});
}

TEST_CASE("a second instantiation and an unbound type parameter are named at their place",
          "[frontend][language][templates]") {
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
//@ template T=double
__device__ int out;
template <typename T> __device__ T twice(T a) { return a + a; }
__global__ void k() { out = twice(1); }
)") == std::vector<std::string>{"not supported: a second instantiation of 'twice' (argument 1 is 'int', but 'T' "
                                "stands for 'double' here: fencelab instantiates a template once)"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
__device__ int out;
template <typename T> __device__ T zero() { return T(0); }
__global__ void k() { out = zero(); }
)") == std::vector<std::string>{"template type parameter 'T' of 'zero' has no type: give it with //@ template T=TYPE"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
//@ arg out: int[1] = 0
template <typename T> __device__ T twice(T a) { return a + a; }
template <typename T> __global__ void k(T* out) { *out = twice<float>(1); }
)") == std::vector<std::string>{"not supported: a second instantiation of a template ('T' is 'int' in this file, "
                                "from //@ template or the kernel's arguments)"});
}

TEST_CASE("the standard library names device code uses: std::min/max, is_same, numeric_limits, if constexpr",
          "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
#include <limits>
#include <type_traits>
//@ launch grid=1 block=1
//@ template T=float
//@ arg in: float[2] = {3, -1}
//@ arg out: float[6] = zeros
//@ observe out
template <typename T>
__global__ void k(const T* in, T* out) {
  T best = std::numeric_limits<T>::lowest();
  if constexpr (std::is_same<T, float>::value) out[0] = 1;
  else out[0] = 2;
  out[1] = std::is_same_v<T, const float> ? 5 : 6;
  for (int i = 0; i < 2; ++i) best = std::max(best, in[i]);
  out[2] = best;
  out[3] = std::min(in[0], in[1]);
  out[4] = std::numeric_limits<int>::max() == 2147483647 && std::numeric_limits<char>::min() == -128;
  out[5] = std::numeric_limits<unsigned>::max() == 4294967295u && std::numeric_limits<float>::max() > 3e38f;
}
)") == std::set<std::string>{"out[0]=1 out[1]=6 out[2]=3 out[3]=-1 out[4]=1 out[5]=1"});
  // The discarded branch is not checked: here it would be invalid for the bound T (member
  // access on an int, a vector type's field); an `if constexpr` on a variable is an error.
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ template T=int
//@ arg in: int[1] = {7}
//@ arg out: int[1] = zeros
//@ observe out
template <typename T>
__global__ void k(const T* in, int* out) {
  if constexpr (sizeof(T) == 4) out[0] = in[0];
  else out[0] = in[0].x + in[0].y;
  if constexpr (std::is_same_v<T, float4>) { out[0] = in[0].w; }
}
)") == std::set<std::string>{"out[0]=7"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
__device__ int out;
__global__ void k() { int n = 2; if constexpr (n == 2) out = 1; }
)") == std::vector<std::string>{"the condition of 'if constexpr' must be a constant expression"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
__global__ void k() { float e = std::numeric_limits<float>::epsilon(); }
)") == std::vector<std::string>{"not supported: std::numeric_limits<float>::epsilon (max, min and lowest of scalar "
                                "types are)"});
}
