// The bytecode engine (src/machine/bytecode.h) against the AST walker, its reference: a kernel
// explored under each must give the same report, byte for byte: outcomes with their counts and
// witnesses, executions, events, diagnostics with their sites, every witness's trace step by
// step, and a random sample. Run on every catalogue and corpus kernel, on kernels written to
// use each construct the compiler handles and each it hands back to the AST, on generated
// litmus kernels, and on generated kernels with control flow (program_generator.h).
#include "bytecode_helpers.h"
#include "machine/bytecode.h"
#include "litmus_generator.h"
#include "machine_helpers.h"
#include "program_generator.h"

#include <compare>
#include <fmt/format.h>
#include <set>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("bytecode: loops, break, continue, switch, calls, recursion and operators as the AST runs them",
          "[bytecode]") {
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[8] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5] out[6] out[7]
__device__ int flag;
__device__ int table[4] = {1, 2, 3, 4};
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ void bump(int* p, int by = 2) { *p += by; }
__device__ int pick(int k) {
  switch (k) { case 0: return 10; case 1: k += 5; break; default: k = -k; }
  return k;
}
__global__ void k(int* out) {
  int t = threadIdx.x;
  int sum = 0;
  for (int i = 0; i < 6; i++) {
    if (i == 1) continue;
    if (i == 4) break;
    sum += i;
  }
  int j = 0;
  while (true) { j++; if (j >= 3) break; }
  int d = 0;
  do { d += 2; if (d == 4) continue; } while (d < 7);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) { if (b == a) continue; sum += a * b; }
  int s = 0;
  for (int i = 0; i < 4; ++i) {
    switch (i) { case 0: continue; case 1: s += 10; break; case 3: s += 1000; break; default: s += 100; }
    s += 1;
    if (s > 1000) break;
  }
  out[t] = sum + j * 100 + d * 1000;
  out[2 + t] += fact(t + 3) + pick(t) + s;
  bump(&out[4 + t]);
  bump(&out[4 + t], t);
  out[6 + t] = (t > 0 && flag == 0) || table[t] == 9 ? -1 : (t, 7);
  int* p = out + 6;
  p++;
  --p;
  out[6 + t] -= p[t] - *(p + t) + (int)(p - out);
  out[6 + t] <<= 1;
  unsigned u = 3u;
  u = ~u >> 28;
  out[6 + t] += (int)u % 5 + !t - -t;
  float f = 1.5f;
  f *= t + 1;
  out[6 + t] += (int)f;
  if (t == 0) flag = 1; else flag++;
}
)",
             4);
}

TEST_CASE("bytecode: stores to globals and through computed addresses", "[bytecode]") {
  // A global's store is one instruction; an address computed by a conditional (whose branches
  // jump to its end) is not, so jumps must still land where the store's pointer is pushed.
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[4] = zeros
//@ observe g h out[0] out[1] out[2] out[3]
__device__ int g;
__device__ int h;
__global__ void k(int* out) {
  int t = threadIdx.x;
  *(t == 0 ? out : &g) = 5;
  *(t == 1 ? &h : out + 1) = 6;
  g = t > 0 ? 7 : 8;
  *&h += 2;
  out[2 + t] = (g = 3) + t;
  out[(h = 1) + 2] += 1;
  h++;
  --g;
}
)",
             1);
}

TEST_CASE("bytecode: locals whose address is taken, local arrays and observed locals", "[bytecode]") {
  check_text(R"(
//@ launch grid=1 block=1
//@ observe k.r k.q
__device__ void set(int& x, int v) { x = v; }
__global__ void k() {
  int arr[4] = {1, 2, 3, 4};
  int x = 5;
  int* px = &x;
  *px += arr[threadIdx.x + 1];
  set(x, x * 2);
  arr[0] = x;
  int r = arr[0] + arr[3];
  int q;
  q = r++ + ++r;
  q += r--;
  x++;
}
)",
             2);
}

