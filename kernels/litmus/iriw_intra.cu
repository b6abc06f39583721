// iriw_intra: IRIW (independent reads of independent writes).
// Placement: threads in one block, different warps (grid=1 block=128).
//
// Two writers store to x and y; two readers read them in opposite orders. Do all threads agree
// on the order of two independent stores (multi-copy atomicity)?
//
//   thread 0 (warp 0) | thread 32 (warp 1) | thread 64 (warp 2) | thread 96 (warp 3)
//   x = 1;            | y = 1;             | int r0 = x;        | int r2 = y;
//                     |                    | int r1 = y;        | int r3 = x;
//   (the other 124 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0 r2=1 r3=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso: memory is one shared copy (F). gpu: each reader has its own view, so one can
// see x=1 before y=1 and the other y=1 before x=1 (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): without fences there is no Fence-SC
// order and stores are not multi-copy atomic.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=128
//@ observe iriw_intra.r0 iriw_intra.r1 iriw_intra.r2 iriw_intra.r3
//@ expect sc: exactly r0=0 r1=0 r2=0 r3=0 | r0=0 r1=0 r2=0 r3=1 | r0=0 r1=0 r2=1 r3=0 | \
//@   r0=0 r1=0 r2=1 r3=1 | r0=0 r1=1 r2=0 r3=0 | r0=0 r1=1 r2=0 r3=1 | r0=0 r1=1 r2=1 r3=0 | \
//@   r0=0 r1=1 r2=1 r3=1 | r0=1 r1=0 r2=0 r3=0 | r0=1 r1=0 r2=0 r3=1 | r0=1 r1=0 r2=1 r3=1 | \
//@   r0=1 r1=1 r2=0 r3=0 | r0=1 r1=1 r2=0 r3=1 | r0=1 r1=1 r2=1 r3=0 | r0=1 r1=1 r2=1 r3=1
//@ expect tso: exactly r0=0 r1=0 r2=0 r3=0 | r0=0 r1=0 r2=0 r3=1 | r0=0 r1=0 r2=1 r3=0 | \
//@   r0=0 r1=0 r2=1 r3=1 | r0=0 r1=1 r2=0 r3=0 | r0=0 r1=1 r2=0 r3=1 | r0=0 r1=1 r2=1 r3=0 | \
//@   r0=0 r1=1 r2=1 r3=1 | r0=1 r1=0 r2=0 r3=0 | r0=1 r1=0 r2=0 r3=1 | r0=1 r1=0 r2=1 r3=1 | \
//@   r0=1 r1=1 r2=0 r3=0 | r0=1 r1=1 r2=0 r3=1 | r0=1 r1=1 r2=1 r3=0 | r0=1 r1=1 r2=1 r3=1
//@ expect gpu: exactly r0=0 r1=0 r2=0 r3=0 | r0=0 r1=0 r2=0 r3=1 | r0=0 r1=0 r2=1 r3=0 | \
//@   r0=0 r1=0 r2=1 r3=1 | r0=0 r1=1 r2=0 r3=0 | r0=0 r1=1 r2=0 r3=1 | r0=0 r1=1 r2=1 r3=0 | \
//@   r0=0 r1=1 r2=1 r3=1 | r0=1 r1=0 r2=0 r3=0 | r0=1 r1=0 r2=0 r3=1 | r0=1 r1=0 r2=1 r3=0 | \
//@   r0=1 r1=0 r2=1 r3=1 | r0=1 r1=1 r2=0 r3=0 | r0=1 r1=1 r2=0 r3=1 | r0=1 r1=1 r2=1 r3=0 | \
//@   r0=1 r1=1 r2=1 r3=1
//@ expect sc: unreachable r0=1 r1=0 r2=1 r3=0
//@ expect tso: unreachable r0=1 r1=0 r2=1 r3=0
//@ expect gpu: reachable r0=1 r1=0 r2=1 r3=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void iriw_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
    } else if (threadIdx.x == 32) {
        y = 1;
    } else if (threadIdx.x == 64) {
        int r0 = x;
        int r1 = y;
    } else if (threadIdx.x == 96) {
        int r2 = y;
        int r3 = x;
    }
}
