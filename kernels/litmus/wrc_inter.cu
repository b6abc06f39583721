// wrc_inter: WRC (write-to-read causality).
// Placement: threads in different blocks (grid=3 block=1).
//
// Thread 0 stores x; thread 1 reads it and stores y; thread 2 reads y then x. Is causality
// transitive?
//
//   block 0 | block 1     | block 2
//   x = 1;  | int r0 = x; | int r1 = y;
//           | y = 1;      | int r2 = x;
//
// Weak outcome: r0=1 r1=1 r2=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso: one memory (F). gpu: thread 2's view of x may stay at 0 after it read y=1
// (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): no causality order without fences;
// CUDA C++ Programming Guide, 10.5 "Memory Fence Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=3 block=1
//@ observe wrc_inter.r0 wrc_inter.r1 wrc_inter.r2
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

__global__ void wrc_inter() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        int r0 = x;
        y = 1;
    } else if (blockIdx.x == 2) {
        int r1 = y;
        int r2 = x;
    }
}
