// Member functions and constructors of the kernel's structs (issue 13), lowered onto
// __device__ functions that take the object's fields by reference; structs with pointer fields
// and fields of several sizes as values; struct kernel parameters by value. Each kernel is
// checked for its exact outcome set.
#include "language_helpers.h"

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

TEST_CASE("structs with pointer fields and fields of several sizes are values; kernel parameters by value",
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
