// mp_fence_writer_intra: MP+fence(writer) (message passing, __threadfence() in the writer only).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing with a fence in the writer only: the writer's stores are ordered, the
// reader's loads are not.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | int r0 = y;
//   __threadfence();  | int r1 = x;
//   y = 1;            |
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: gpu: x=1 reaches memory before y=1, but the reader never fences, so its view of x may
// stay at 0 after it reads y=1.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions": a fence orders only the
// calling thread's accesses, so the reader needs one too; PTX ISA, "Memory Consistency Model"
// (section 8): no acquire pattern on the reader side, so no causality order.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_fence_writer_intra.r0 mp_fence_writer_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_fence_writer_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence();
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        int r1 = x;
    }
}
