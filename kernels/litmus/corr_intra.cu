// corr_intra: CoRR (coherence of two reads).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Two reads of one location by one thread: can the second read an older value than the first?
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | int r0 = x;
//                     | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: a load moves the thread's view up to the entry it read, so later loads of x cannot
// go back. Known difference: PTX gives plain (weak) accesses no coherence guarantee; this model
// keeps per-location coherence for all accesses (the race detector reports the race).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Coherence and Sequential Consistency
// Per Location axioms (for morally strong accesses).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe corr_intra.r0 corr_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0;

__global__ void corr_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
    } else if (threadIdx.x == 32) {
        int r0 = x;
        int r1 = x;
    }
}