TEST_CASE("bytecode: __syncthreads_count, _and and _or return what they do on the AST", "[bytecode]") {
  // Compiled to the Barrier instruction (its predicate popped), not run on the AST.
  const std::string text = R"(
//@ launch grid=1 block=4
//@ arg out: int[3] = zeros
//@ observe out[0] out[1] out[2]
__global__ void k(int* out) {
  int c = __syncthreads_count(threadIdx.x & 1);
  int a = __syncthreads_and(threadIdx.x < 4);
  int o = __syncthreads_or(threadIdx.x == 7);
  if (threadIdx.x == 0) { out[0] = c; out[1] = a; out[2] = o; }
}
)";
  check_text(text, 1);
  for (const Engine engine : {Engine::Ast, Engine::Bytecode}) {
    MachineOptions options;
    options.engine = engine;
    Kernel k = kernel_from_text(text, options);
    auto model = create_model("sc");
    const ExplorationResult r = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{100});
    REQUIRE(r.complete);
    CHECK(outcome_strings(k.program(), r) == std::set<std::string>{"out[0]=2 out[1]=1 out[2]=0"});
  }
}

TEST_CASE("bytecode: barriers and atomics called as statements leave no value behind", "[bytecode]") {
  // A barrier called as a statement pushes no result to be popped, and only an atomic called
  // as a statement is marked discarded (AtomicUpdate::unobserved): the values computed around
  // them, on the operand stack between the calls, must come out as on the AST. The loop runs
  // more barriers than the operand stack has room for, so that a result left behind by each
  // would overflow it.
  check_text(R"(
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
//@ observe out[0] out[1] out[2] out[3]
__device__ int total;
__global__ void k(int* out) {
  int acc = 0;
  for (int i = 0; i < 40; ++i) {
    __syncthreads_count(threadIdx.x < i);
    acc += __syncthreads_or(threadIdx.x == i % 4) * 10 + i;
    __syncthreads();
    atomicAdd(&total, acc);
    acc += atomicAdd(&total, 0) > 0 ? 100 : 0;
    __syncthreads_and(acc > 0);
  }
  out[threadIdx.x] = acc;
}
)",
             1, {}, 200);
}

TEST_CASE("bytecode: compound assignments to integer locals, each operator and width, as the AST does them",
          "[bytecode]") {
  // Opcode::CompoundSlotInteger (a local of its own computation type) and CompoundSlot (one
  // that is promoted: char, short, unsigned char; bool; a float) side by side, wrapping and
  // sign-extending; the last shift's count is out of range in thread 1 only, which the fast
  // path leaves to compound_assign to report.
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: long long[8] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5] out[6] out[7]
__global__ void k(long long* out) {
  int t = threadIdx.x;
  int i = 2147483000 + t;
  unsigned u = 4294967000u - t;
  long long l = -9000000000000000000ll + t;
  unsigned long long ul = 18000000000000000000ull;
  char c = 120;
  short h = -32000;
  unsigned char b = 250;
  bool f = false;
  float x = 1.5f;
  i += 1000; i -= -7; i *= 3; i &= 0x7ffff0ff; i |= 0x100; i ^= t; i <<= 3; i >>= 2;
  u += 1000u; u -= 7u; u *= 5u; u &= 0xfffffff0u; u |= 1u; u ^= 3u; u <<= 4; u >>= 3;
  l += -1000000000000000000ll; l -= 5; l *= 3; l ^= 0x55; l <<= 1; l >>= 7;
  ul += 1000000000000000000ull; ul *= 3ull; ul >>= 5; ul <<= 60;
  c += 100; h -= 1000; b += 10; b <<= 1; f |= t; x *= 3;
  out[0 + t] = i + (long long)u;
  out[2 + t] = l ^ (long long)ul;
  out[4 + t] = c + h + b + f + (long long)x;
  int s = 1;
  s <<= 31 + t;
  out[6 + t] = s;
}
)",
             1);
  // Statements `x op= constant` (Opcode::CompoundSlotConst), counts at either end of the
  // range; then a constant count out of range, which is left to compound_assign to report.
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: long long[6] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5]
__global__ void k(long long* out) {
  int t = threadIdx.x;
  int i = -5 - t;
  unsigned u = 3000000000u + t;
  long long l = -3 - t;
  unsigned long long ul = 7 + t;
  i >>= 1; i <<= 31; i >>= 31; i += 2147483647; i ^= 12345; i -= 3; i *= -7;
  u >>= 31; u <<= 0; u += 4294967295u; u *= 3u; u |= 8u; u &= 0xffu;
  l >>= 63; l <<= 62; l >>= 1; l *= 5; l += 9223372036854775807ll;
  ul <<= 63; ul >>= 62; ul -= 5; ul ^= 1;
  out[0 + t] = i + (long long)u;
  out[2 + t] = l ^ (long long)ul;
  int j = 3 + t;
  j <<= 30; // the last operation on j: its word must be canonical as it stands
  out[4 + t] = (long long)j + (j < 0 ? 1000 : 0);
}
)",
             1);
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__global__ void k(int* out) {
  unsigned w = 1u;
  out[threadIdx.x] = 1;
  if (threadIdx.x == 1) w <<= 32u;
  out[threadIdx.x] = w;
}
)",
             1);
}

