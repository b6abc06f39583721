// Kernels as people write them (issue 13): type aliases, enumerations, __ldg, 24-bit multiplies
// and assert, each run and checked for its exact outcome.
#include "language_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("typedef, using and enumerations name types and constants, in blocks and at file scope",
          "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ observe out
__device__ int out[4];
typedef unsigned int uint_t, *uint_ptr;
using real = float;
enum Stage { LOAD, REDUCE = 5, STORE };
__global__ void k() {
  typedef const int* cptr;
  enum { LOCAL = 7, NEXT };
  uint_t u = 3;
  uint_ptr p = (uint_ptr)&out[0];
  *p = u;
  real half_of_seven = 7 / (real)2;
  out[1] = (int)(half_of_seven * 2);
  Stage s = STORE;
  switch (s) { case STORE: out[2] = s; break; default: out[2] = -1; }
  cptr q = &out[2];
  out[3] = *q + LOAD + NEXT;
}
)") == std::set<std::string>{"out[0]=3 out[1]=7 out[2]=6 out[3]=14"});
}

TEST_CASE("file-scope aliases of host types are host code: skipped without an error", "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
#include <vector>
typedef std::vector<int> Values;
using Clock = std::chrono::steady_clock;
typedef float real;
//@ launch grid=1 block=1
//@ observe out
__device__ int out[1];
__global__ void k() { real r = 2.5f; out[0] = (int)(r * 2); }
int main() { Values v; return 0; }
)") == std::set<std::string>{"out[0]=5"});
}

TEST_CASE("what aliases and enumerations do not cover is named as not supported", "[frontend][language]") {
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
enum class E { A };
typedef enum { EA } S;
typedef int Row[4];
template <int N> using Vec = int;
__global__ void k() {}
)") == std::vector<std::string>{
             "not supported: scoped enumerations (enum class); use a plain enum",
             "not supported: typedef of an enum",
             "not supported: typedef of an array or function type",
             "not supported: alias templates",
         });
}

TEST_CASE("auto local variables take their initializer's type", "[frontend][language]") {
  // C++ [dcl.type.auto.deduct]: unsigned from threadIdx, double from 0.5, float from 1.5f, a
  // pointer to structs from arithmetic on one (still indexed by element), size_t from sizeof.
  CHECK(small_kernel_outcomes(R"(
struct P { int a, b; };
//@ launch grid=2 block=2
//@ arg ps: P[4] = iota
//@ observe out
__device__ double out[8];
__global__ void k(P* ps) {
  auto i = blockIdx.x * blockDim.x + threadIdx.x;
  const auto half = 0.5;
  auto f = 1.5f;
  auto q = ps + i;
  auto* r = &out[0];
  for (auto j = 0; j < 1; ++j) r[2 * i] = q->b * half + f;
  auto wrapped = sizeof(P) - 9;
  r[2 * i + 1] = wrapped > 0 ? 1 : -1;
}
)") == std::set<std::string>{"out[0]=2 out[1]=1 out[2]=3 out[3]=1 out[4]=4 out[5]=1 out[6]=5 out[7]=1"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
__device__ auto g = 1;
__global__ void k() {
  auto a;
  auto b[2] = {1, 2};
  auto c = {1};
  int x = 1;
  auto& d = x;
  auto* e = x;
}
)") == std::vector<std::string>{
             "not supported: 'auto' here (it is supported for local variables; write the type)",
             "'auto' variable 'a' needs an initializer to take its type from",
             "'auto' cannot declare an array",
             "not supported: 'auto' with a braced initializer (write the type)",
             "not supported: 'auto&' (write the type)",
             "'auto*' variable 'e' needs a pointer to take its type from",
         });
}

TEST_CASE("__ldg loads like a dereference, __mul24 and __umul24 multiply the low 24 bits", "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ arg in: int[2] = iota(5)
//@ observe out
__device__ int out[3];
__global__ void k(const int* __restrict__ in) {
  out[0] = __ldg(&in[1]);
  out[1] = __umul24(0x1000003, 4);  // 3 * 4: bit 24 is not multiplied
  out[2] = __mul24(0xffffff, 2);    // -1 * 2: 24-bit signed
}
)") == std::set<std::string>{"out[0]=6 out[1]=12 out[2]=-2"});
}

