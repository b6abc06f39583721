// CUDA's vector types and dim3 (issue 13): each field a scalar variable or memory location, a
// whole vector read and written field by field; each kernel checked for its exact outcome set.
#include "language_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("a float4 SAXPY: buffers of vectors are their fields in a row, loads and stores per field",
          "[frontend][language][vectors]") {
  CHECK(exact_outcomes(R"(
//@ launch grid=1 block=2
//@ arg x: float4[2] = {1, 2, 3, 4, 5, 6, 7, 8}
//@ arg y: float4[2] = 1
//@ arg a = 2
//@ observe y
__global__ void saxpy4(float a, const float4* x, float4* y) {
  int i = threadIdx.x;
  float4 xv = x[i];
  float4 yv = reinterpret_cast<float4*>(y)[i];
  yv.x += a * xv.x; yv.y += a * xv.y; yv.z += a * xv.z; yv.w += a * xv.w;
  y[i] = yv;
}
)") == std::set<std::string>{"y[0]=3 y[1]=5 y[2]=7 y[3]=9 y[4]=11 y[5]=13 y[6]=15 y[7]=17"});
}

TEST_CASE("vector locals, globals, parameters, shared arrays, make_*, dim3 and uint3 builtins",
          "[frontend][language][vectors]") {
  CHECK(exact_outcomes(R"(
//@ launch grid=2 block=2
//@ observe out
__device__ unsigned out[8];
__device__ int2 pair = {3, 4};
__device__ int dot(int2 a, int2 b) { return a.x * b.x + a.y * b.y; }
__global__ void k() {
  dim3 t = threadIdx;
  dim3 g(7);
  uint3 b = blockIdx;
  int2 p = make_int2(t.x, 1);
  unsigned i = b.x * 2 + t.x;
  out[i] = dot(p, pair) + g.x * 100 + g.y * 1000 + g.z * 10000 + sizeof(float4) * 100000;
  __shared__ int2 s[2];
  s[t.x] = p;
  s[t.x].y += 1;
  out[4 + i] = s[t.x].y + s[t.x].x * 10;
}
)") == std::set<std::string>{"out[0]=1611704 out[1]=1611707 out[2]=1611704 out[3]=1611707 out[4]=2 out[5]=12 "
                             "out[6]=2 out[7]=12"});
}

TEST_CASE("a vector store is one store per field: a reader can see it torn", "[frontend][language][vectors]") {
  // Thread 0 stores a whole int2, thread 1 reads it whole, field by field: under sc the read of
  // x can come before the stores and the read of y after them, or the other way round, so
  // every mix of old and new fields is an outcome (the 8-byte access is not one event).
  CHECK(exact_outcomes(R"(
//@ launch grid=1 block=2
//@ observe out
__device__ int2 v;
__device__ int out[2];
__global__ void k() {
  if (threadIdx.x == 0) {
    v = make_int2(1, 1);
  } else {
    int2 r = v;
    out[0] = r.x;
    out[1] = r.y;
  }
}
)") == std::set<std::string>{"out[0]=0 out[1]=0", "out[0]=0 out[1]=1", "out[0]=1 out[1]=0", "out[0]=1 out[1]=1"});
}

TEST_CASE("what vector types do not cover is named at its place", "[frontend][language][vectors]") {
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
__device__ float4 f(float4 a) { return a; }
__global__ void k() { float4 v = make_float4(1, 2, 3, 4); float x = f(v).x; }
)") == std::vector<std::string>{"not supported: a call of 'f', which returns float4, here (its value can initialize "
                                "or be assigned to a float4, or be returned)"});
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
//@ arg q.x = 1
__global__ void k(int4 q) {}
)") == std::vector<std::string>{"kernel parameter 'q.y' has no argument (give it with //@ arg q.y = VALUE)",
                                "kernel parameter 'q.z' has no argument (give it with //@ arg q.z = VALUE)",
                                "kernel parameter 'q.w' has no argument (give it with //@ arg q.w = VALUE)"});
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
//@ arg p: float4[2] = 0
__global__ void k(float4* p) {
  float4* r = p;
  r++;
  int4 w = make_float4(1, 2, 3, 4);
  float s = p[0];
  float4 v = p[1];
  v.q = 1;
  v += v;
  float4 u = p[threadIdx.x++];
}
)") == std::vector<std::string>{
             "not supported: '++' on a pointer to float4 (write p += 1, or index it)",
             "a float4 where an int4 is expected (CUDA does not convert vector types)",
             "not supported: a whole float4 here (use its fields, or assign it whole to a float4 variable)",
             "float4 has no field 'q' (it has xyzw)",
             "not supported: compound assignment '+=' of a whole float4 (CUDA defines no operators on vector types)",
             "not supported: an index with a side effect in a whole-float4 access (each field would repeat it: "
             "compute the index into a variable first)",
             "the operand of '++' must be a variable or a memory location"});
}
