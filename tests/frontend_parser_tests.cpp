// Parser: the AST built for the kernel-language subset.
#include "fencelab/frontend/parser.h"
#include "fencelab/frontend/preprocessor.h"
#include "frontend_helpers.h"

#include <catch2/catch.hpp>

using namespace fencelab;

namespace {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  DiagnosticSink sink;
  TranslationUnit unit;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
  auto parsed = std::make_unique<Parsed>();
  parsed->file = std::make_unique<SourceFile>("k.cu", text);
  auto tokens = lex(*parsed->file, {0, uint32_t(text.size())}, parsed->sink).tokens;
  Preprocessor preprocessor(parsed->sink);
  Parser parser(preprocessor.run(tokens), parsed->sink);
  parsed->unit = parser.parse_translation_unit();
  return parsed;
}

/** The messages of the diagnostics the parse gave, in order. */
std::vector<std::string> messages_of(const Parsed& parsed) {
  std::vector<std::string> messages;
  for (const Diagnostic& d : parsed.sink.diagnostics()) messages.push_back(d.message);
  return messages;
}

/** Parses one expression and prints it fully parenthesised. */
std::string show(const Expr& e) {
  switch (e.kind) {
  case ExprKind::IntegerLiteral: case ExprKind::FloatLiteral: case ExprKind::BoolLiteral:
    return format_word(as<Literal>(e).bits, e.type);
  case ExprKind::NameRef: return as<NameRef>(e).name;
  case ExprKind::BuiltinVariable: {
    const auto& b = as<BuiltinVariable>(e);
    std::string s = builtin_variable_spelling(b.variable);
    if (b.variable != BuiltinVariableKind::WarpSize) s += std::string(".") + char('x' + b.component);
    return s;
  }
  case ExprKind::Unary: {
    const auto& u = as<Unary>(e);
    const bool post = u.op == UnaryOp::PostIncrement || u.op == UnaryOp::PostDecrement;
    return post ? "(" + show(*u.operand) + unary_op_spelling(u.op) + ")"
                : "(" + std::string(unary_op_spelling(u.op)) + show(*u.operand) + ")";
  }
  case ExprKind::Binary: {
    const auto& b = as<Binary>(e);
    return "(" + show(*b.lhs) + " " + binary_op_spelling(b.op) + " " + show(*b.rhs) + ")";
  }
  case ExprKind::Assign: {
    const auto& a = as<Assign>(e);
    return "(" + show(*a.lhs) + " " + (a.compound ? binary_op_spelling(*a.compound) : "") + "= " + show(*a.rhs) + ")";
  }
  case ExprKind::Conditional: {
    const auto& c = as<Conditional>(e);
    return "(" + show(*c.condition) + " ? " + show(*c.then_value) + " : " + show(*c.else_value) + ")";
  }
  case ExprKind::Call: {
    const auto& c = as<Call>(e);
    std::string s = c.callee + "(";
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (i) s += ", ";
      s += show(*c.args[i]);
    }
    return s + ")";
  }
  case ExprKind::Index: return show(*as<Index>(e).base) + "[" + show(*as<Index>(e).index) + "]";
  case ExprKind::Cast: return "(" + e.type.to_string() + ")" + show(*as<Cast>(e).operand);
  case ExprKind::StringLiteral: return "\"" + as<StringLiteral>(e).value + "\"";
  case ExprKind::InitList: return "{...}";
  }
  return "?";
}

std::string expr(const std::string& text, DiagnosticSink* errors = nullptr) {
  SourceFile file("k.cu", text);
  DiagnosticSink sink;
  auto tokens = lex(file, {0, uint32_t(text.size())}, sink).tokens;
  Parser parser(tokens, sink);
  ExprPtr e = parser.parse_expression();
  if (errors) *errors = sink;
  return show(*e);
}

} // namespace

TEST_CASE("parser: C precedence and associativity", "[frontend][parser]") {
  CHECK(expr("a + b * c") == "(a + (b * c))");
  CHECK(expr("a - b - c") == "((a - b) - c)");
  CHECK(expr("a = b = c") == "(a = (b = c))");
  CHECK(expr("a || b && c | d ^ e & f == g < h << i + j") ==
        "(a || (b && (c | (d ^ (e & (f == (g < (h << (i + j)))))))))");
  CHECK(expr("c ? x : y ? 1 : 2") == "(c ? x : (y ? 1 : 2))");
  CHECK(expr("a += b, c") == "((a += b) , c)");
  CHECK(expr("-*p++") == "(-(*(p++)))");
  CHECK(expr("!~--x") == "(!(~(--x)))");
  CHECK(expr("a[i][j]") == "a[i][j]");
}

