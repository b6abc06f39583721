// wrc_intra: WRC (write-to-read causality).
// Placement: threads in one block, different warps (grid=1 block=96).
//
// Thread 0 stores x; thread 1 reads it and stores y; thread 2 reads y then x. Is causality
// transitive?
//
//   thread 0 (warp 0) | thread 32 (warp 1) | thread 64 (warp 2)
//   x = 1;            | int r0 = x;        | int r1 = y;
//                     | y = 1;             | int r2 = x;
//   (the other 93 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=1 r2=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso: one memory (F). gpu: thread 2's view of x may stay at 0 after it read y=1
// (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): no causality order without fences;
// CUDA C++ Programming Guide, 10.5 "Memory Fence Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=96
//@ observe wrc_intra.r0 wrc_intra.r1 wrc_intra.r2
//@ expect sc: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=1
//@ expect tso: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=1
//@ expect gpu: exactly r0=0 r1=0 r2=0 | r0=0 r1=0 r2=1 | r0=0 r1=1 r2=0 | r0=0 r1=1 r2=1 | \
//@   r0=1 r1=0 r2=0 | r0=1 r1=0 r2=1 | r0=1 r1=1 r2=0 | r0=1 r1=1 r2=1
//@ expect sc: unreachable r0=1 r1=1 r2=0
//@ expect tso: unreachable r0=1 r1=1 r2=0
//@ expect gpu: reachable r0=1 r1=1 r2=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void wrc_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
    } else if (threadIdx.x == 32) {
        int r0 = x;
        y = 1;
    } else if (threadIdx.x == 64) {
        int r1 = y;
        int r2 = x;
    }
}
