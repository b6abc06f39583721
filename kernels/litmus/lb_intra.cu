// lb_intra: LB (load buffering).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Each thread loads one location then stores the other. Can a load see a store that comes after
// the other thread's load?
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   int r0 = x;       | int r1 = y;
//   y = 1;            | x = 1;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=1.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: No model here performs a load after a later store of the same thread: loads are
// performed in program order, stores only enter a buffer when executed. Known difference: PTX
// allows LB (docs/LITMUS.md, "Known differences from the PTX memory model").
// Rule: PTX ISA, "Memory Consistency Model" (section 8) allows it for relaxed accesses (No Thin
// Air only rules out cycles of dependencies); this model forbids it.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe lb_intra.r0 lb_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0
//@ expect sc: unreachable r0=1 r1=1
//@ expect tso: unreachable r0=1 r1=1
//@ expect gpu: unreachable r0=1 r1=1
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void lb_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        int r0 = x;
        y = 1;
    } else if (threadIdx.x == 32) {
        int r1 = y;
        x = 1;
    }
}
