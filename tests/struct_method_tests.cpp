// Member functions and constructors of the kernel's structs (issue 13), lowered onto
// __device__ functions that take the object's fields by reference; structs with pointer fields
// and fields of several sizes as values; struct kernel parameters by value. Each kernel is
// checked for its exact outcome set.
#include "language_helpers.h"

#include <fstream>
#include <iterator>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

// CUDA by Example's Lock (appendix A.1): a pointer field, a host constructor and destructor,
// __device__ lock() and unlock(); the kernel takes the Lock by value.
const char* const kLockKernel = R"(
struct Lock {
  int *mutex;
  Lock(void) { cudaMalloc((void **)&mutex, sizeof(int)); cudaMemset(mutex, 0, sizeof(int)); }
  ~Lock(void) { cudaFree(mutex); }
  __device__ void lock(void) {
    while (atomicCAS(mutex, 0, 1) != 0);
    FENCE
  }
  __device__ void unlock(void) {
    FENCE
    atomicExch(mutex, 0);
  }
};
//@ launch grid=2 block=1
//@ arg lock.mutex: int[1] = 0
//@ arg c: int[1] = 0
//@ observe c
__global__ void add(Lock lock, int *c) {
  lock.lock();
  *c += 1;
  lock.unlock();
}
)";

std::string with_fence(const char* fence) {
  std::string text = kLockKernel;
  for (size_t at; (at = text.find("FENCE")) != std::string::npos;) text.replace(at, 5, fence);
  return text;
}

} // namespace

TEST_CASE("member functions act on the object's fields: a lock struct by value", "[frontend][language][structs]") {
  // With the fences, each critical section sees the other's store.
  CHECK(exact_outcomes(with_fence("__threadfence();"), "sc") == std::set<std::string>{"c[0]=2"});
  CHECK(exact_outcomes(with_fence("__threadfence();"), "gpu") == std::set<std::string>{"c[0]=2"});
  // Without them the gpu model lets the second holder read the counter before the first's
  // increment reaches it; sc does not.
  CHECK(exact_outcomes(with_fence(""), "sc") == std::set<std::string>{"c[0]=2"});
  CHECK(exact_outcomes(with_fence(""), "gpu") == std::set<std::string>{"c[0]=1", "c[0]=2"});
}

TEST_CASE("member functions: fields by name and by this->, calls of each other, constructors",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct Counter {
  int hits;
  float* log;
  __device__ Counter(float* where) : hits(0), log(where) {}
  __device__ Counter() { hits = 7; log = 0; }
  __device__ void add(int n) { hits += n; this->record(); }
  __device__ void record() { if (log) log[threadIdx.x] = (float)this->hits; }
  __device__ int twice() const { return 2 * hits; }
  __host__ __device__ static int limit() { return 100; }
};
//@ launch grid=1 block=2
//@ arg out: float[2] = zeros
//@ arg n: int[4] = zeros
//@ observe out n
__global__ void k(float* out, int* n) {
  Counter c(out);
  c.add(threadIdx.x + 1);
  c.add(2);
  Counter d;
  Counter e{out};
  n[2 * threadIdx.x] = c.twice() + d.hits;
  n[2 * threadIdx.x + 1] = Counter::limit() + (e.log == out);
}
)") == std::set<std::string>{"out[0]=3 out[1]=4 n[0]=13 n[1]=101 n[2]=15 n[3]=101"});
}

TEST_CASE("member functions on structs in memory: p->m(), p[i].m() and global objects",
          "[frontend][language][structs]") {
  // The object's fields are in shared or global memory: the calls read and write them there,
  // visibly, so two threads incrementing one object race without atomics.
  CHECK(exact_outcomes(R"(
struct Pair {
  int a, b;
  __device__ void bump() { a += 1; b += 10; }
  __device__ int total() { return a + b; }
};
//@ launch grid=1 block=2
//@ arg ps: Pair[2] = {1, 2, 3, 4}
//@ observe ps g
__device__ Pair g;
__global__ void k(Pair* ps) {
  int i = threadIdx.x;
  ps[i].bump();
  Pair* q = ps + i;
  q->bump();
  if (i == 0) { g.bump(); g.b = ps->total(); }
}
)") == std::set<std::string>{"ps[0]=3 ps[1]=22 ps[2]=5 ps[3]=24 g.a=1 g.b=25"});
  CHECK(exact_outcomes(R"(
struct Cell {
  int v;
  __device__ void inc() { v = v + 1; }
};
//@ launch grid=1 block=2
//@ observe g
__device__ Cell g;
__global__ void k() { g.inc(); }
)") == std::set<std::string>{"g.v=1", "g.v=2"});
}

TEST_CASE("structs with pointer fields and fields of several sizes are values, kernel parameters by value",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
typedef struct {
  int width;
  int stride;
  char tag;
  float* elements;
} Matrix;
//@ launch grid=1 block=2
//@ arg A.width = 2
//@ arg A.stride = 3
//@ arg A.tag = 'x'
//@ arg A.elements: float[6] = {0, 1, 2, 3, 4, 5}
//@ arg out: float[4] = zeros
//@ observe out
__device__ float get(const Matrix M, int row, int col) { return M.elements[row * M.stride + col]; }
__global__ void k(Matrix A, float* out) {
  Matrix B = A;
  B.elements += 1;
  out[threadIdx.x] = get(A, 1, threadIdx.x) + get(B, 0, 0);
  out[2 + threadIdx.x] = sizeof(Matrix) + (A.tag == 'x');
}
)") == std::set<std::string>{"out[0]=4 out[1]=5 out[2]=25 out[3]=25"});
}

TEST_CASE("what member functions do not cover is named at its place", "[frontend][language][structs]") {
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
struct Host { int a; Host() { a = 1; } int get() { return a; } };
struct Twice { int a; __device__ void f() {} __device__ void f(int x) {} __device__ void f(float y) {} };
struct Self { int a; __device__ bool me() { return this == 0; } };
struct Maker { int a; __device__ Maker* next() { return 0; } };
__global__ void k() {
  Host h;
  Host g = {1};
  int x = g.get();
}
)") == std::vector<std::string>{
             "not supported: overloaded member functions with the same number of parameters ('Twice::f/1')",
             "not supported: 'this' (other than 'this->member' in a member function)",
             "not supported: a member function returning a pointer to Maker",
             "the constructor 'Host::Host' is host code (declare it __device__ to construct a Host in device code)",
             "'Host::get' is host code: a member function that is not __device__ cannot be called from device code",
         });
}