TEST_CASE("bytecode: division and remainder by constants, each width and sign, as the AST does them",
          "[bytecode]") {
  // A constant divisor that is neither 0 nor a signed -1 compiles to IntegerBinary
  // (FunctionCompiler::divides_without_error): truncation toward zero, negative dividends and
  // divisors (a cast of a literal is one constant; `-3` is a negation, not one), INT_MIN and
  // LLONG_MIN, promoted chars, unsigned words above 2^31. Divisors of -1 (INT_MIN / -1 wraps)
  // and a variable one keep the general instruction; a variable 0 is thread 1's error.
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: long long[16] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5] out[6] out[7] out[8] out[9] out[10] out[11]
__global__ void k(long long* out) {
  int t = threadIdx.x;
  int v = -7 + 9 * t;
  int m = -2147483647 - 1 + t;
  unsigned u = 4294967295u - t;
  long long l = -9223372036854775807ll - 1 + t;
  unsigned long long ul = 18446744073709551615ull - t;
  char c = -7 + 14 * t;
  out[0 + t] = v / 2 + (v % 3) * 100 + (v / (int)4294967293u) * 10000 + (v % (int)4294967292u) * 1000000;
  out[2 + t] = m / 2 + m % 7 + m / (int)4294967294u + m / (int)4294967295u + m % (int)4294967295u;
  out[4 + t] = u / 3u + u % 5u + u / 4294967295u;
  out[6 + t] = l / 2 + l % 10 + (l + 1) / (long long)18446744073709551609ull +
               l % (long long)18446744073709551615ull + l / (long long)18446744073709551615ull;
  out[8 + t] = (long long)(ul / 3ull + ul % 1000ull) + c / 2 + c % 2;
  int d = 1 - t;
  out[10 + t] = 100 / (d + 2);
}
)",
             1);
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__global__ void k(int* out) {
  int d = 1 - threadIdx.x;
  out[threadIdx.x] = 100 / 4 + 100 % d;
}
)",
             1);
}

