// mp_fences_atomic_flag_intra: MP+fences+atomic-flag (atomic flag and __threadfence() in both).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing with the flag y written with atomicExch(&y, 1) and read with
// atomicAdd(&y, 0), and a device fence on both sides: the standard CUDA flag idiom.
//
//   thread 0 (warp 0)  | thread 32 (warp 1)
//   x = 1;             | int r0 = atomicAdd(&y, 0);
//   __threadfence();   | __threadfence();
//   atomicExch(&y, 1); | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: the writer's fence publishes x=1 before the atomic appends y=1; the reader reads
// y=1 from the newest entry and its fence joins x=1 into its view.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): fence.sc then a strong write is a
// release pattern, a strong read then fence.sc an acquire pattern (Causality axiom); CUDA C++
// Programming Guide, 10.5 "Memory Fence Functions" (last-block-done example).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_fences_atomic_flag_intra.r0 mp_fences_atomic_flag_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_fences_atomic_flag_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence();
        atomicExch(&y, 1);
    } else if (threadIdx.x == 32) {
        int r0 = atomicAdd(&y, 0);
        __threadfence();
        int r1 = x;
    }
}
