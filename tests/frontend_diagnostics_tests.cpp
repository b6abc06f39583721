// Error rendering (exact text) and robustness of the whole front end on broken input.
#include "frontend_helpers.h"

#include <catch2/catch.hpp>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

const char* kRealKernel = R"(// Last block done (Programming Guide 10.5), with the fence.
//@ launch grid=2 block=2
//@ arg result: float[1] = zeros
//@ arg data: float[4] = iota(1)
//@ expect all: always result[0] == 10
#define N 4
__device__ unsigned int count = 0;
__shared__ bool isLastBlockDone;

__device__ float partial(const float* data, int block) {
  float sum = 0.0f;
  for (int i = 0; i < N / 2; ++i) sum += data[block * 2 + i];
  return sum;
}

__global__ void sum(const float* data, float* result) {
  __shared__ float partials[2];
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = partial(data, blockIdx.x);
    atomicAdd(result, partials[blockIdx.x]);
    __threadfence();
    unsigned int value = atomicInc(&count, gridDim.x);
    isLastBlockDone = (value == (gridDim.x - 1));
  }
  __syncthreads();
  if (isLastBlockDone && threadIdx.x == 0) {
    count = 0;
    switch (blockIdx.x) { case 0: break; default: printf("%f\n", result[0]); }
  }
}
)";

} // namespace

TEST_CASE("diagnostics: the real kernel used below compiles", "[frontend][diagnostics]") {
  auto c = compile_text(kRealKernel);
  INFO(c->rendered());
  CHECK(c->program);
}

TEST_CASE("diagnostics: rendered with the source line and a caret", "[frontend][diagnostics]") {
  SECTION("unknown identifier") {
    auto c = compile_text("__global__ void k() {\n  int foo = 0;\n  fo = 1;\n}\n", "kernel.cu");
    CHECK(c->rendered() == "kernel.cu:3:3: error: unknown identifier 'fo'\n"
                           "    3 |   fo = 1;\n"
                           "      |   ^~\n");
  }
  SECTION("type error") {
    auto c = compile_text("__global__ void k() {\n  int* p = 1.5;\n}\n");
    CHECK(c->rendered() == "k.cu:2:12: error: cannot convert 'double' to 'int*' in the initializer of 'p'\n"
                           "    2 |   int* p = 1.5;\n"
                           "      |            ^~~\n");
  }
  SECTION("unsupported feature") {
    // Named where device code uses the struct: host code may define structs it alone uses.
    auto c = compile_text("struct Pair { int a[2]; };\n__global__ void k() { Pair p; }\n");
    CHECK(c->rendered() == "k.cu:2:23: error: not supported: struct 'Pair' has an array field ('a')\n"
                           "    2 | __global__ void k() { Pair p; }\n"
                           "      |                       ^~~~\n");
  }
  SECTION("bad directive") {
    auto c = compile_text("//@ expect sc: sometimes A=1\n__global__ void k() {}\n");
    CHECK(c->rendered() ==
          "k.cu:1:16: error: expected exactly, reachable, unreachable, always, diagnostic or no diagnostics, found "
          "'sometimes'\n"
          "    1 | //@ expect sc: sometimes A=1\n"
          "      |                ^~~~~~~~~\n");
  }
  SECTION("unknown diagnostic kind") {
    auto c = compile_text("//@ expect all: diagnostic data race\n__global__ void k() {}\n");
    CHECK(c->rendered().starts_with("k.cu:1:28: error: unknown diagnostic kind 'data race' (expected one of data-race, "
                                    "scoped-race, same-value-race, barrier-divergence, deadlock,"));
    CHECK(c->rendered().ends_with("    1 | //@ expect all: diagnostic data race\n"
                                  "      |                            ^~~~~~~~~\n"));
  }
  SECTION("missing semicolon, and tabs keep the caret aligned") {
    auto c = compile_text("__global__ void k() {\n\tint x = 1\n}\n");
    CHECK(c->rendered() == "k.cu:3:1: error: expected ';' after the declaration, found '}'\n"
                           "    3 | }\n"
                           "      | ^\n");
    auto t = compile_text("__global__ void k() {\n\tint x = y;\n}\n");
    CHECK(t->rendered() == "k.cu:2:10: error: unknown identifier 'y'\n"
                           "    2 | \tint x = y;\n"
                           "      | \t        ^\n");
  }
  SECTION("macro uses point at the use") {
    auto c = compile_text("#define BAD undefined_name\n__global__ void k() {\n  int x = BAD;\n}\n");
    CHECK(c->rendered() == "k.cu:3:11: error: unknown identifier 'undefined_name'\n"
                           "    3 |   int x = BAD;\n"
                           "      |           ^~~\n");
  }
  SECTION("several errors are all reported") {
    auto c = compile_text("__global__ void k() {\n  a = 1;\n  int b = ;\n  c = 2;\n}\n");
    CHECK(c->messages() == "k.cu:3:11: error: expected an expression, found ';'\n"
                           "k.cu:2:3: error: unknown identifier 'a'\n"
                           "k.cu:4:3: error: unknown identifier 'c'\n");
  }
}