TEST_CASE("umin, umax and __saturatef, uint and ushort, __managed__ variables live in global memory",
          "[frontend][language]") {
  // As the SDK samples write them (a survey of 62 public files found each stopping some).
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ arg zero = 0.0
//@ observe out counter
typedef unsigned int uint;
__device__ __managed__ int counter = 5;
__managed__ uint limit = 7;
__device__ int out[6];
__global__ void k(float zero) {
  uint a = 3;
  ushort b = 9;
  out[0] = umin(a, 2u) * 10 + umax(a, 4u);
  out[1] = umin(0xffffffffu, 1u);      // unsigned: -1 would be the smaller signed
  out[2] = (int)(__saturatef(1.5f) * 10.0f);
  out[3] = (int)(__saturatef(0.25f) * 100.0f);
  out[4] = (int)(__saturatef(-0.5f) * 10.0f) + (int)(__saturatef(zero / zero) * 10.0f); // 0, NaN to 0
  out[5] = limit + b;
  counter += 1;
}
)") == std::set<std::string>{"out[0]=24 out[1]=1 out[2]=10 out[3]=25 out[4]=0 out[5]=16 counter=6"});
}

TEST_CASE("the CUDA Math API's other functions and the fast intrinsics, computed exactly", "[frontend][language]") {
  // Values each function gives exactly (so that the approximate GPU intrinsics would too).
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ observe out
__device__ int out[12];
__global__ void k() {
  out[0] = (int)(__expf(0.0f) + __logf(1.0f) + __sinf(0.0f) + __cosf(0.0f)); // 1 + 0 + 0 + 1
  out[1] = (int)(__powf(2.0f, 10.0f) + __fdividef(1.0f, 4.0f) * 4.0f);      // 1024 + 1
  out[2] = (int)(exp2f(3.0f) * 10.0f + log2f(8.0f) + __log2f(4.0f));          // 80 + 3 + 2
  out[3] = (int)(log10f(1000.0f) + log10(100.0) * 10.0 + __exp10f(2.0f));    // 3 + 20 + 100
  out[4] = (int)(rsqrtf(4.0f) * 10.0f + rsqrt(16.0) * 100.0);                 // 5 + 25
  out[5] = (int)(truncf(-2.7f) * 10.0f + roundf(2.5f) + round(-1.5));         // -20 + 3 - 2
  out[6] = (int)(fmodf(7.0f, 3.0f) + fmod(-7.0, 3.0) * 10.0);                 // 1 - 10
  out[7] = (int)(fmaf(2.0f, 3.0f, 1.0f) + fma(1.5, 2.0, 0.5) * 10.0);        // 7 + 35
  out[8] = (int)(hypotf(3.0f, 4.0f) + hypot(5.0, 12.0) * 10.0 + cbrtf(27.0f) * 100.0f); // 5 + 130 + 300
  out[9] = (int)(atan2f(0.0f, 1.0f) + atanf(0.0f) + tanhf(0.0f) + erff(0.0f) + asinf(0.0f)); // 0
  out[10] = (int)(acosf(1.0f) + trunc(3.9) + exp2(4.0) + log2(2.0) + cbrt(8.0) + __tanf(0.0f)); // 0+3+16+1+2
  out[11] = (int)(__log10f(100.0f) + tanh(0.0) + atan(0.0) + asin(0.0) + acos(1.0) + erf(0.0) + atan2(0.0, 1.0)); // 2
}
)") == std::set<std::string>{"out[0]=2 out[1]=1025 out[2]=85 out[3]=123 out[4]=30 out[5]=-19 out[6]=-9 "
                             "out[7]=42 out[8]=435 out[9]=0 out[10]=22 out[11]=2"});
}

TEST_CASE("as the CUDA samples write them: linkage blocks, __align__, __launch_bounds__ first, functional casts "
          "in parentheses, the toolkit's version macros", "[frontend][language]") {
  // A survey of the 175 .cu files of NVIDIA/cuda-samples found each of these stopping some.
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ observe x y
//@ arg unused: float[1] = zeros
#if CUDART_VERSION >= 2020 && __cplusplus >= 201103L && defined(__linux__) && __CUDACC_VER_MAJOR__ >= 11
__device__ int x[2], y[2];
#endif
#ifdef __cplusplus
extern "C" {
#endif
__device__ int twice(int v) { return 2 * v; }
#ifdef __cplusplus
}
#endif
struct __align__(8) Pair { int a; int b; };
__launch_bounds__(128) __global__ void k(float* __restrict unused) {
  int i = 0;
  x[i] = y[i] = 3;
  float w = 0.5f;
  x[1] = (unsigned(w * 255.0f) << 8) | twice((int)float(i) + int(w * 4.0f));
  Pair p;
  p.a = 1;
  p.b = 2;
  y[1] = p.a + p.b;
}
)") == std::set<std::string>{"x[0]=3 x[1]=32516 y[0]=3 y[1]=3"});
  // #error says its message.
  const auto stopped =
      compile_text("#ifndef NEEDED\n#error \"NEEDED must be defined\" (see README)\n#endif\n__global__ void k() {}\n");
  CHECK(stopped->messages() == "k.cu:2:1: error: #error \"NEEDED must be defined\" (see README)\n");
}