TEST_CASE("parser: casts, sizeof, builtin variables and calls", "[frontend][parser]") {
  CHECK(expr("(float)x") == "(float)x");
  CHECK(expr("(unsigned int*)p") == "(unsigned int*)p");
  CHECK(expr("float(x) + int(y)") == "((float)x + (int)y)");
  CHECK(expr("static_cast<double>(x)") == "(double)x");
  CHECK(expr("reinterpret_cast<volatile int*>(p)") == "(volatile int*)p");
  CHECK(expr("sizeof(int)") == "4");
  CHECK(expr("sizeof(double*)") == "8");
  CHECK(expr("sizeof x") == "sizeof(x)");
  CHECK(expr("threadIdx.x + blockIdx.y * blockDim.z + warpSize") ==
        "((threadIdx.x + (blockIdx.y * blockDim.z)) + warpSize)");
  CHECK(expr("atomicAdd(&x, 1)") == "atomicAdd((&x), 1)");
  CHECK(expr("printf(\"a\" \"b\", 1)") == "printf(\"ab\", 1)");
  CHECK(expr("(x)") == "x");
}

TEST_CASE("parser: declarations and functions", "[frontend][parser]") {
  auto parsed = parse(R"(
__device__ int X = 1, Y[4] = {1, 2};
__shared__ volatile float S[32];
__constant__ unsigned long long C;
const int N = 8;
template <int B>
__global__ void kernel(int* out, volatile unsigned* flag, int n = 3) {
  __shared__ int tile[B];
  for (int i = 0; i < n; ++i) { out[i] = tile[i]; }
  switch (n) { case 1: break; default: return; }
  do { n--; } while (n > 0);
}
__device__ __forceinline__ int helper(int a);
__host__ __device__ int both(int a) { return a; }
)");
  REQUIRE(parsed->sink.diagnostics().empty());
  const TranslationUnit& unit = parsed->unit;
  REQUIRE(unit.globals.size() == 5);
  CHECK(unit.globals[0]->storage == StorageKind::Global);
  CHECK(unit.globals[1]->array_extents.size() == 1);
  CHECK(unit.globals[1]->initializer->kind == ExprKind::InitList);
  CHECK(unit.globals[2]->storage == StorageKind::Shared);
  CHECK(unit.globals[2]->type.is_volatile);
  CHECK(unit.globals[3]->storage == StorageKind::Constant);
  CHECK(unit.globals[3]->type.scalar == ScalarType::ULongLong);
  CHECK(unit.globals[4]->storage == StorageKind::Constant);
  REQUIRE(unit.functions.size() == 3);
  const FunctionDecl& kernel = *unit.functions[0];
  CHECK(kernel.space == FunctionSpace::Global);
  REQUIRE(kernel.template_params.size() == 1);
  CHECK(kernel.template_params[0].name == "B");
  REQUIRE(kernel.params.size() == 3);
  CHECK(kernel.params[1]->type.to_string() == "volatile unsigned int*");
  CHECK(kernel.params[2]->initializer != nullptr);
  CHECK(kernel.body->body.size() == 4);
  CHECK(unit.functions[1]->body == nullptr);
  CHECK(unit.functions[2]->space == FunctionSpace::HostDevice);
}

TEST_CASE("parser: vector types and dim3 declare one variable per field, half2 is named as not supported",
          "[frontend][parser]") {
  auto parsed = parse(R"(
__device__ void f() {
  float4 v;
  int2 p;
  half2 h;
  dim3 d;
  ulonglong3 u;
  int x = 1;
}
)");
  const std::vector<std::string> messages = messages_of(*parsed);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0] == "not supported: half-precision type 'half2'");
  REQUIRE(parsed->unit.functions.size() == 1);
  const auto& body = parsed->unit.functions[0]->body->body;
  REQUIRE(body.size() == 6);
  std::vector<std::string> names;
  for (const StmtPtr& statement : body)
    if (statement->kind == StmtKind::Declaration)
      for (const VarDeclPtr& variable : static_cast<const Declaration&>(*statement).variables)
        names.push_back(variable->name);
  CHECK(names == std::vector<std::string>{"v.x", "v.y", "v.z", "v.w", "p.x", "p.y", "h", "d.x", "d.y", "d.z",
                                          "u.x", "u.y", "u.z", "x"});
}

TEST_CASE("parser: extern \"C\" and __inline__ are accepted (nothing to model)", "[frontend][parser]") {
  auto parsed = parse(R"(
__inline__ __device__ int one() { return 1; }
extern "C" __global__ void k(int* out) { out[0] = one(); }
)");
  CHECK(parsed->sink.diagnostics().empty());
  REQUIRE(parsed->unit.functions.size() == 2);
  CHECK(parsed->unit.functions[1]->space == FunctionSpace::Global);
}