TEST_CASE("bytecode: ++ and -- as statements on integer locals, each width, wrapping, as the AST does them",
          "[bytecode]") {
  // Locals of int's rank or wider become CompoundSlotConst (x += 1, x -= 1:
  // FunctionCompiler::increment_as_compound), at both ends of their ranges; narrower ones,
  // pointers and an increment whose value is read keep IncrementSlot (++ on bool is not C++17).
  // An observed local (one thread's) records its last value.
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: long long[10] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5] out[6] out[7] out[8] out[9] k.o
__global__ void k(long long* out) {
  int t = threadIdx.x;
  int i = 2147483646 + t;
  unsigned u = 1u - t;
  long long l = -9223372036854775807ll - t;
  unsigned long long ul = 18446744073709551614ull + t;
  char c = 126 + t;
  short h = -32767 - t;
  unsigned char b = 254 + t;
  int* p = (int*)out;
  i++; ++i; u--; --u; u--; l--; --l; l++; ul++; ++ul; c++; ++c; h--; --h; b++; b++; p++;
  for (int j = 0; j < 3; j++) i--;
  for (unsigned k = 2; k > 0; k--) ul--;
  int v = i++;
  int w = --i;
  out[0 + t] = i + (long long)u + v + w;
  out[2 + t] = l ^ (long long)ul;
  out[4 + t] = c + h + b;
  out[6 + t] = p - (int*)out;
  out[8 + t] = v - w;
  if (t == 0) {
    int o = 2147483647;
    o++;
    o--;
    o--;
  }
}
)",
             1);
}

TEST_CASE("bytecode: comparisons of locals as conditions, each operator, signedness and width, as the AST "
          "does them",
          "[bytecode]") {
  // Opcode::CompareJump and CompareJumpConst (a local against a local or a constant) in every
  // place a condition jumps: if (jumps when false), do-while, && and || (when true or false),
  // ?: and for; signed and unsigned words that order differently (-1 against 1u), each width.
  // Each thread sets one bit per condition that held.
  check_text(R"(
//@ launch grid=1 block=4
//@ arg out: unsigned long long[16] = zeros
//@ observe out[0] out[1] out[2] out[3] out[4] out[5] out[6] out[7] out[8] out[9] out[10] out[11]
__global__ void k(unsigned long long* out) {
  int t = threadIdx.x;
  int a = t - 2, b = 1;
  unsigned u = t * 2147483648u, v = 1u;
  long long l = -4294967296ll + t * 4294967296ll, m = 0;
  unsigned long long p = t * 9223372036854775808ull, q = 5;
  char c = t - 1;
  unsigned long long bits = 0, more = 0;
  if (a < b) bits |= 1; if (a <= b) bits |= 2; if (a > b) bits |= 4; if (a >= b) bits |= 8;
  if (a == b) bits |= 16; if (a != b) bits |= 32; if (a < 0) bits |= 64; if (a >= -1) bits |= 128;
  if (u < v) bits |= 256; if (u > v) bits |= 512; if (u <= 2147483648u) bits |= 1024; if (u != 0u) bits |= 2048;
  if (l < m) bits |= 4096; if (l > m) bits |= 8192; if (l == 0) bits |= 16384; if (l >= -4294967296ll) bits |= 32768;
  if (p < q) bits |= 65536; if (p > q) bits |= 131072; if (p == 9223372036854775808ull) bits |= 262144;
  if (c < 1) bits |= 524288; if (c == -1) bits |= 1048576;
  if (a < b && u > v) more |= 1; if (a > b || l < m) more |= 2; if (a == b || p != q) more |= 4;
  if (!(a < b) && !(l >= m)) more |= 8;
  more |= (a <= b ? 16 : 32) | (u >= v ? 64 : 128) | (p < q ? 256 : 512);
  int n = 0;
  do { n++; } while (n < b + 3);
  for (int i = a; i < 3; i++) n += 10;
  for (unsigned j = 0; j != u / 1073741824u; j++) n += 100;
  while (m > l) { m -= 4294967296ll; n += 1000; }
  out[t] = bits;
  out[4 + t] = more;
  out[8 + t] = n;
}
)",
             1);
}

