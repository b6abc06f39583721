// mp_fences_intra: MP+fences (message passing, __threadfence() in both threads).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing with a device-scope fence between the two accesses of each thread.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | int r0 = y;
//   __threadfence();  | __threadfence();
//   y = 1;            | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: the writer's fence drains x=1 and publishes it in the device fence view before y=1
// can drain; a reader that saw y=1 fences after that and joins x=1 into its view.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions" (writeXY/readXY with fences);
// PTX ISA, "Memory Consistency Model" (section 8): __threadfence() is fence.sc.gpu, fences on
// both sides give the release and acquire patterns, so the Causality axiom forbids it.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_fences_intra.r0 mp_fences_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence();
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        __threadfence();
        int r1 = x;
    }
}