TEST_CASE("diagnostics: empty input and line positions", "[frontend][diagnostics]") {
  auto c = compile_text("");
  CHECK(c->messages() == "k.cu:1:1: error: the file has no __global__ function to launch\n");
  SourceFile file("f", "ab\ncd\n\nx");
  CHECK(file.line_count() == 4);
  CHECK(file.position(4).line == 2);
  CHECK(file.position(4).column == 2);
  CHECK(file.line_text(3).empty());
  CHECK(file.line_text(4) == "x");
  CHECK(file.slice({3, 100}) == "cd\n\nx");
}

TEST_CASE("diagnostics: truncated and garbled kernels give errors, never a crash", "[frontend][diagnostics]") {
  const std::string kernel = kRealKernel;
  size_t failures = 0;
  for (size_t length = 0; length < kernel.size(); ++length) {
    auto c = compile_text(kernel.substr(0, length));
    if (!c->program) {
      CHECK(c->diagnostics.has_errors());
      ++failures;
      for (const Diagnostic& d : c->diagnostics.diagnostics()) render_diagnostic(d, *c->source);
    }
  }
  CHECK(failures > kernel.size() / 2);

  // Garble: replace, delete or duplicate characters at pseudo-random places.
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  const std::string alphabet = "(){}[];,.*&<>=+-!~?:'\"\\/#@0x9_aZ \n\t";
  for (int round = 0; round < 400; ++round) {
    std::string text = kernel;
    for (int edits = 0; edits < 1 + int(next() % 6); ++edits) {
      const size_t at = next() % text.size();
      switch (next() % 3) {
      case 0: text[at] = alphabet[next() % alphabet.size()]; break;
      case 1: text.erase(at, 1 + next() % 8); break;
      default: text.insert(at, text.substr(next() % text.size(), 1 + next() % 12)); break;
      }
    }
    auto c = compile_text(text);
    if (!c->program) CHECK(c->diagnostics.has_errors());
  }

  // Pathological shapes.
  for (const std::string& text :
       {std::string(20000, '{'), std::string(20000, '('), "__global__ void k() { int x = " + std::string(30000, '-') + "1; }",
        "__global__ void k() { int x = 1" + [] {
          std::string s;
          for (int i = 0; i < 5000; ++i) s += " + 1";
          return s;
        }() + "; }",
        "__global__ void k() { if (1) " + [] {
          std::string s;
          for (int i = 0; i < 3000; ++i) s += "if (1) ";
          return s;
        }() + "; }",
        std::string("/*"), std::string("\""), std::string("'"), std::string("#if 1\n#else\n#else\n"),
        std::string("//@ expect all: always ((((((((("), std::string("//@ arg \\\n//@ \\"),
        std::string("\xff\xfe\x00 __global__", 14)}) {
    auto c = compile_text(text);
    CHECK(c->diagnostics.has_errors());
  }
}
