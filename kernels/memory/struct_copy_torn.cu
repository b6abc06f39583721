// struct_copy_torn: one thread assigns a whole struct while another copies it.
//
// Source: fencelab catalogue (the "the struct is written in one statement, so the reader sees
// all of it or none of it" assumption behind many hand-rolled status records).
// Teaches: a struct assignment is one access per field, not one atomic access: C++ copies a
// class member by member ([class.copy.assign]), and CUDA promises no atomicity for plain
// accesses beyond a naturally aligned 1, 2, 4, 8 or 16-byte word (Programming Guide, "Device
// Memory Accesses"); nvcc (sm_90) emits this copy of an 8-byte, 4-aligned struct as two
// `st.global.u32` and the read as two `ld.global.u32`.
// A reader racing with the writer can see the new `low` with the old `high`, or the other way
// round. The race detector names both fields.
// Status: BUGGY (a data race on both fields; a torn copy is reachable). The fix: publish the
// record with a flag behind a __threadfence(), or pack both halves into one 64-bit word
// written with atomicExch and read with atomicAdd(&w, 0).
//
// Weak models: every order of the four accesses is possible even under sc (the reader's two
// loads fall between the writer's two stores, or around them), so all four outcomes, torn ones
// included, are reachable in every model.
//
//@ launch grid=1 block=2
//@ observe out
//@ expect all: exactly out[0]=0 out[1]=0 | out[0]=0 out[1]=1 | out[0]=1 out[1]=0 | out[0]=1 out[1]=1
//@ expect all: reachable out[0]=1 out[1]=0
//@ expect all: diagnostic data-race

struct Range {
    int low, high;
};

__device__ Range published = {0, 0};
__device__ int out[2];

__global__ void struct_copy_torn() {
    if (threadIdx.x == 0) {
        Range next = {1, 1};
        published = next;          // two stores: published.low, then published.high
    } else {
        Range copy = published;    // two loads: published.low, then published.high
        out[0] = copy.low;
        out[1] = copy.high;
    }
}