TEST_CASE("bytecode: runtime errors and limits stop where the AST's do", "[bytecode]") {
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__global__ void k(int* out) {
  int z = threadIdx.x;
  out[z] = 10 / z;
  out[z + 1] = 1;
}
)",
             1);
  MachineOptions few_local_steps;
  few_local_steps.max_local_steps = 5000;
  check_text(R"(
//@ launch grid=1 block=2
//@ arg out: int[1] = zeros
//@ observe out[0]
__global__ void k(int* out) {
  int a = 0, b = 0;
  if (threadIdx.x == 0) {
    for (int i = 0; ; i++) {
      a++;
      ;
      b += a;
    }
  }
  if (threadIdx.x == 1) {
    while (true) {
      { }
      ;
    }
  }
  out[0] = 1;
}
)",
             1, few_local_steps);
}

TEST_CASE("bytecode: recursion ends at the same call depth as on the AST, set by --stack-size", "[bytecode]") {
  // The compiled call's native frame is larger than the walked one's (342 against 396 levels
  // once, in a RelWithDebInfo build): the depth is counted, so both stop at the same one.
  const std::string text = R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__device__ int down(int n, int a) { int l[2]; l[n & 1] = a; return n == 0 ? a : down(n - 1, a + l[n & 1]) + 1; }
__global__ void k(int* out) { out[threadIdx.x] = down(threadIdx.x == 0 ? 20 : 100000, 1); }
)";
  auto compiled = compile_text(text);
  REQUIRE(compiled->program != nullptr);
  check_same(*compiled->program, 50);
  for (const uint32_t stack_size : {256u * 1024, 1024u * 1024}) {
    for (const Engine engine : {Engine::Ast, Engine::Bytecode}) {
      MachineOptions options;
      options.engine = engine;
      options.stack_size = stack_size;
      Machine machine(*compiled->program, options);
      auto model = create_model("sc");
      const ExplorationResult r = explore_exhaustive(machine, *model, ExhaustiveOptions{10});
      REQUIRE(r.outcomes.size() == 1);
      const std::string& message = r.outcomes.front().outcome.message;
      INFO(message);
      // 1.5 KiB of the room for calls (all but a quarter, at most 64 KiB) a level; a sanitized
      // build allows more a level (machine_impl.h).
      const size_t depth = machine.call_depth_limit();
      CHECK(depth <= (stack_size - std::min<size_t>(64 * 1024, stack_size / 4)) / 1536);
      CHECK(depth >= (stack_size - std::min<size_t>(64 * 1024, stack_size / 4)) / (8 * 1024));
      CHECK(message.find(fmt::format("recursion too deep at call depth {}:", depth)) != std::string::npos);
    }
  }
}

TEST_CASE("bytecode: a function whose expressions nest deeper than its stack runs on the AST", "[bytecode]") {
  std::string nested = "x";
  for (int i = 0; i < 40; ++i) nested = "(x + " + nested + ")"; // 41 values on the stack at once
  const std::string text = R"(
//@ launch grid=1 block=2
//@ arg out: int[2] = zeros
//@ observe out[0] out[1]
__device__ int deep(int x) { return )" + nested + R"(; }
__global__ void k(int* out) { out[threadIdx.x] = deep(threadIdx.x + 1); }
)";
  auto compiled = compile_text(text);
  REQUIRE(compiled->program != nullptr);
  MachineOptions options;
  options.engine = Engine::Bytecode;
  CHECK(Machine(*compiled->program, options).compiled_functions() == 1); // the kernel, not deep()
  check_same(*compiled->program, 100);
  auto model = create_model("sc");
  Machine machine(*compiled->program, options);
  const ExplorationResult r = explore_exhaustive(machine, *model, ExhaustiveOptions{100});
  CHECK(outcome_strings(*compiled->program, r) == std::set<std::string>{"out[0]=41 out[1]=82"});
}

