// sb_block_fences_inter: SB+block-fences (store buffering, __threadfence_block() in both).
// Placement: threads in different blocks (grid=2 block=1).
//
// Store buffering with block-scope fences.
//
//   block 0                | block 1
//   x = 1;                 | y = 1;
//   __threadfence_block(); | __threadfence_block();
//   int r0 = y;            | int r1 = x;
//
// Weak outcome: r0=0 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: tso: fences drain the buffers (tso has no scopes). gpu: block fences meet only in one
// block's fence view: F within a block, A between blocks (stores drained, views stale).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): fence.sc.cta of two CTAs are not
// morally strong, so no Fence-SC order between them; CUDA C++ Programming Guide, 10.5 "Memory
// Fence Functions" (__threadfence_block).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe sb_block_fences_inter.r0 sb_block_fences_inter.r1
//@ expect sc: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=0 r1=0
//@ expect tso: unreachable r0=0 r1=0
//@ expect gpu: reachable r0=0 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void sb_block_fences_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        __threadfence_block();
        int r0 = y;
    } else if (blockIdx.x == 1) {
        y = 1;
        __threadfence_block();
        int r1 = x;
    }
}
