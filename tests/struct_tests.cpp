// Structs of the kernel's own (issue 13), lowered as vector types are: one scalar per field, an
// array of structs its fields in a row. Each kernel is checked for its exact outcome set.
#include "language_helpers.h"

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("structs: buffers, locals, parameters by value and by pointer, typedef, class, sizeof",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct Particle {
  float x, y;
  float vx, vy;
};
typedef struct { int key; int value; } Pair;
class Counter { public: unsigned hits, misses; };
struct Config { std::string name; int runs; }; // host code's alone: not used on the device

//@ launch grid=1 block=2
//@ arg ps: Particle[2] = {0, 0, 1, 2, 10, 10, 3, 4}
//@ arg pairs: Pair[2] = {5, 6, 7, 8}
//@ observe ps pairs counts size

__device__ struct Counter counts;
__device__ int size;

__device__ void advance(Particle* p, float dt) {
  p->x += p->vx * dt;
  p->y += p->vy * dt;
}
__device__ int sum(Pair q) { return q.key + q.value; }

__global__ void k(Particle* ps, Pair* pairs) {
  int i = threadIdx.x;
  Particle local = ps[i];
  local.vx *= 2;
  ps[i] = local;
  advance(&ps[i], 1.0f);
  struct Swapped { int first, second; };
  Swapped s = {pairs[i].value, pairs[i].key};
  Pair mine = {s.first, s.second};
  pairs[i] = mine;
  pairs[i].value = sum(mine);
  if (i == 0) { counts.hits = 1; counts.misses = 2; size = sizeof(Particle) + sizeof(Pair); }
}
)") == std::set<std::string>{"ps[0]=2 ps[1]=2 ps[2]=2 ps[3]=2 ps[4]=16 ps[5]=14 ps[6]=6 ps[7]=4 pairs[0]=6 "
                             "pairs[1]=11 pairs[2]=8 pairs[3]=15 counts.hits=1 counts.misses=2 size=24"});
}

TEST_CASE("a struct's fields are separate locations: message passing through one is weak under gpu",
          "[frontend][language][structs]") {
  const std::string kernel = R"(
//@ launch grid=1 block=2
//@ observe out
struct Message { int data, ready; };
__device__ Message box;
__device__ int out[2];
__global__ void k() {
  if (threadIdx.x == 0) {
    box.data = 42;
    box.ready = 1;
  } else {
    Message seen;
    seen.ready = box.ready;
    seen.data = box.data;
    out[0] = seen.ready;
    out[1] = seen.data;
  }
}
)";
  const std::set<std::string> ordered{"out[0]=0 out[1]=0", "out[0]=0 out[1]=42", "out[0]=1 out[1]=42"};
  CHECK(exact_outcomes(kernel, "sc") == ordered);
  CHECK(exact_outcomes(kernel, "tso") == ordered);
  std::set<std::string> weak = ordered;
  weak.insert("out[0]=1 out[1]=0");
  CHECK(exact_outcomes(kernel, "gpu") == weak);
}

TEST_CASE("a whole struct is copied field by field: a concurrent reader may see it torn",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
//@ launch grid=1 block=2
//@ observe out
struct Range { int low, high; };
__device__ Range shared_range = {0, 0};
__device__ int out[2];
__global__ void k() {
  if (threadIdx.x == 0) {
    Range r = {1, 1};
    shared_range = r;
  } else {
    Range copy = shared_range;
    out[0] = copy.low;
    out[1] = copy.high;
  }
}
)") == std::set<std::string>{"out[0]=0 out[1]=0", "out[0]=0 out[1]=1", "out[0]=1 out[1]=0", "out[0]=1 out[1]=1"});
}

TEST_CASE("a __device__ struct is observed field by field, and expectations name its fields",
          "[frontend][language][structs]") {
  const std::string kernel = R"(
//@ launch grid=1 block=1
//@ observe stats
//@ expect all: exactly stats.sum=6 stats.count=3
//@ expect all: always stats.sum == 2 * stats.count
struct Stats { int sum, count; };
__device__ Stats stats;
__global__ void k() {
  for (int i = 1; i <= 3; ++i) { stats.sum += i; stats.count++; }
}
)";
  CHECK(error_messages(kernel).empty());
  CHECK(exact_outcomes(kernel) == std::set<std::string>{"stats.sum=6 stats.count=3"});
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
//@ observe stats
//@ expect all: always stats.total == 0
struct Stats { int sum, count; };
__device__ Stats stats;
__global__ void k() {}
)") == std::vector<std::string>{"'stats.total' is not an observed item (observed: stats.sum, stats.count)"});
}

