// mp_fence_reader_intra: MP+fence(reader) (message passing, __threadfence() in the reader only).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing with a fence in the reader only: the reader's loads are ordered, the writer's
// stores are not.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | int r0 = y;
//   y = 1;            | __threadfence();
//                     | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: gpu: the writer's buffer may drain y=1 while x=1 is still buffered; the reader's fence
// cannot make x=1 visible before it has drained.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions": a fence orders only the
// calling thread's accesses; PTX ISA, "Memory Consistency Model" (section 8): no release
// pattern on the writer side, so no causality order.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_fence_reader_intra.r0 mp_fence_reader_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_fence_reader_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        __threadfence();
        int r1 = x;
    }
}