TEST_CASE("a file's own min/max templates give way to the CUDA math functions, other builtins cannot be redefined",
          "[frontend][language]") {
  // As the eigenvalues sample's util.h defines them (with reference parameters).
  const std::string kernel = R"(
//@ launch grid=1 block=1
//@ observe out
template <class T> __host__ __device__ T min(const T &lhs, const T &rhs) { return (lhs < rhs) ? lhs : rhs; }
template <class T> __host__ __device__ T max(const T &lhs, const T &rhs) { return (lhs < rhs) ? rhs : lhs; }
__device__ int out;
__global__ void k() { int a = 3; out = min(a, 5) * 10 + max(2, a + 1); }
)";
  CHECK(small_kernel_outcomes(kernel) == std::set<std::string>{"out=34"});
  const auto compiled = compile_text(kernel);
  CHECK(compiled->messages() == "k.cu:4:42: note: 'min' is a CUDA math function here: calls use it, not this definition\n"
                                "k.cu:5:42: note: 'max' is a CUDA math function here: calls use it, not this definition\n");
  CHECK(diagnostic_messages("__device__ int atomicAdd(int* p, int v) { return 0; }\n__global__ void k() {}\n") ==
        std::vector<std::string>{"'atomicAdd' is a builtin function and cannot be redefined"});
}

TEST_CASE("a NaN converts to bool as true ([conv.bool]) and to an integer as 0 (cvt.rzi)", "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ arg zero = 0.0
//@ observe out
__device__ int out[4];
__global__ void k(float zero) {
  float f = zero / zero;
  double d = f;
  out[0] = (bool)f;
  out[1] = (bool)d;
  out[2] = (int)f;
  bool b = f;
  out[3] = b ? 1 : 0;
}
)") == std::set<std::string>{"out[0]=1 out[1]=1 out[2]=0 out[3]=1"});
}

TEST_CASE("a failed assert is an assertion-failed report with a witness, a holding one is nothing",
          "[frontend][language][checkers]") {
  const std::string text = R"(
//@ launch grid=1 block=2
__device__ int flag;
__global__ void k() {
  if (threadIdx.x == 0) atomicExch(&flag, 1);
  else assert(atomicAdd(&flag, 0) == 0);
}
)";
  Kernel k = kernel_from_text(text);
  Checkers checkers(k.program());
  auto model = create_model("sc");
  const ExplorationResult r = explore_checked(*k.machine, *model, checkers, CheckBudget{});
  REQUIRE(r.complete);
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports.front().report.kind == DiagnosticKind::AssertionFailed);
  CHECK(r.reports.front().report.message == "assertion failed");
  // Its witness replays to the failing execution.
  ReplayError error;
  const auto replayed = replay(*k.machine, *model, r.reports.front().report.witness, nullptr, error);
  REQUIRE(replayed);
  CHECK(replayed->outcome.status == ExecutionStatus::RuntimeError);
}

