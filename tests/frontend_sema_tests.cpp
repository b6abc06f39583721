// Sema: types, implicit conversions, names, slots, memory objects, constants and builtins.
#include "frontend_helpers.h"

#include <catch2/catch.hpp>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** The expression of the index-th statement of a function (an ExprStmt or a one-variable
 *  declaration's initializer). */
const Expr& statement_expr(const Program& program, const std::string& function, size_t index) {
  const Stmt& stmt = *find_function(program, function)->body->body.at(index);
  if (stmt.kind == StmtKind::ExprStmt) return *as<ExprStmt>(stmt).expr;
  return *as<Declaration>(stmt).variables.at(0)->initializer;
}

const Cast& implicit_cast(const Expr& expr) {
  REQUIRE(expr.kind == ExprKind::Cast);
  REQUIRE(as<Cast>(expr).implicit);
  return as<Cast>(expr);
}

const char* kHeader = "//@ launch grid=1 block=1\n";

} // namespace

TEST_CASE("sema: usual arithmetic conversions insert implicit casts", "[frontend][sema]") {
  auto c = compile_text(std::string(kHeader) + R"(
__device__ float F;
__device__ long long L;
__global__ void k() {
  int i = 2;
  char c = 1;
  unsigned u = 3;
  F = i + 1.5f;
  bool b = i < u;
  L = c + u;
  double d = i;
  i += 2.5;
}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;

  const auto& assign = as<Assign>(statement_expr(p, "k", 3)); // F = i + 1.5f
  const auto& sum = as<Binary>(*assign.rhs);
  CHECK(sum.type.scalar == ScalarType::Float);
  CHECK(implicit_cast(*sum.lhs).type.scalar == ScalarType::Float);
  CHECK(sum.rhs->kind == ExprKind::FloatLiteral);

  const auto& less = as<Binary>(statement_expr(p, "k", 4)); // i < u
  CHECK(less.type.scalar == ScalarType::Bool);
  CHECK(implicit_cast(*less.lhs).type.scalar == ScalarType::UInt);
  CHECK(less.rhs->kind == ExprKind::NameRef);

  const auto& mixed = as<Assign>(statement_expr(p, "k", 5)); // L = c + u
  const Cast& widen = implicit_cast(*mixed.rhs);
  CHECK(widen.type.scalar == ScalarType::LongLong);
  const auto& add = as<Binary>(*widen.operand);
  CHECK(add.type.scalar == ScalarType::UInt);
  const Cast& to_unsigned = implicit_cast(*add.lhs); // char straight to the common type
  CHECK(to_unsigned.type.scalar == ScalarType::UInt);
  CHECK(to_unsigned.operand->type.scalar == ScalarType::Char);

  CHECK(implicit_cast(statement_expr(p, "k", 6)).type.scalar == ScalarType::Double);

  const auto& compound = as<Assign>(statement_expr(p, "k", 7)); // i += 2.5
  CHECK(compound.computation_type.scalar == ScalarType::Double);
  CHECK(compound.type.scalar == ScalarType::Int);
  CHECK(compound.rhs->kind == ExprKind::FloatLiteral);
}

TEST_CASE("sema: conditions and logical operators become bool", "[frontend][sema]") {
  auto c = compile_text(std::string(kHeader) + R"(
__device__ int X;
__global__ void k() {
  if (X) X = 1;
  X = X && 2.0;
}
)");
  REQUIRE(c->program);
  const Stmt& stmt = *find_function(*c->program, "k")->body->body[0];
  CHECK(implicit_cast(*as<If>(stmt).condition).type.scalar == ScalarType::Bool);
  const auto& assign = as<Assign>(statement_expr(*c->program, "k", 1));
  const Cast& back = implicit_cast(*assign.rhs);
  CHECK(back.type.scalar == ScalarType::Int);
  const auto& logical = as<Binary>(*back.operand);
  CHECK(logical.type.scalar == ScalarType::Bool);
  CHECK(implicit_cast(*logical.lhs).type.scalar == ScalarType::Bool);
  CHECK(implicit_cast(*logical.rhs).type.scalar == ScalarType::Bool);
}

TEST_CASE("sema: names, scopes, frame slots and memory objects", "[frontend][sema]") {
  auto c = compile_text(R"(//@ arg out: int[4] = zeros
//@ arg n = 2
__device__ int X = 5;
__shared__ int S[8];
__device__ int helper(int a, int b = 7) { int t = a + b; { int t = 1; } return t; }
__global__ void k(int* out, int n) {
  __shared__ float tile[4];
  int x = X;
  int arr[3] = {1, 2};
  for (int i = 0; i < n; ++i) out[i] = helper(arr[i]) + x;
}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  // Objects: file-scope variables, then function-scope __shared__, then buffers.
  REQUIRE(p.memory_objects.size() == 4);
  CHECK(p.memory_objects[0].name == "X");
  CHECK(p.memory_objects[0].initial_values == std::vector<Word>{5});
  CHECK(p.memory_objects[1].name == "S");
  CHECK(p.memory_objects[1].space == MemorySpace::Shared);
  CHECK_FALSE(p.memory_objects[1].initialized);
  CHECK(p.memory_objects[1].element_count == 8);
  CHECK(p.memory_objects[2].name == "tile");
  CHECK(p.memory_objects[2].element_type.scalar == ScalarType::Float);
  CHECK(p.memory_objects[3].name == "out");
  CHECK(p.memory_objects[3].declaration == nullptr);
  REQUIRE(p.arguments.size() == 2);
  CHECK(p.arguments[0].buffer_object == 3u);
  CHECK(p.arguments[1].value == 2);

  const FunctionDecl& helper = *find_function(p, "helper");
  CHECK(helper.params[0]->slot == 0);
  CHECK(helper.params[1]->slot == 1);
  CHECK(helper.frame_slots == 4); // a, b, t, inner t
  const FunctionDecl& k = *find_function(p, "k");
  CHECK(k.frame_slots == 5); // out, n, x, arr, i
  const auto& arr = *as<Declaration>(*k.body->body[2]).variables[0];
  CHECK(arr.is_array);
  CHECK(arr.array_length == 3);
  CHECK(arr.slot == 3);

  // `out[i] = helper(arr[i]) + x`: the call resolves, the default argument is not materialised,
  // and `arr` decays to a pointer.
  const auto& loop = as<For>(*k.body->body[3]);
  const auto& assign = as<Assign>(*as<ExprStmt>(*loop.body).expr);
  const auto& call = as<Call>(*as<Binary>(*assign.rhs).lhs);
  CHECK(call.function == &helper);
  CHECK(call.args.size() == 1);
  const auto& base = as<NameRef>(*as<Index>(*call.args[0]).base);
  CHECK(base.variable == &arr);
  CHECK(base.type.is_pointer());
  CHECK_FALSE(base.is_lvalue);
  CHECK(as<Index>(*call.args[0]).is_lvalue);
  CHECK(as<NameRef>(*as<Index>(*assign.lhs).base).variable == k.params[0].get());
}

TEST_CASE("sema: constants fold: templates, limits, extents, case labels", "[frontend][sema]") {
  auto c = compile_text(R"(//@ template N=4
#define SIZE (4 * 2)
#define HALF 4
//@ launch block=HALF
__device__ int A[SIZE];
__device__ unsigned M = UINT_MAX;
template <int N> __global__ void k() {
  const int half = N / 2;
  int local[half + 1];
  switch (threadIdx.x) { case half: A[0] = INT_MIN; break; case N - 1: break; }
  float f = FLT_MAX;
  int* p = nullptr;
  unsigned s = sizeof(local);
}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  CHECK(p.launch.block.x == 4);
  REQUIRE(p.launch.template_args.size() == 1);
  CHECK(p.launch.template_args[0] == std::make_pair(std::string("N"), int64_t(4)));
  CHECK(p.memory_objects[0].element_count == 8);
  CHECK(p.memory_objects[1].initial_values == std::vector<Word>{0xFFFFFFFFu});
  const FunctionDecl& k = *find_function(p, "k");
  CHECK(as<Declaration>(*k.body->body[1]).variables[0]->array_length == 3);
  const auto& sw = as<Switch>(*k.body->body[2]);
  CHECK(as<Case>(*sw.body->body[0]).folded_value == 2);
  CHECK(as<Case>(*sw.body->body[3]).folded_value == 3);
  const auto& size = as<Literal>(statement_expr(p, "k", 5));
  CHECK(size.kind == ExprKind::Cast); // ULong sizeof converted to unsigned
}

TEST_CASE("sema: builtin calls are typed per category", "[frontend][sema]") {
  auto c = compile_text(std::string(kHeader) + R"(
__device__ int I; __device__ unsigned U; __device__ float F; __device__ double D;
__device__ unsigned long long Q;
__global__ void k() {
  int old = atomicAdd(&I, 1);
  float fold = atomicAdd_block(&F, 2);
  unsigned cas = atomicCAS(&U, 0, 1u);
  Q = atomicExch_system(&Q, 5ull);
  D = sin(F);
  F = sinf(F);
  I = min(I, 3);
  I = __syncthreads_count(I > 0);
  __threadfence();
  I = __popc(U);
  U = __float_as_uint(F);
  printf("%d %f\n", I, F);
}
)");
  INFO(c->rendered());
  REQUIRE(c->program);
  const Program& p = *c->program;
  auto call = [&](size_t index) -> const Call& {
    const Expr* e = &statement_expr(p, "k", index);
    if (e->kind == ExprKind::Assign) e = as<Assign>(*e).rhs.get();
    while (e->kind == ExprKind::Cast) e = as<Cast>(*e).operand.get();
    return as<Call>(*e);
  };
  CHECK(call(0).builtin == Builtin::AtomicAdd);
  CHECK(call(0).type.scalar == ScalarType::Int);
  CHECK(call(1).type.scalar == ScalarType::Float);
  CHECK(implicit_cast(*call(1).args[1]).type.scalar == ScalarType::Float);
  CHECK(call(2).type.scalar == ScalarType::UInt);
  CHECK(call(3).type.scalar == ScalarType::ULongLong);
  CHECK(call(4).type.scalar == ScalarType::Double);
  CHECK(implicit_cast(*call(4).args[0]).type.scalar == ScalarType::Double);
  CHECK(call(5).type.scalar == ScalarType::Float);
  CHECK(call(6).type.scalar == ScalarType::Int);
  CHECK(call(7).type.scalar == ScalarType::Int);
  CHECK(call(8).type.is_void());
  CHECK(call(9).type.scalar == ScalarType::Int);
  CHECK(call(10).type.scalar == ScalarType::UInt);
  CHECK(implicit_cast(*call(11).args[2]).type.scalar == ScalarType::Double); // float promotes
}

TEST_CASE("sema: errors are collected", "[frontend][sema]") {
  auto c = compile_text(std::string(kHeader) + R"(
__device__ short H;
__device__ const int K = 1;
__device__ int g(int a) { return a; }
__global__ void k() {
  int x = 1;
  int* p = &x; // fine: x then lives in the thread's private memory
  atomicAdd(&H, 1);
  K = 2;
  y = 3;
  g(1, 2);
  float* f = &H;
  x = __shfl_sync(0xffffffff, p, 0);
  __syncthreads(1);
  break;
}
)");
  REQUIRE_FALSE(c->program);
  CHECK(c->messages() ==
        "k.cu:9:13: error: 'atomicAdd' needs a pointer to int, unsigned int, unsigned long long, float, double "
        "or __half as its first argument, not 'short*'\n"
        "k.cu:10:3: error: cannot modify 'K' (it is const)\n"
        "k.cu:11:3: error: unknown identifier 'y'\n"
        "k.cu:12:3: error: function 'g' takes 1 argument, but 2 were given\n"
        "k.cu:13:14: error: cannot convert 'short*' to 'float*' in the initializer of 'f'\n"
        "k.cu:14:31: error: '__shfl_sync' shuffles int, unsigned, long long, unsigned long long, float, "
        "double or __half values, not 'int*'\n"
        "k.cu:15:3: error: '__syncthreads' takes 0 arguments, but 1 was given\n"
        "k.cu:16:3: error: break outside a loop or switch\n");
}

TEST_CASE("sema: overloading is named as unsupported, a second definition as a redefinition", "[frontend][sema]") {
  // Same parameter count, other types: an overload (before, reported as a redefinition).
  auto overloaded = compile_text(std::string(kHeader) + R"(__device__ float f(float a) { return a; }
__device__ double f(double a) { return a; }
__device__ int g(const int a) { return a; }
__device__ int g(int a) { return a; }
__device__ int h(int a);
__device__ int h(const int b) { return b; }
__global__ void k() { }
)");
  REQUIRE_FALSE(overloaded->program);
  CHECK(overloaded->messages() == "k.cu:3:19: error: not supported: overloaded function 'f'\n"
                                  "k.cu:5:16: error: redefinition of function 'g'\n");
}

TEST_CASE("sema: __CUDA_ARCH__ is defined as for an H100, so device-only code is not dropped", "[frontend][sema]") {
  const std::string text = std::string(kHeader) + R"(__device__ int X;
__global__ void k() {
#if defined(__CUDACC__) && __CUDA_ARCH__ >= 700
  X = __CUDA_ARCH__;
#else
  X = -1;
#endif
}
)";
  const auto stored = [](const Program& program) -> const Expr& {
    const Expr& store = statement_expr(program, "k", 0);
    REQUIRE(store.kind == ExprKind::Assign);
    return *as<Assign>(store).rhs;
  };
  auto h100 = compile_text(text);
  REQUIRE(h100->program);
  const Expr& arch = stored(*h100->program);
  REQUIRE(arch.kind == ExprKind::IntegerLiteral);
  CHECK(static_cast<const Literal&>(arch).bits == 900);
  CompileOptions older; // -D overrides it
  older.defines = {"__CUDA_ARCH__=600"};
  auto pascal = compile_text(text, "k.cu", older);
  REQUIRE(pascal->program);
  CHECK(stored(*pascal->program).kind == ExprKind::Unary); // -1
}

TEST_CASE("sema: device code that uses skipped host code is told so", "[frontend][sema]") {
  auto c = compile_text(std::string(kHeader) + R"(float scale;
void helper(int x) { }
__global__ void k() {
  scale = 2;
  helper(1);
}
)");
  REQUIRE_FALSE(c->program);
  CHECK(c->messages() ==
        "k.cu:2:1: note: host code skipped (2 declarations: scale, helper()): only device code runs here\n"
        "k.cu:5:3: error: 'scale' is a host variable, which device code cannot use (declare it __device__, "
        "__shared__ or __constant__)\n"
        "k.cu:6:3: error: 'helper' is a host function, which device code cannot call (declare it __device__ or "
        "__host__ __device__)\n");
}

TEST_CASE("sema: the math functions a GPU computes approximately are listed once each, sorted", "[frontend][sema]") {
  const auto compiled = compile_text("__device__ float out[4];\n"
                                     "__global__ void k() { out[0] = tanhf(1.0f) + __expf(1.0f) + sqrtf(2.0f);\n"
                                     "  out[1] = tanhf(2.0f) + floorf(1.5f) + fmaf(1.0f, 2.0f, 3.0f) + sin(0.5); }\n");
  INFO(compiled->rendered());
  REQUIRE(compiled->program != nullptr);
  // sqrtf, floorf and fmaf are correctly rounded on a GPU too.
  CHECK(compiled->program->approximate_math == std::vector<std::string>{"__expf", "sin", "tanhf"});
}
