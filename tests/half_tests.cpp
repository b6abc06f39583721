// __half and half (cuda_fp16.h; issue 13): a 2-byte floating type whose loads and stores are
// 2-byte events, conversions and arithmetic rounded once to nearest even, cuda_fp16.hpp's
// overloads (and their ambiguities) as nvcc resolves them. Each kernel is checked for its exact
// outcome set.
#include "fencelab/checkers/checkers.h"
#include "fencelab/cuda/codegen.h"
#include "language_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("half: conversions, operators, intrinsics and bit casts in a kernel", "[frontend][language][half]") {
  CHECK(exact_outcomes(R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=1
//@ arg h: half[4] = {1.5, 65504, 0.1, -2}
//@ observe h f i
__device__ float f[4];
__device__ int i[8];
//@ init g = 0.5
__device__ __half g;
__device__ half twice(half x) { return x + x; }
__global__ void k(half* h) {
  f[0] = __half2float(h[2]);            // 0.1 rounded to half: 0.0999755859375
  f[1] = h[0];                          // operator float()
  double d = h[3];
  f[2] = (float)(d * 0.5);
  h[0] = h[0] * h[0];                   // 2.25
  h[1] = h[1] + __float2half(16.0f);    // 65520: to even, infinity
  h[3] = -h[3];
  h[3] += 1;                            // the int becomes a half first: 3
  half x = 2049;                        // a tie between 2048 and 2050: even 2048
  x++;                                  // 2049 again: 2048
  f[3] = twice(x) / __half(4.0);
  i[0] = __half2int_rn(__float2half(2.5f));
  i[1] = __half2int_rz(__float2half(-2.75f));
  i[2] = (int)__float2half(-2.75f);     // operator int(): toward zero
  i[3] = __half_as_ushort(g);
  i[4] = __heq(__ushort_as_half(0x3c00), __int2half_rn(1)) + 2 * (h[0] < h[1]) + 4 * !__float2half(-0.0f);
  i[5] = __half_as_short(__hneg(__habs(__short_as_half(-16384)))); // -2 -> 2 -> -2: 0xc000
  i[6] = __hgt(__hmax(h[0], __float2half(1.0f)), __hmin(h[0], __double2half(3.0)));
  i[7] = __half2int_rz(__hfma(__float2half(1.5f), __float2half(683.0f / 1024), __ushort_as_half(1)) * __half(2048));
}
)") == std::set<std::string>{"h[0]=2.25 h[1]=inf h[2]=0.099975586 h[3]=3 f[0]=0.099975586 f[1]=1.5 f[2]=-1 "
                             "f[3]=1024 i[0]=2 i[1]=-2 i[2]=-2 i[3]=14336 i[4]=7 i[5]=-16384 i[6]=0 i[7]=2050"});
}

TEST_CASE("half: a shared-memory tree reduction of halves, barriers between the steps", "[frontend][language][half]") {
  const std::string text = R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=4
//@ arg in: half[4] = {0.5, 1.5, 2, 4.25}
//@ arg out: half[1] = 0
//@ observe out
__global__ void reduce(const half* in, half* out) {
  __shared__ half s[4];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
)";
  CHECK(exact_outcomes(text, "gpu") == std::set<std::string>{"out[0]=8.25"});
  const ExplorationResult r = checked_search(text, "gpu");
  CHECK(r.reports.empty());
}

TEST_CASE("half: without the barrier's protection, += on a shared half loses updates and races",
          "[frontend][language][half]") {
  const std::string text = R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=2
//@ arg in: half[2] = {1.5, 2}
//@ observe out
__device__ half out;
__global__ void k(const half* in) {
  __shared__ half sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  sum += in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out = sum;
}
)";
  CHECK(exact_outcomes(text) == std::set<std::string>{"out=1.5", "out=2", "out=3.5"});
  const ExplorationResult r = checked_search(text, "sc");
  REQUIRE(!r.reports.empty());
  CHECK(r.reports.front().report.kind == DiagnosticKind::DataRace);
}

TEST_CASE("half: atomicAdd on a __half rounds each addition, so the order of the additions shows",
          "[frontend][language][half]") {
  // 2048 + 1 is a tie that rounds back to 2048, so 2048 first absorbs both ones; 1 + 1 first
  // makes 2, and 2048 + 2 = 2050 is a half.
  CHECK(exact_outcomes(R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=3
//@ arg in: half[3] = {2048, 1, 1}
//@ observe sum
__device__ half sum;
__global__ void k(const half* in) { atomicAdd(&sum, in[threadIdx.x]); }
)") == std::set<std::string>{"sum=2048", "sum=2050"});
}

TEST_CASE("half: each half is a 2-byte location: neighbours do not race, and a 2-byte view reads its bits",
          "[frontend][language][half]") {
  const std::string text = R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=2
//@ observe h bits
__device__ half h[2];
__device__ unsigned short bits[2];
__global__ void k() {
  h[threadIdx.x] = __float2half(1.0f + threadIdx.x);
  __syncthreads();
  bits[threadIdx.x] = reinterpret_cast<unsigned short*>(h)[threadIdx.x];
}
)";
  CHECK(exact_outcomes(text, "gpu") == std::set<std::string>{"h[0]=1 h[1]=2 bits[0]=15360 bits[1]=16384"});
  const ExplorationResult r = checked_search(text, "gpu");
  CHECK(r.reports.empty());
  // Read through a 4-byte view, the two halves are one access of another size: named.
  CHECK(!checked_search(R"(
//@ launch grid=1 block=1
__device__ __half h[2];
__device__ int out;
__global__ void k() { out = reinterpret_cast<int*>(h)[0]; }
)",
                        "sc")
             .reports.empty());
}