TEST_CASE("an extern __shared__ array takes its size from shared= in the launch directive", "[frontend][language]") {
  const std::string kernel = R"(
__global__ void sum(const int* in, int* out) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
)";
  const std::string harness = "//@ arg in: int[8] = iota(1)\n//@ arg out: int[2] = zeros\n//@ observe out\n";
  CHECK(small_kernel_outcomes("//@ launch grid=2 block=4 shared=16\n" + harness + kernel) ==
        std::set<std::string>{"out[0]=10 out[1]=26"});
  // 8 bytes hold two ints: thread 2's store is out of bounds.
  {
    Kernel k = kernel_from_text("//@ launch grid=1 block=4 shared=8\n" + harness + kernel);
    auto model = create_model("sc");
    const ExplorationResult r = explore_random(*k.machine, *model, RandomOptions{20, 1});
    REQUIRE_FALSE(r.outcomes.empty());
    for (const OutcomeCount& o : r.outcomes) CHECK(o.outcome.status == ExecutionStatus::RuntimeError);
  }
  CHECK(diagnostic_messages("//@ launch grid=1 block=4\n" + harness + kernel) ==
        std::vector<std::string>{"the extern __shared__ array 's' needs the launch's dynamic shared memory: add "
                                 "shared=BYTES to //@ launch"});
  CHECK(diagnostic_messages("//@ launch shared=8\n__global__ void k() { extern __shared__ float a[]; "
                               "extern __shared__ int b[]; a[0] = b[0]; }") ==
        std::vector<std::string>{"not supported: extern __shared__ arrays of different types ('a' is float, 'b' "
                                 "int): in CUDA they share one address"});
  // Of one type, a second is another name of the same memory (threadFenceReduction's reduceBlocks
  // and reduceSinglePass each declare one).
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=2 shared=8
//@ observe out
__device__ int out[2];
__device__ void fill() { extern __shared__ int first[]; first[threadIdx.x] = 10 + threadIdx.x; }
__global__ void k() {
  fill();
  __syncthreads();
  extern int __shared__ second[];
  out[threadIdx.x] = second[1 - threadIdx.x];
}
)") == std::set<std::string>{"out[0]=11 out[1]=10"});
}

TEST_CASE("multi-dimensional arrays are row-major runs of elements, indexed in every dimension",
          "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ observe out
__device__ int g[2][3][4];
__device__ int out[4];
__global__ void k() {
  int local[2][2];
  local[1][0] = 3;
  g[1][2][3] = 7;
  out[0] = local[1][0] + g[1][2][3];
  out[1] = sizeof(g);
  int* p = &g[1][0][0];
  out[2] = p[11];                 // g[1][2][3], row-major
  __shared__ float tile[2][3];
  tile[1][2] = 2.5f;
  out[3] = (int)(tile[1][2] * 2);
}
)") == std::set<std::string>{"out[0]=10 out[1]=96 out[2]=7 out[3]=5"});
  CHECK(diagnostic_messages(R"(
//@ launch grid=1 block=1
__device__ int g[2][3];
__device__ int h[2][3] = {1, 2, 3, 4, 5, 6};
__global__ void k() { int* row = g[1]; }
)") == std::vector<std::string>{
             "not supported: initializers of multi-dimensional arrays (and leaving out their size)",
             "not supported: indexing 'g' with 1 of its 2 dimensions (a row of a multi-dimensional array); index "
             "every dimension",
         });
}

TEST_CASE("clock and clock64 grow by a fixed step per read of a thread, so delay loops end",
          "[frontend][language]") {
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=2
//@ observe out
__device__ long long out[2];
__global__ void k() {
  long long start = clock64();
  while (clock64() - start < 100000) { }
  clock_t c = clock();
  out[threadIdx.x] = clock64() - start + (c > 0 ? 1 : 0);
}
)") == std::set<std::string>{"out[0]=102001 out[1]=102001"});
}

