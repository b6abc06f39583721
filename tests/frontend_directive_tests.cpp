// Harness directives: kernel, template, launch, arg, init, observe, expect.
#include "fencelab/frontend/directives.h"
#include "frontend_helpers.h"

#include <catch2/catch.hpp>

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("directives: the writeXY/readXY example", "[frontend][directives]") {
  auto c = compile_text(R"(//@ launch grid=1 block=2
//@ observe readXY.A readXY.B
//@ expect sc: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect gpu: reachable A=1 B=20
__device__ int X = 1, Y = 2;
__device__ void writeXY() { X = 10; Y = 20; }
__device__ void readXY() { int B = Y; int A = X; }
__global__ void write_read_xy() { if (threadIdx.x == 0) writeXY(); else readXY(); }
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  CHECK(p.launch.kernel == find_function(p, "write_read_xy"));
  CHECK(p.launch.grid == Dim3{1, 1, 1});
  CHECK(p.launch.block == Dim3{2, 1, 1});
  REQUIRE(p.observed.size() == 2);
  CHECK(p.observed[0].label == "A");
  CHECK(p.observed[0].kind == ObservedItem::Kind::Local);
  CHECK(p.observed[0].local->name == "A");
  CHECK(p.observed[1].local->slot == 0); // B is readXY's first local
  REQUIRE(p.expectations.size() == 2);
  const Expectation& exactly = p.expectations[0];
  CHECK(exactly.kind == ExpectationKind::Exactly);
  CHECK(exactly.models == std::vector<std::string>{"sc"});
  REQUIRE(exactly.patterns.size() == 3);
  CHECK(exactly.patterns[2].items == std::vector<std::pair<uint32_t, Word>>{{0, 10}, {1, 20}});
  CHECK(exactly.text == "expect sc: exactly A=1 B=2 | A=10 B=2 | A=10 B=20");
  CHECK(p.expectations[1].kind == ExpectationKind::Reachable);
}

TEST_CASE("directives: kernel choice, template, 3-D launch, scalar and buffer args", "[frontend][directives]") {
  auto c = compile_text(R"(#define LEN 4
//@ kernel second
//@ template T=3
//@ launch grid=(2,3) block=(4, 2, 1)
//@ arg data: float[LEN] = 1.5
//@ arg ids: int[LEN] = iota(10)
//@ arg rnd: unsigned[8] = random(42, 5, 9)
//@ arg list: int[3] = {1, -2, 3}
//@ arg raw: int[2] = uninit
//@ arg scale = 2
__global__ void first() {}
template <int T>
__global__ void second(float* data, int* ids, unsigned* rnd, int* list, int* raw, int scale, int off = T) {}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  CHECK(p.launch.kernel->name == "second");
  CHECK(p.launch.grid == Dim3{2, 3, 1});
  CHECK(p.launch.block == Dim3{4, 2, 1});
  REQUIRE(p.arguments.size() == 7);
  const MemoryObject& data = p.memory_objects[*p.arguments[0].buffer_object];
  CHECK(data.element_count == 4);
  CHECK(word_to_double(data.initial_values[3], data.element_type) == 1.5);
  CHECK(p.memory_objects[*p.arguments[1].buffer_object].initial_values == std::vector<Word>{10, 11, 12, 13});
  const MemoryObject& rnd = p.memory_objects[*p.arguments[2].buffer_object];
  REQUIRE(rnd.initial_values.size() == 8);
  uint64_t state = 42;
  for (Word w : rnd.initial_values) {
    CHECK(w >= 5);
    CHECK(w <= 9);
    CHECK(w == 5 + splitmix64_next(state) % 5);
  }
  CHECK(p.memory_objects[*p.arguments[3].buffer_object].initial_values ==
        std::vector<Word>{1, word_from_int(-2, Type::of(ScalarType::Int)), 3});
  CHECK_FALSE(p.memory_objects[*p.arguments[4].buffer_object].initialized);
  CHECK(p.arguments[5].value == 2);
  CHECK(p.arguments[6].value == 3); // the default argument, from the template value
  // Without observe: every small buffer.
  CHECK(p.observed.size() == 4 + 4 + 8 + 3 + 2);
  CHECK(p.observed[0].label == "data[0]");
}

TEST_CASE("directives: init, observe slices, always and diagnostic", "[frontend][directives]") {
  auto c = compile_text(R"(//@ arg result: int[8] = zeros
//@ init X = 7
//@ init V[1] = 3
//@ init W = {1, 2}
//@ observe X V result[2:4] result[7]
//@ expect all: always result[2] + X == 7 && V[1] == 3
//@ expect tso,gpu: unreachable X=1 \
//@     result[7]=-1
//@ expect gpu: diagnostic data-race
__device__ int X;
__device__ int V[2];
__device__ float W[3];
__global__ void k(int* result) {}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  CHECK(p.memory_objects[0].initial_values == std::vector<Word>{7});
  CHECK(p.memory_objects[1].initial_values == std::vector<Word>{0, 3});
  const Type f = Type::of(ScalarType::Float);
  CHECK(p.memory_objects[2].initial_values == std::vector<Word>{word_from_double(1, f), word_from_double(2, f), 0});
  std::vector<std::string> labels;
  for (const ObservedItem& item : p.observed) labels.push_back(item.label);
  CHECK(labels == std::vector<std::string>{"X", "V[0]", "V[1]", "result[2]", "result[3]", "result[7]"});
  CHECK(p.observed[5].element_index == 7);
  REQUIRE(p.expectations.size() == 3);
  const Expectation& always = p.expectations[0];
  CHECK(always.models.size() == 3);
  REQUIRE(always.predicate);
  CHECK(always.predicate->type.scalar == ScalarType::Bool);
  const auto& conjunction = as<Binary>(*always.predicate);
  const auto& equal = as<Binary>(*conjunction.rhs);
  CHECK(as<Index>(*equal.lhs).observed_item == 2);
  const auto& sum = as<Binary>(*as<Binary>(*conjunction.lhs).lhs);
  CHECK(as<Index>(*sum.lhs).observed_item == 3);
  CHECK(as<NameRef>(*sum.rhs).observed_item == 0);
  const Expectation& unreachable = p.expectations[1];
  CHECK(unreachable.models == std::vector<std::string>{"tso", "gpu"});
  CHECK(unreachable.patterns[0].items ==
        std::vector<std::pair<uint32_t, Word>>{{0, 1}, {5, word_from_int(-1, Type::of(ScalarType::Int))}});
  CHECK(unreachable.text == "expect tso,gpu: unreachable X=1 result[7]=-1");
  CHECK(p.expectations[2].diagnostic_kind == "data-race");
}

TEST_CASE("directives: errors point into the comment", "[frontend][directives]") {
  auto c = compile_text(R"(//@ launch grid=0 block=2000
//@ arg p: float[4] = zeros
//@ arg q = 1
//@ observe Z
//@ expect sc: reachable A=1
//@ expect weak: always 1
//@ frobnicate
//@ template N=4
//@ arg n: int[2] = {1, 2, 3}
__global__ void k(int* p, int* r, int n) {}
)");
  REQUIRE_FALSE(c->program);
  CHECK(c->messages() ==
        "k.cu:7:5: error: unknown directive 'frobnicate' (expected kernel, template, launch, arg, init, observe "
        "or expect)\n"
        "k.cu:1:17: error: a launch dimension must be at least 1, not 0\n"
        "k.cu:2:12: error: buffer type 'float' does not match parameter 'int* p'\n"
        "k.cu:3:9: error: kernel 'k' has no parameter 'q'\n"
        "k.cu:9:9: error: parameter 'n' is not a pointer: give it a value, as in //@ arg n = 1\n"
        "k.cu:10:24: error: kernel parameter 'p' has no argument (give it with //@ arg p: int[N] = zeros)\n"
        "k.cu:10:32: error: kernel parameter 'r' has no argument (give it with //@ arg r: int[N] = zeros)\n"
        "k.cu:10:39: error: kernel parameter 'n' has no argument (give it with //@ arg n = VALUE)\n"
        "k.cu:4:13: error: 'Z' is neither a __device__ variable nor a buffer argument\n"
        "k.cu:5:26: error: 'A' is not an observed item (observed: nothing)\n"
        "k.cu:6:12: error: unknown model 'weak' (expected all, sc, tso or gpu)\n");
}

TEST_CASE("directives: resident= limits the resident blocks", "[frontend][directives]") {
  auto ok = compile_text("//@ launch grid=8 block=2 resident=3\n__global__ void k() {}\n");
  REQUIRE(ok->program);
  CHECK(ok->program->launch.resident_blocks == 3);
  auto bad = compile_text("//@ launch grid=8 resident=0\n__global__ void k() {}\n");
  CHECK_FALSE(bad->program);
  CHECK(bad->messages() == "k.cu:1:28: error: resident= must be at least 1, not 0\n");
}

TEST_CASE("directives: several kernels need //@ kernel, templates need values", "[frontend][directives]") {
  auto several = compile_text("__global__ void a() {}\n__global__ void b() {}\n");
  CHECK(several->messages() ==
        "k.cu:2:17: error: the file has several __global__ functions; choose one with //@ kernel NAME or --kernel NAME\n");
  CompileOptions pick_b;
  pick_b.kernel = "b";
  auto chosen = compile_text("//@ kernel a\n__global__ void a() {}\n__global__ void b() {}\n", "k.cu", pick_b);
  REQUIRE(chosen->program); // --kernel wins over //@ kernel
  CHECK(chosen->program->launch.kernel->name == "b");
  pick_b.kernel = "c";
  auto missing = compile_text("__global__ void a() {}\n__global__ void b() {}\n", "k.cu", pick_b);
  CHECK(missing->messages() ==
        "k.cu:1:1: error: --kernel c: there is no __global__ function of that name (the file has: a, b)\n");
  auto templ = compile_text("template <int N> __global__ void a() { int x = N; }\n");
  CHECK(templ->messages() ==
        "k.cu:1:48: error: template parameter 'N' has no value (give it with //@ template N=VALUE)\n"
        "k.cu:1:15: error: kernel template parameter 'N' has no value (give it with //@ template N=VALUE)\n");
}

TEST_CASE("directives: -D defines macros before the file", "[frontend][directives]") {
  CompileOptions options;
  options.defines = {"SCALE=3", "FAST"};
  auto c = compile_text("#ifndef SCALE\n#define SCALE 1\n#endif\n//@ observe out\n__device__ int out;\n"
                        "__global__ void k() { out = SCALE * 10 + FAST; }\n",
                        "k.cu", options);
  REQUIRE(c->program); // the values: "a file with host code, run with --kernel and -D" (cli_tests.cpp)
  auto none = compile_text("__global__ void k() { int x = SCALE; }\n");
  CHECK(none->messages() == "k.cu:1:31: error: unknown identifier 'SCALE'\n");
}

TEST_CASE("directives: a pointer parameter may be given a null pointer", "[frontend][directives]") {
  auto c = compile_text("//@ arg out: int[1] = zeros\n//@ arg opt = NULL\n__global__ void k(int* out, int* opt) {}\n");
  REQUIRE(c->program);
  REQUIRE(c->program->arguments.size() == 2);
  CHECK(c->program->arguments[1].value == 0);
  CHECK_FALSE(c->program->arguments[1].buffer_object);
  for (const char* null : {"nullptr", "0"}) {
    auto other = compile_text(std::string("//@ arg p = ") + null + "\n__global__ void k(int* p) {}\n");
    CHECK(other->program);
  }
  auto bad = compile_text("//@ arg p = 3\n__global__ void k(int* p) {}\n");
  CHECK(bad->messages() == "k.cu:1:9: error: parameter 'p' is a pointer: give it a buffer, as in //@ arg p: int[4] "
                           "= zeros, or a null pointer, //@ arg p = NULL\n"
                           "k.cu:2:24: error: kernel parameter 'p' has no argument (give it with //@ arg p: int[N] = "
                           "zeros)\n");
}
