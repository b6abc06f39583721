// sb_fences_inter: SB+fences (store buffering, __threadfence() in both).
// Placement: threads in different blocks (grid=2 block=1).
//
// Store buffering with a device fence between each thread's store and load.
//
//   block 0          | block 1
//   x = 1;           | y = 1;
//   __threadfence(); | __threadfence();
//   int r0 = y;      | int r1 = x;
//
// Weak outcome: r0=0 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: tso: fences drain the buffers. gpu: each fence drains its store and joins the device
// fence view; the later of the two fences picks up the other thread's store.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Fence-SC axiom (fence.sc operations
// are totally ordered); CUDA C++ Programming Guide, 10.5 "Memory Fence Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe sb_fences_inter.r0 sb_fences_inter.r1
//@ expect sc: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=0 r1=0
//@ expect tso: unreachable r0=0 r1=0
//@ expect gpu: unreachable r0=0 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void sb_fences_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        __threadfence();
        int r0 = y;
    } else if (blockIdx.x == 1) {
        y = 1;
        __threadfence();
        int r1 = x;
    }
}
