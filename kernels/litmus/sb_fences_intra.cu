// sb_fences_intra: SB+fences (store buffering, __threadfence() in both).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Store buffering with a device fence between each thread's store and load.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | y = 1;
//   __threadfence();  | __threadfence();
//   int r0 = y;       | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=0 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: tso: fences drain the buffers. gpu: each fence drains its store and joins the device
// fence view; the later of the two fences picks up the other thread's store.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Fence-SC axiom (fence.sc operations
// are totally ordered); CUDA C++ Programming Guide, 10.5 "Memory Fence Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe sb_fences_intra.r0 sb_fences_intra.r1
//@ expect sc: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=0 r1=0
//@ expect tso: unreachable r0=0 r1=0
//@ expect gpu: unreachable r0=0 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void sb_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence();
        int r0 = y;
    } else if (threadIdx.x == 32) {
        y = 1;
        __threadfence();
        int r1 = x;
    }
}