TEST_CASE("parser: unsupported constructs are named, and parsing goes on", "[frontend][parser]") {
  auto parsed = parse(R"(
struct P { int x[2]; };
__device__ P gp;
int main() { cudaMalloc(0, 4); return 0; }
__device__ int a[2][3];
extern __shared__ int dyn[];
__device__ void f() {
  goto out;
  auto l = [](){};
  auto& r = x0;
  int* p = new int;
  int x = 1;
}
)");
  const std::vector<std::string> messages = messages_of(*parsed);
  // `__device__ int a[2][3];` and `extern __shared__ int dyn[];` are supported.
  REQUIRE(messages.size() == 6);
  CHECK(messages[0] == "not supported: struct 'P' has an array field ('x')");
  CHECK(messages[1] == "not supported: goto");
  CHECK(messages[2] == "not supported: lambdas");
  CHECK(messages[3] == "not supported: 'auto&' (write the type)");
  CHECK(messages[4] == "not supported: 'new' (dynamic allocation)");
  CHECK(messages[5] == "host code skipped (1 declaration: main()): only device code runs here"); // a note
  // Parsing continued past the errors: f exists and its last declaration was parsed.
  REQUIRE(parsed->unit.functions.size() == 1);
  CHECK(parsed->unit.functions[0]->body->body.back()->kind == StmtKind::Declaration);
}

TEST_CASE("parser: explicit instantiations add nothing, function specializations and other cg types are named",
          "[frontend][parser]") {
  // As NVIDIA's reduction sample writes them.
  auto parsed = parse(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <class T> __device__ T twice(T x) { return x + x; }
template <> __device__ int twice<int>(int x) { return 2 * x; }
template void host_reduce<int>(int size, int* data);
__device__ void f() {
  __shared__ cg::block_tile_memory<64> scratch;
  int y = 1;
}
)");
  const std::vector<std::string> messages = messages_of(*parsed);
  REQUIRE(messages.size() == 2);
  CHECK(messages[0] == "not supported: explicit specializations of function templates (`template <>`)");
  CHECK(messages[1] == "not supported: cooperative_groups::block_tile_memory");
  REQUIRE(parsed->unit.functions.size() == 2); // twice and f
  CHECK(parsed->unit.functions[1]->body->body.back()->kind == StmtKind::Declaration);
}

// Programming Guide 7.1/7.2: what names no execution or memory space is host code.
TEST_CASE("parser: host code is skipped with one note, whatever C++ it holds", "[frontend][parser]") {
  auto parsed = parse(R"(
using namespace std;
const int N = 4;
const int M = 2 * 3;
const char *sample_name = "demo";
const char *const titles[] = {"a", "b"};
float *d_a, *d_b;
static cudaStream_t stream;
namespace util { int size(std::vector<int>& v) { return v.size(); } }
template <typename T> T host_max(T a, T b) { return a > b ? a : b; }
int table[3] = {1, 2, 3};
static const char shm_name[] = "demo";
const float weights[2] = {0.5f, 0.5f};
void check(cudaError_t e, const char* where);
__host__ void on_host() { }
__host__ __device__ int both(int x) { return x; }
__global__ void k(float* a) { a[threadIdx.x] = both(N); }
int main(int argc, char** argv) {
  std::vector<float> h(N);
  cudaMalloc(&d_a, N * sizeof(float));
  k<<<1, N>>>(d_a);
  return 0;
}
)");
  const std::vector<std::string> messages = messages_of(*parsed);
  REQUIRE(messages.size() == 1);
  // A pointer, even to const or const itself, is no constant device code may use (as the SDK
  // samples' `const char *sSDKsample = "...";`, which once stopped them as a __constant__
  // without a constant initializer).
  // So is a const array (simpleIPC's `static const char shmName[] = "..."`): only a scalar of
  // built-in type is a constant device code may use.
  CHECK(messages[0] == "host code skipped (13 declarations: sample_name, titles, d_a, stream, host_max(), table "
                       "and 5 more): only device code runs here");
  CHECK(parsed->sink.error_count() == 0);
  REQUIRE(parsed->unit.functions.size() == 2); // both, k
  CHECK(parsed->unit.globals.size() == 2);     // N, M
  CHECK(parsed->unit.host_code.size() == 13);
}

// FDTD3d: a header declares the host functions that the file then defines.
TEST_CASE("parser: the host-code note names a function declared and defined once", "[frontend][parser]") {
  auto parsed = parse(R"(
bool setup(int *result);
void run(float *out);
__global__ void k(int *p) { *p = 1; }
bool setup(int *result) { *result = 1; return true; }
void run(float *out) { k<<<1, 1>>>(0); }
)");
  const std::vector<std::string> messages = messages_of(*parsed);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0] == "host code skipped (4 declarations: setup(), run()): only device code runs here");
  CHECK(parsed->unit.host_code.size() == 4);
}

TEST_CASE("parser: deep nesting is an error, not a stack overflow", "[frontend][parser]") {
  std::string deep(100000, '(');
  DiagnosticSink sink;
  expr(deep + "1", &sink);
  REQUIRE(sink.has_errors());
  CHECK(sink.diagnostics()[0].message == "nesting too deep (more than 200 levels)");

  std::string blocks = "__device__ void f() " + std::string(5000, '{') + std::string(5000, '}');
  auto parsed = parse(blocks);
  CHECK(parsed->sink.has_errors());
}
