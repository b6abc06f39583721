// mp_system_fences_inter: MP+system-fences (message passing, __threadfence_system() in both).
// Placement: threads in different blocks (grid=2 block=1).
//
// Message passing with system-scope fences, which include the device scope.
//
//   block 0                 | block 1
//   x = 1;                  | int r0 = y;
//   __threadfence_system(); | __threadfence_system();
//   y = 1;                  | int r1 = x;
//
// Weak outcome: r0=1 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: a system fence joins the block, device and system fence views; as with device
// fences the reader's fence picks up x=1 from the writer's.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions" (__threadfence_system); PTX
// ISA, "Memory Consistency Model" (section 8): fence.sc.sys, release and acquire patterns at
// system scope, Causality axiom.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe mp_system_fences_inter.r0 mp_system_fences_inter.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_system_fences_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        __threadfence_system();
        y = 1;
    } else if (blockIdx.x == 1) {
        int r0 = y;
        __threadfence_system();
        int r1 = x;
    }
}
