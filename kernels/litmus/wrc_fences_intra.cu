// wrc_fences_intra: WRC+fences (__threadfence() in the second and third threads).
// Placement: threads in one block, different warps (grid=1 block=96).
//
// WRC with a device fence between the accesses of threads 1 and 2.
//
//   thread 0 (warp 0) | thread 32 (warp 1) | thread 64 (warp 2)
//   x = 1;            | int r0 = x;        | int r1 = y;
//                     | __threadfence();   | __threadfence();
//                     | y = 1;             | int r2 = x;
//   (the other 93 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=1 r2=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: thread 1's fence joins x=1 (which it read) into the device fence view before y=1 is
// stored; thread 2 read y=1, so its fence comes later and picks up x=1.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Causality axiom (observation, then
// release and acquire patterns at gpu scope); CUDA C++ Programming Guide, 10.5 "Memory Fence
// Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=96
//@ observe wrc_fences_intra.r0 wrc_fences_intra.r1 wrc_fences_intra.r2
//@ expect sc: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=1
//@ expect tso: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=1
//@ expect gpu: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=1
//@ expect sc: unreachable r0=1 r1=1 r2=0
//@ expect tso: unreachable r0=1 r1=1 r2=0
//@ expect gpu: unreachable r0=1 r1=1 r2=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void wrc_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
    } else if (threadIdx.x == 32) {
        int r0 = x;
        __threadfence();
        y = 1;
    } else if (threadIdx.x == 64) {
        int r1 = y;
        __threadfence();
        int r2 = x;
    }
}
