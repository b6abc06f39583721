// iriw_inter: IRIW (independent reads of independent writes).
// Placement: threads in different blocks (grid=4 block=1).
//
// Two writers store to x and y; two readers read them in opposite orders. Do all threads agree
// on the order of two independent stores (multi-copy atomicity)?
//
//   block 0 | block 1 | block 2     | block 3
//   x = 1;  | y = 1;  | int r0 = x; | int r2 = y;
//           |         | int r1 = y; | int r3 = x;
//
// Weak outcome: r0=1 r1=0 r2=1 r3=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso: memory is one shared copy (F). gpu: each reader has its own view, so one can
// see x=1 before y=1 and the other y=1 before x=1 (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): without fences there is no Fence-SC
// order and stores are not multi-copy atomic.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=4 block=1
//@ observe iriw_inter.r0 iriw_inter.r1 iriw_inter.r2 iriw_inter.r3
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

__global__ void iriw_inter() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        y = 1;
    } else if (blockIdx.x == 2) {
        int r0 = x;
        int r1 = y;
    } else if (blockIdx.x == 3) {
        int r2 = y;
        int r3 = x;
    }
}
