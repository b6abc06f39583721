// mp_fences_inter: MP+fences (message passing, __threadfence() in both threads).
// Placement: threads in different blocks (grid=2 block=1).
//
// Message passing with a device-scope fence between the two accesses of each thread.
//
//   block 0          | block 1
//   x = 1;           | int r0 = y;
//   __threadfence(); | __threadfence();
//   y = 1;           | int r1 = x;
//
// Weak outcome: r0=1 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: the writer's fence drains x=1 and publishes it in the device fence view before y=1
// can drain; a reader that saw y=1 fences after that and joins x=1 into its view.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions" (writeXY/readXY with fences);
// PTX ISA, "Memory Consistency Model" (section 8): __threadfence() is fence.sc.gpu, fences on
// both sides give the release and acquire patterns, so the Causality axiom forbids it.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe mp_fences_inter.r0 mp_fences_inter.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_fences_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        __threadfence();
        y = 1;
    } else if (blockIdx.x == 1) {
        int r0 = y;
        __threadfence();
        int r1 = x;
    }
}