TEST_CASE("a struct with fields of several types of one size: each field read in its own type",
          "[frontend][language][structs]") {
  // An arg-max in shared memory, the common { value, index } pair: exact under every model.
  const std::string argmax = R"(
struct Best { float value; int index; };
//@ launch grid=1 block=4
//@ arg in: float[4] = {3.5, 9.25, 1.0, 9.0}
//@ observe best
__device__ Best best;
__shared__ Best s[4];
__global__ void argmax(const float* in) {
  int t = threadIdx.x;
  Best mine = {in[t], t};
  s[t] = mine;
  __syncthreads();
  for (int stride = 2; stride > 0; stride >>= 1) {
    if (t < stride && s[t + stride].value > s[t].value) s[t] = s[t + stride];
    __syncthreads();
  }
  if (t == 0) best = s[0];
}
)";
  for (const char* model : {"sc", "tso", "gpu"}) {
    INFO(model);
    CHECK(exact_outcomes(argmax, model) == std::set<std::string>{"best.value=9.25 best.index=1"});
  }
  // Buffers: a list gives each field in its type, one value fills every field, iota counts
  // through the fields; the buffer is shown field by field in each field's type.
  CHECK(exact_outcomes(R"(
struct Item { int key; float weight; };
//@ launch grid=1 block=2
//@ arg items: Item[2] = {1, 0.5, 2, 1.25}
//@ arg more: Item[2] = 3
//@ arg seq: Item[2] = iota(1)
//@ observe items more seq table
__device__ Item table[2];
__global__ void k(Item* items, Item* more, Item* seq) {
  int t = threadIdx.x;
  items[t].weight *= 2;
  items[t].key += 10;
  Item copy = items[t];
  table[t] = copy;
  (table + t)->weight += more[t].weight + seq[t].weight;
}
)") == std::set<std::string>{"items[0]=11 items[1]=1 items[2]=12 items[3]=2.5 more[0]=3 more[1]=3 more[2]=3 "
                             "more[3]=3 seq[0]=1 seq[1]=2 seq[2]=3 seq[3]=4 table[0]=11 table[1]=6 table[2]=12 "
                             "table[3]=9.5"});
}

TEST_CASE("arithmetic on pointers to structs and vectors counts whole elements (C++ [expr.add])",
          "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct P { int a, b; };
//@ launch grid=1 block=1
//@ arg ps: P[4] = {1, 2, 3, 4, 5, 6, 7, 8}
//@ arg vs: int2[2] = {10, 20, 30, 40}
//@ observe out
__device__ long out[7];
__global__ void k(P* ps, int2* vs) {
  P* q = ps + 2;
  out[0] = q->a;
  q -= 1;
  out[1] = q[0].b;
  P* r = &ps[3];
  out[2] = r - ps;
  out[3] = (1 + ps)->a;
  q += 2;
  out[4] = q->b;
  out[5] = (vs + 1)->y;
  int2* w = vs;
  w += 1;
  out[6] = w[0].x;
}
)") == std::set<std::string>{"out[0]=5 out[1]=4 out[2]=3 out[3]=3 out[4]=8 out[5]=40 out[6]=30"});
}

TEST_CASE("sizeof a whole struct or vector variable or element is its fields' total", "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct P { int a, b; };
//@ launch grid=1 block=1
//@ arg ps: P[2] = 0
//@ observe out
__device__ unsigned long out[5];
__global__ void k(P* ps) {
  P s = {1, 2};
  float4 v = make_float4(1, 2, 3, 4);
  out[0] = sizeof(s);
  out[1] = sizeof v;
  out[2] = sizeof ps[1];
  out[3] = sizeof(ps);
  out[4] = sizeof(v.x);
}
)") == std::set<std::string>{"out[0]=8 out[1]=16 out[2]=8 out[3]=8 out[4]=4"});
}

TEST_CASE("operators on whole structs and vectors are named", "[frontend][language][structs]") {
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
struct P { int a, b; };
__global__ void k() { P s = {1, 2}; P t; t = s + s; }
)") == std::vector<std::string>{"not supported: operator '+' on a whole P (there are no operators on struct values "
                                "here: write each field)"});
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
__global__ void k() { float2 a = make_float2(1, 2); float2 b = a * a; }
)") == std::vector<std::string>{"not supported: operator '*' on a whole float2 (there are no operators on vector "
                                "values here: write each field)"});
}

