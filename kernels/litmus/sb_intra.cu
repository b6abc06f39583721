// sb_intra: SB (store buffering).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Each thread stores to one location then loads the other. Can a load pass an earlier store to
// a different location?
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | y = 1;
//   int r0 = y;       | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=0 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso A   gpu A   (A reachable, F unreachable)
// Why: sc: one store comes first and the other thread's load sees it (F). tso and gpu: both
// stores can sit in store buffers while both loads read memory (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): no Fence-SC order without fences; CUDA
// C++ Programming Guide, 10.5 "Memory Fence Functions" (no ordering without fences).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe sb_intra.r0 sb_intra.r1
//@ expect sc: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=0 r1=0
//@ expect tso: reachable r0=0 r1=0
//@ expect gpu: reachable r0=0 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void sb_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        int r0 = y;
    } else if (threadIdx.x == 32) {
        y = 1;
        int r1 = x;
    }
}
