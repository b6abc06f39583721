// mp_block_fences_intra: MP+block-fences (message passing, __threadfence_block() in both).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing with block-scope fences: they order the accesses only as seen by threads of
// the same block.
//
//   thread 0 (warp 0)      | thread 32 (warp 1)
//   x = 1;                 | int r0 = y;
//   __threadfence_block(); | __threadfence_block();
//   y = 1;                 | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: a block fence joins the thread's view only with its own block's fence view; between
// blocks the two fences never meet (A), within one block they do (F).
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions": __threadfence_block() orders
// as observed by "all threads in the block of the calling thread"; PTX ISA, "Memory Consistency
// Model" (section 8): fence.sc.cta fences of two CTAs are not morally strong.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_block_fences_intra.r0 mp_block_fences_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_block_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence_block();
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        __threadfence_block();
        int r1 = x;
    }
}