TEST_CASE("functions returning structs and vectors write their caller's destination",
          "[frontend][language][structs]") {
  // The Programming Guide's shared-memory matrix multiplication (3.2.4), at 4 x 4 in 2 x 2 tiles,
  // as the corpus has it (host code and all): C = A * diag(1, 2, 1, 1).
  std::ifstream file(std::string(FENCELAB_SOURCE_DIR) + "/tests/corpus/matmul_struct.cu");
  const std::string matmul((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  REQUIRE(!matmul.empty());
  CHECK(exact_outcomes(matmul) ==
        std::set<std::string>{"C.elements[0]=1 C.elements[1]=4 C.elements[2]=3 C.elements[3]=4 "
                              "C.elements[4]=5 C.elements[5]=12 C.elements[6]=7 C.elements[7]=8 "
                              "C.elements[8]=9 C.elements[9]=20 C.elements[10]=11 C.elements[11]=12 "
                              "C.elements[12]=13 C.elements[13]=28 C.elements[14]=15 C.elements[15]=16"});
  CHECK(exact_outcomes(matmul, "gpu").size() == 1);
  // A returned value is read whole before the destination is written: flip(s) into s.
  CHECK(exact_outcomes(R"(
struct P { int a, b; };
__device__ P same(P s) { return s; }
__device__ P flip(P s) { P t = {s.b, s.a}; return t; }
__device__ float4 scaled(float4 v, float k) { return make_float4(v.x * k, v.y * k, v.z * k, v.w * k); }
__device__ float4 twice(float4 v) { return scaled(v, 2); }
//@ launch grid=1 block=1
//@ arg out: int[2] = zeros
//@ arg f: float4[1] = {1, 2, 3, 4}
//@ observe out f
__global__ void k(int* out, float4* f) {
  P s = {1, 2};
  s = flip(s);
  P t = same(s);
  out[0] = t.a;
  out[1] = t.b;
  f[0] = twice(f[0]);
}
)") == std::set<std::string>{"out[0]=2 out[1]=1 f[0]=2 f[1]=4 f[2]=6 f[3]=8"});
  CHECK(error_messages(R"(
struct P { int a, b; };
__device__ P same(P s) { return s; }
//@ launch grid=1 block=1
__global__ void k() {
  P s = {1, 2};
  s = same(same(s));
  int x = same(s).a;
  same(s);
}
)") == std::vector<std::string>{
             "not supported: a call of 'same', which returns P, here (its value can initialize or be assigned to a P, "
             "or be returned)",
             "not supported: a call of 'same', which returns P, here (its value can initialize or be assigned to a P, "
             "or be returned)",
             "not supported: a call of 'same', which returns P, here (its value can initialize or be assigned to a P, "
             "or be returned)",
         });
}

TEST_CASE("a member function's struct and reference parameters are its own, not a free function's of the name",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct P { int a, b; };
__device__ void add(int& x) { x += 100; }
struct Acc {
  int total;
  __device__ void add(P p, int& seen) { total += p.a + p.b; seen += 1; }
};
//@ launch grid=1 block=1
//@ arg out: int[2] = zeros
//@ observe out
__global__ void k(int* out) {
  Acc acc = {0};
  P p = {1, 2};
  int seen = 0;
  acc.add(p, seen);
  int y = 1;
  add(y);
  out[0] = acc.total + 10 * seen;
  out[1] = y;
}
)") == std::set<std::string>{"out[0]=13 out[1]=101"});
}