// References are pointers the source does not spell (parse_references.cpp): each use is one
// access of the object referred to, so a swap through references in shared memory, an update
// through a reference parameter and a spin on a `const volatile int&` behave as in CUDA. A
// local whose address is taken lives in the thread's private memory, so references and
// pointers to locals and parameters work too, and stay invisible to the other threads.
TEST_CASE("references to objects in memory: parameters and locals alias what they name", "[frontend][language]") {
  const std::string text = R"(
//@ launch grid=1 block=2
//@ observe out
__device__ int out[4];
__device__ volatile int ready;
__device__ void swap(int& a, int& b) { int t = a; a = b; b = t; }
__device__ void bump(int& counter, const int& by) { counter += by; }
__device__ void wait_for(const volatile int& flag) { while (flag == 0) {} }
__global__ void k() {
  __shared__ int s[2];
  s[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0) swap(s[0], s[1]);
  __syncthreads();
  int& r = out[threadIdx.x];
  r = s[threadIdx.x] * 10;
  bump(out[2 + threadIdx.x], s[threadIdx.x]);
  if (threadIdx.x == 0) ready = 1;
  else wait_for(ready);
}
)";
  Kernel k = kernel_from_text(text);
  for (const char* model_name : kModelNames) {
    INFO(model_name);
    auto model = create_model(model_name);
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{1000});
    REQUIRE(r.complete);
    CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=20 out[1]=10 out[2]=2 out[3]=1"});
  }
  // Locals and parameters by reference and by address; the private cells add no visible events.
  Kernel locals = kernel_from_text(R"(
//@ launch grid=1 block=2
//@ observe out
__device__ int out[2];
__device__ void swap(int& a, int& b) { int t = a; a = b; b = t; }
__device__ void twice(int* p) { *p *= 2; }
__device__ int add_then_double(int v, int by) { int& w = v; w += by; twice(&v); return v; }
__global__ void k() {
  int x = threadIdx.x, y = 10;
  swap(x, y);
  for (int i = 0; i < 3; ++i) { int& r = y; r += 1; }
  out[threadIdx.x] = add_then_double(x, y);
}
)");
  for (const char* model_name : kModelNames) {
    INFO(model_name);
    auto model = create_model(model_name);
    const ExplorationResult r = explore_exhaustive(*locals.machine, *model, ExhaustiveOptions{1000});
    REQUIRE(r.complete);
    CHECK(r.executions == 1); // stores to two elements, and no visible event from the private cells
    CHECK(outcome_strings(locals.program(), r) == std::set<std::string>{"out[0]=26 out[1]=28"});
  }
  // Two threads storing through a reference to one __device__ variable race on it.
  Kernel racy = kernel_from_text("//@ launch grid=1 block=2\n__device__ int x;\n"
                                 "__device__ void set(int& v) { v = threadIdx.x; }\n__global__ void k() { set(x); }\n");
  Checkers checkers(racy.program());
  auto model = create_model("gpu");
  const ExplorationResult r = explore_checked(*racy.machine, *model, checkers, CheckBudget{});
  REQUIRE(r.complete);
  REQUIRE(r.reports.size() == 1);
  CHECK(r.reports.front().report.kind == DiagnosticKind::DataRace);
}

TEST_CASE("references the lowering cannot give are named at their place", "[frontend][language]") {
  const std::string head = "//@ launch grid=1 block=1\n__device__ int g;\n";
  auto first = [&](const std::string& code) {
    const std::vector<std::string> messages = diagnostic_messages(head + code);
    return messages.empty() ? std::string("(no error)") : messages.front();
  };
  CHECK(first("//@ observe k.x\n__global__ void k() { int x = 1; int& r = x; r = 2; }") ==
        "not supported: observing a local whose address is taken or that a reference names ('x'); observe a "
        "__device__ variable instead");
  CHECK(first("__global__ void k() { int a[2]; void* p = &a; }") ==
        "not supported: taking the address of a local array ('a'); its name is already a pointer to its first "
        "element");
  CHECK(first("__device__ void f(const int& a) {}\n__global__ void k() { f(g + 1); }") ==
        "not supported: binding parameter 1 of 'f' to a value that is not a variable (a temporary); store it in a "
        "variable first");
  CHECK(first("__global__ void k(int& a) {}") ==
        "not supported: a reference parameter of a __global__ function (kernel arguments are passed by value; pass a "
        "pointer)");
  CHECK(first("__device__ void f(int&& a) {}\n__global__ void k() {}") == "not supported: rvalue references ('&&')");
  CHECK(first("__device__ void f(float4& v) {}\n__global__ void k() {}") ==
        "not supported: a reference to float4 (use a pointer)");
  CHECK(first("__device__ int& r = g;\n__global__ void k() {}") ==
        "not supported: a reference here (references are supported as parameters of __device__ functions and as "
        "local variables)");
  CHECK(first("__global__ void k() { int& r; }") == "the reference 'r' needs an object to refer to ('T& r = variable;')");
  CHECK(first("__device__ int& f() { return g; }\n__global__ void k() {}") ==
        "not supported: a reference here (references are supported as parameters of __device__ functions and as "
        "local variables)");
}