TEST_CASE("bytecode: recursion, a defaulted argument and calls nested past the operand stack keep fibers",
          "[bytecode]") {
  // Bytecode::mark_stackless: a kernel runs stackless only if every function it can call is
  // compiled, called with every argument (a default argument is evaluated on the AST), not
  // recursive, and the operand stack of its deepest chain of calls fits Bytecode::kMaxStack.
  // Each refusal beside a kernel that differs from it only in that one respect and is accepted;
  // both run alike on every engine.
  const auto runs_stackless = [](const std::string& functions, const std::string& value) {
    const std::string text = "//@ launch grid=1 block=2\n//@ arg out: int[2] = zeros\n//@ observe out[0] out[1]\n" +
                             functions + "\n__global__ void k(int* out) { int x = threadIdx.x + 3; out[threadIdx.x] = " +
                             value + "; }\n";
    auto compiled = compile_text(text);
    INFO(text << compiled->rendered());
    REQUIRE(compiled->program != nullptr);
    check_same(*compiled->program, 50);
    return Machine(*compiled->program, MachineOptions{}).runs_stackless();
  };
  SECTION("recursion, direct or through another function") {
    CHECK_FALSE(runs_stackless("__device__ int sum(int n) { return n == 0 ? 0 : n + sum(n - 1); }", "sum(x)"));
    CHECK(runs_stackless("__device__ int sum(int n) { return n * (n + 1) / 2; }", "sum(x)"));
    const std::string mutual = "__device__ int odd(int n);\n"
                               "__device__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n"
                               "__device__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }";
    CHECK_FALSE(runs_stackless(mutual, "even(x)"));
    CHECK_FALSE(runs_stackless(mutual, "odd(x)"));
  }
  SECTION("a call that leaves an argument to its default") {
    const std::string add = "__device__ int add(int a, int b = 2) { return a + b; }";
    CHECK_FALSE(runs_stackless(add, "add(x)"));
    CHECK(runs_stackless(add, "add(x, 2)"));
  }
  SECTION("a chain of calls whose operand stacks together pass its size") {
    // nest(n, e): n values below e on the operand stack while e is evaluated.
    const auto nest = [](int n, std::string e) {
      // fmt::format, not "(x + " + e + ")": GCC 12 warns wrongly (-Wstringop-overflow) on the
      // concatenation once a profile-guided, link-time-optimized build inlines it.
      for (int i = 0; i < n; ++i) e = fmt::format("(x + {})", e);
      return e;
    };
    // inner needs about 13 words, outer about 25 (12 below its call of inner); the kernel adds
    // what lies below its call of outer: a few words fit in 32, ten more do not.
    const std::string functions = "__device__ int inner(int x) { return " + nest(12, "x") + "; }\n" +
                                  "__device__ int outer(int x) { return " + nest(12, "inner(x)") + "; }";
    CHECK(runs_stackless(functions, nest(0, "outer(x)")));
    CHECK_FALSE(runs_stackless(functions, nest(10, "outer(x)")));
  }
}

TEST_CASE("bytecode: every catalogue and corpus kernel", "[bytecode][catalogue]") {
  std::vector<std::string> files = catalogue_files();
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FENCELAB_SOURCE_DIR) + "/tests/corpus"))
    if (entry.path().extension() == ".cu") files.push_back(entry.path().string());
  size_t stackless = 0;
  for (const std::string& path : files) {
    INFO(path);
    auto compiled = compile_text(read_source_text(path), path);
    if (compiled->program == nullptr) continue; // a kernel that must not compile (tested elsewhere)
    const uint64_t budget = sweep_budget(*compiled->program, kSanitizedBuild ? 20 : 100);
    stackless += Machine(*compiled->program, MachineOptions{}).runs_stackless();
    check_same(*compiled->program, budget);
    if (path.find("/warps/") != std::string::npos) { // and pre-Volta lockstep warps
      MachineOptions lockstep;
      lockstep.warp = WarpMode::Lockstep;
      check_same(*compiled->program, budget, lockstep, 0, {"sc", "gpu"});
    }
  }
  // The catalogue's reductions, barrier demos and plain litmus kernels run stackless (those with
  // atomics, fences, warp operations or calls on fibers), so both paths are compared here.
  INFO("stackless: " << stackless << " of " << files.size());
  CHECK(stackless >= 40);
}