TEST_CASE("structs that cannot be lowered are named where device code uses them, and so are arrays of padded ones", "[frontend][language][structs]") {
  CHECK(error_messages(R"(
//@ launch grid=1 block=1
struct Mixed { char a; int b; };
struct WithMethod { int a; __device__ int get() const { return a; } };
struct WithArray { int v[4]; };
struct WithPointer { int* next; };
struct Derived : Mixed { int c; };
union Bits { int i; float f; };
struct Unused { double d; int n; };
struct Node { int key, next; };
__global__ void k(Node* nodes) {
  Mixed m;
  WithMethod w;
  WithArray a;
  WithPointer p;
  WithPointer list[2];
  Mixed* pm;
  Derived d;
  Bits b;
  Node n = nodes[0];
  n.key = n.value;
  Mixed other = n;
}
)") == std::vector<std::string>{
             "not supported: struct 'WithArray' has an array field ('v')",
             "not supported: an array of WithPointer (it has a pointer field ('next'); structs lie in memory here "
             "only when their fields are scalars of one size)",
             "not supported: a pointer to Mixed (it has fields of different sizes ('a' is char, 'b' is int); structs "
             "lie in memory here only when their fields are scalars of one size)",
             "not supported: struct 'Derived' has a base class",
             "not supported: union 'Bits' has overlapping fields (a union)",
             "Node has no field 'value' (it has key, next)",
             "a Node 'n' where a Mixed is expected (a struct converts to no other type)",
             "kernel parameter 'nodes' has no argument (give it with //@ arg nodes: int[N] = zeros)",
         });
}

TEST_CASE("structs: vector fields are flattened onto the struct's fields", "[frontend][language][structs]") {
  CHECK(exact_outcomes(R"(
struct Particle { float3 pos; float3 vel; };
struct Aligned { float4 a; float b; };
//@ launch grid=1 block=2
//@ arg ps: Particle[2] = {0, 0, 0, 1, 2, 3, 10, 10, 10, 4, 5, 6}
//@ observe ps sizes
__device__ int sizes[2];
__device__ float3 step(float3 p, float3 v) { return make_float3(p.x + v.x, p.y + v.y, p.z + v.z); }
__global__ void k(Particle* ps) {
  int i = threadIdx.x;
  Particle q = ps[i];
  q.pos = step(q.pos, q.vel);
  ps[i].pos.x = q.pos.x;
  ps[i].pos.y = q.pos.y;
  Particle* r = &ps[i];
  r->pos.z = q.pos.z;
  float3 v = ps[i].vel;
  ps[i].vel = v;
  sizes[0] = sizeof(Particle);
  sizes[1] = sizeof(Aligned);
}
)") == std::set<std::string>{"ps[0]=1 ps[1]=2 ps[2]=3 ps[3]=1 ps[4]=2 ps[5]=3 ps[6]=14 ps[7]=15 ps[8]=16 ps[9]=4 "
                             "ps[10]=5 ps[11]=6 sizes[0]=24 sizes[1]=32"});
  CHECK(error_messages(R"(
struct Particle { float3 pos; float3 vel; };
//@ launch grid=1 block=1
//@ arg ps: Particle[1] = zeros
__global__ void k(Particle* ps) {
  float x = ps[0].pos;
  ps[0].pos.w = 1;
  float2 v = ps[0].pos;
}
)") == std::vector<std::string>{
             "not supported: the whole vector field 'pos' of Particle here (use its fields, as pos.x, or a Particle "
             "variable's)",
             "float3 has no field 'w'",
             "a float3 'ps[...].pos' where a float2 is expected (CUDA does not convert vector types)",
         });
  CHECK(error_messages(R"(
struct Aligned { float4 a; float b; };
//@ launch grid=1 block=1
__global__ void k(Aligned* as) {}
)") == std::vector<std::string>{
             "not supported: a pointer to Aligned (it has padding (sizeof is 32, its fields take 20: a vector field's "
             "alignment); structs lie in memory here only when their fields are scalars of one size)",
             "kernel parameter 'as' has no argument (give it with //@ arg as: float[N] = zeros)",
         });
}