TEST_CASE("every construct still outside the language is named as not supported at its place",
          "[frontend][language]") {
  struct Case {
    const char* code; ///< on line 3 of a kernel file
    const char* first_line;
  };
  const Case cases[] = {
      {"struct Lock { int mutex; int* owner; }; __device__ void f(Lock* l) {}",
       "k.cu:3:59: error: not supported: a pointer to Lock (it has a pointer field ('owner'); structs lie in memory "
       "here only when their fields are scalars of one size)"},
      {"struct Lock { int* mutex; __device__ ~Lock() {} };",
       "k.cu:3:27: error: not supported: a __device__ destructor ('~Lock')"},
      {"struct P { int a; __device__ int operator+(P o) { return a; } }; __device__ void f(P p) { p = p + p; }",
       "k.cu:3:97: error: not supported: operator '+' on a whole P (there are no operators on struct values here: "
       "write each field)"},
      {"template <class T> struct SharedMemory { __device__ operator T*(); };",
       "k.cu:3:20: error: not supported: struct and class templates"},
      {"__device__ void f(float&& a) {}", "k.cu:3:24: error: not supported: rvalue references ('&&')"},
      {"__device__ void f() { half2 h; }", "k.cu:3:23: error: not supported: half-precision type 'half2'"},
      {"__device__ void f() { __half2 h; }", "k.cu:3:23: error: not supported: half-precision type '__half2'"},
      {"__device__ void f() { __nv_bfloat16 h; }",
       "k.cu:3:23: error: not supported: half-precision type '__nv_bfloat16'"},
      {"__device__ auto f() { return 1; }",
       "k.cu:3:12: error: not supported: 'auto' here (it is supported for local variables; write the type)"},
      {"__device__ void f() { int x = [] { return 1; }(); }", "k.cu:3:31: error: not supported: lambdas"},
      {"__device__ void f() { bool b = std::is_integral<int>::value; }",
       "k.cu:3:32: error: not supported: qualified names ('std::')"},
      {"__device__ void f() { enum class E { A }; }",
       "k.cu:3:23: error: not supported: scoped enumerations (enum class); use a plain enum"},
      {"__device__ float4* f(float4* p) { return p; }",
       "k.cu:3:1: error: not supported: a function returning a pointer to float4"},
      {"__device__ void f(int* p) { int* q = new int; }",
       "k.cu:3:38: error: not supported: 'new' (dynamic allocation)"},
      {"__device__ void f() { int x = 0; goto end; end: x = 1; }", "k.cu:3:34: error: not supported: goto"},
  };
  for (const Case& c : cases) {
    const auto compiled = compile_text(std::string("//@ launch grid=1 block=1\n__global__ void k() {}\n") + c.code + "\n");
    INFO(c.code << "\n" << compiled->rendered());
    const std::string messages = compiled->messages();
    CHECK(messages.substr(0, messages.find('\n')) == c.first_line);
  }
}

TEST_CASE("code that uses an unsupported struct template gives that one error, not a cascade",
          "[frontend][language]") {
  // The template is skipped, so its name and the variables of its type are unknown where they
  // are used: before, each use added an error ("expected '('", "unknown identifier", ...).
  const auto compiled = compile_text(R"(//@ launch grid=1 block=2
template <typename T> struct Pair { T a; T b; };
__device__ int X;
__global__ void k() {
  Pair<int> p;
  p.a = threadIdx.x;
  X = p.a;
  undeclared = 1;
}
)");
  INFO(compiled->rendered());
  REQUIRE(compiled->program == nullptr);
  const std::string messages = compiled->messages();
  CHECK(messages.find("k.cu:2:23: error: not supported: struct and class templates") == 0);
  CHECK(messages.find("unknown identifier") == std::string::npos);
  CHECK(messages.find("expected '('") == std::string::npos);
  CHECK(messages.find("member access") == std::string::npos);
  CHECK(messages.find("k.cu:2:23: note: 8 later errors are not shown: they may follow from this one") !=
        std::string::npos);
  // Errors before the template are all shown.
  const auto before = compile_text(R"(//@ launch grid=1 block=1
__device__ int a = undeclared_before;
template <typename T> struct Pair { T a; };
__global__ void k() { Pair<int> p; }
)");
  CHECK(before->messages().find("unknown identifier 'undeclared_before'") != std::string::npos);
}

TEST_CASE("a macro that reads one location twice is two reads, not a spin loop", "[frontend][language][machine]") {
  // MAX(v, m[1]) expands to two reads of m[1] with the same source range and nothing private
  // changed between them: the spin recognition took the second for a repeated no-op iteration
  // and reported a deadlock. Reads are told apart by their expression, not their range.
  CHECK(small_kernel_outcomes(R"(
//@ launch grid=1 block=1
//@ observe out
#define MAX(a, b) ((a) > (b) ? (a) : (b))
__device__ int m[2] = {4, 9};
__device__ int out;
__global__ void k() { int v = m[0]; out = MAX(v, m[1]); }
)") == std::set<std::string>{"out=9"});
}