TEST_CASE("bytecode: generated litmus kernels", "[bytecode][generated]") {
  const uint64_t count = kSanitizedBuild ? 12 : 60;
  for (uint64_t seed = 8'800'000; seed < 8'800'000 + count; ++seed) {
    const LitmusFlavour flavour = seed % 3 == 0 ? LitmusFlavour::Classic
                                  : seed % 3 == 1 ? LitmusFlavour::Updates
                                                  : LitmusFlavour::Waits;
    INFO("generator seed " << seed);
    check_text(generate_litmus_kernel(seed, flavour), 1, {}, 300);
  }
}

TEST_CASE("bytecode: generated kernels with loops, switches, calls and every operator", "[bytecode][generated]") {
  const uint64_t count = kSanitizedBuild ? 15 : 100;
  MachineOptions options;
  options.max_local_steps = 100'000; // their loops take a few hundred; a broken jump loops forever
  for (uint64_t seed = 9'100'000; seed < 9'100'000 + count; ++seed) {
    const std::string text = ProgramGenerator(seed).kernel();
    auto compiled = compile_text(text);
    INFO("program generator seed " << seed << "\n" << text << compiled->rendered());
    REQUIRE(compiled->program != nullptr);
    check_same(*compiled->program, 40, options, 1, {"sc", "gpu"});
  }
}

TEST_CASE("bytecode: generated stackless kernels run stackless as on fibers and on the AST",
          "[bytecode][generated]") {
  // Nothing left to the AST: the kernel runs without fibers (Machine::runs_stackless), its
  // threads stopping before loads, stores, increments and compound assignments to memory (two
  // events in one instruction) and at barriers, some of them divergent, in the kernel and in
  // the helper it calls (a frame that the thread stops in and returns from stackless).
  const uint64_t count = kSanitizedBuild ? 15 : 100;
  MachineOptions options;
  options.max_local_steps = 100'000;
  for (uint64_t seed = 9'300'000; seed < 9'300'000 + count; ++seed) {
    const std::string text = ProgramGenerator(seed, true).kernel();
    auto compiled = compile_text(text);
    INFO("program generator seed " << seed << "\n" << text << compiled->rendered());
    REQUIRE(compiled->program != nullptr);
    REQUIRE(Machine(*compiled->program, options).runs_stackless());
    check_same(*compiled->program, 40, options, 1, {"sc", "gpu"});
  }
}

namespace {

/** `a c b` from the three-way comparison of `a` and `b` as Int (either signedness). */
template <class Int> bool reference_comparison(Comparison c, Int a, Int b) {
  const std::strong_ordering order = a <=> b;
  const bool less = order == std::strong_ordering::less, equal = order == std::strong_ordering::equal;
  const bool holds[] = {less, less || equal, !less && !equal, !less, equal, !equal}; // in Comparison's order
  return holds[size_t(c)];
}

} // namespace

TEST_CASE("bytecode: CompareJump's comparison agrees with the operators on every order and sign", "[bytecode]") {
  const std::vector<uint64_t> words = {0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull, ~uint64_t{0},
                                       ~uint64_t{0} - 1, 0x80000000ull, 0xffffffff80000000ull};
  for (const Comparison c : {Comparison::Less, Comparison::LessEqual, Comparison::Greater, Comparison::GreaterEqual,
                             Comparison::Equal, Comparison::NotEqual})
    for (const uint64_t a : words)
      for (const uint64_t b : words) {
        INFO(fmt::format("comparison {} a {:#x} b {:#x}", int(c), a, b));
        CHECK(compare_words(uint8_t(c), a, b) == reference_comparison<uint64_t>(c, a, b));
        CHECK(compare_words(uint8_t(c) | kSignedCompare, a, b) == reference_comparison<int64_t>(c, int64_t(a), int64_t(b)));
      }
}