TEST_CASE("half: a warp shuffle moves a __half (cuda_fp16.h's __shfl_xor_sync overload)", "[frontend][language][half]") {
  CHECK(exact_outcomes(R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=4
//@ observe out
__device__ half out[4];
__global__ void k() {
  half v = __int2half_rn(threadIdx.x) * __float2half(0.5f);
  out[threadIdx.x] = __shfl_xor_sync(0xf, v, 1);
}
)") == std::set<std::string>{"out[0]=0.5 out[1]=0 out[2]=1.5 out[3]=1"});
}

TEST_CASE("half: `half` is still an ordinary name where it is not used as a type, templates take it",
          "[frontend][language][half]") {
  CHECK(exact_outcomes(R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=1
//@ arg p: half[2] = {3, 0}
//@ observe p n
__device__ int n;
template <typename T> __device__ T square(T v) { return v * v; }
__global__ void k(half* p) {
  const int half = 7;
  int m = 2;
  n = half * m + (half & m) * 1000 + sizeof(__half) * 100;
  p[1] = square(p[0]) + static_cast<__half>(half);
}
)") == std::set<std::string>{"p[0]=3 p[1]=16 n=2214"});
  // A variable named `half` hides the type: `(half)` and `sizeof(half)` read the variable
  // (before, `(half) + 1` was a cast of +1).
  CHECK(exact_outcomes(R"(
//@ launch grid=1 block=1
//@ observe out
__device__ int out[3];
__global__ void k() {
  int half = 8;
  out[0] = (half) + 1;
  out[1] = sizeof(half);
  out[2] = (half);
}
)") == std::set<std::string>{"out[0]=9 out[1]=4 out[2]=8"});
  CHECK(exact_outcomes(R"(
//@ template T=half
//@ launch grid=1 block=1
//@ observe out
__device__ float out;
template <typename T> __global__ void k() { T x = T(1.25); out = x * x; }
)") == std::set<std::string>{"out=1.5625"});
}

TEST_CASE("half: mixing a __half with another arithmetic type in an operator is ambiguous, as nvcc says",
          "[frontend][language][half]") {
  const std::string head = "#include <cuda_fp16.h>\n//@ launch grid=1 block=1\n__device__ half h;\n__device__ float f;\n";
  auto first = [&](const std::string& code) {
    const std::vector<std::string> messages = error_messages(head + "__global__ void k() { " + code + " }\n");
    return messages.empty() ? std::string("(no error)") : messages.front();
  };
  CHECK(first("f = h * 2.0f;") ==
        "ambiguous: '__half * float' matches both cuda_fp16.hpp's 'operator*(const __half&, const __half&)' and the "
        "built-in '*' (nvcc rejects it); convert one operand: __half2float(h) computes in float, __float2half(x) in "
        "half");
  CHECK(first("bool b = 1 < h;").rfind("ambiguous: 'int < __half'", 0) == 0);
  CHECK(first("f += h;").rfind("ambiguous: 'float += __half'", 0) == 0);
  CHECK(first("f = f > 0 ? h : f;") ==
        "ambiguous: the branches of '?:' have types '__half' and 'float', and each converts to the other "
        "(cuda_fp16.hpp's constructors and conversion operators; nvcc rejects it); convert one of them");
  CHECK(first("h = h % h;") == "invalid operands to binary '%' ('__half' and '__half')");
  CHECK(first("printf(\"%f\", h);") == "printf cannot print a __half (it is a struct in CUDA); pass __half2float(h)");
  CHECK(first("float* p = &h;") == "cannot convert '__half*' to 'float*' in the initializer of 'p'");
  CHECK(first("h = h * h + __float2half(__half2float(h) * f); f = h; h = f; h += 2.5; if (h) f = !h;") ==
        "(no error)");
  CHECK(first("__half2 v;") == "not supported: half-precision type '__half2'");
  CHECK(error_messages("//@ launch grid=1 block=1\n__device__ half g = 1.5f;\n__global__ void k() {}\n").front() ==
        "not supported: an initializer on a __device__ or __constant__ __half (nvcc refuses it: cuda_fp16.h's "
        "conversions are not constant expressions, and such a variable cannot be initialized dynamically); give its "
        "value with //@ init g = VALUE, or assign it in the kernel");
}

TEST_CASE("half: the CUDA backend includes cuda_fp16.h and prints halves exactly", "[frontend][half][cuda]") {
  const Kernel k = kernel_from_text(R"(
#include <cuda_fp16.h>
//@ launch grid=1 block=1
//@ arg a = 1.5
//@ arg p: half[2] = {0.1, 2}
//@ observe p
__global__ void k(half a, half* p) { p[1] = p[0] * a; p[0] += 1; }
)");
  const std::string plain = cuda::generate_plain(k.program()).source;
  CHECK(plain.find("#include <cuda_fp16.h>") != std::string::npos);
  CHECK(plain.find("__fl_word(__half v)") != std::string::npos);
  CHECK(plain.find("void k(__half a, __half* p)") != std::string::npos);
  CHECK(plain.find("((__half)(1))") != std::string::npos);
  const std::string litmus = cuda::generate_litmus(k.program()).source;
  CHECK(litmus.find("__half(__half_raw{(unsigned short)0x2e66u})") != std::string::npos);
  CHECK(litmus.find("__half(__half_raw{(unsigned short)0x3e00u})") != std::string::npos);
  CHECK(cuda::cuda_literal(0xfc00, Type::of(ScalarType::Half)) == "__half(__half_raw{(unsigned short)0xfc00u})");
  const Kernel plain_int = kernel_from_text("//@ launch grid=1 block=1\n__device__ int x;\n__global__ void k() { x = 1; }\n");
  CHECK(cuda::generate_plain(plain_int.program()).source.find("cuda_fp16") == std::string::npos);
}
