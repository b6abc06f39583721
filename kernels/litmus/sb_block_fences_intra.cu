// sb_block_fences_intra: SB+block-fences (store buffering, __threadfence_block() in both).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Store buffering with block-scope fences.
//
//   thread 0 (warp 0)      | thread 32 (warp 1)
//   x = 1;                 | y = 1;
//   __threadfence_block(); | __threadfence_block();
//   int r0 = y;            | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=0 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: tso: fences drain the buffers (tso has no scopes). gpu: block fences meet only in one
// block's fence view: F within a block, A between blocks (stores drained, views stale).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): fence.sc.cta of two CTAs are not
// morally strong, so no Fence-SC order between them; CUDA C++ Programming Guide, 10.5 "Memory
// Fence Functions" (__threadfence_block).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe sb_block_fences_intra.r0 sb_block_fences_intra.r1
//@ expect sc: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=0 r1=0
//@ expect tso: unreachable r0=0 r1=0
//@ expect gpu: unreachable r0=0 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void sb_block_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence_block();
        int r0 = y;
    } else if (threadIdx.x == 32) {
        y = 1;
        __threadfence_block();
        int r1 = x;
    }
}
