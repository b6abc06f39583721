// two_plus_two_w_fences_intra: 2+2W+fences (__threadfence() between each thread's two stores).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// 2+2W with a device fence between each thread's two stores; the outcome is the final memory.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | y = 1;
//   __threadfence();  | __threadfence();
//   y = 2;            | x = 2;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: final x=1 y=1.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: each fence drains the first store before the second enters the buffer, so x=1 y=1
// would need x=2 before x=1 before y=2 before y=1 before x=2: a cycle (F).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Fence-SC axiom; CUDA C++ Programming
// Guide, 10.5 "Memory Fence Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe x y
//@ expect sc: exactly x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect tso: exactly x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect gpu: exactly x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect sc: unreachable x=1 y=1
//@ expect tso: unreachable x=1 y=1
//@ expect gpu: unreachable x=1 y=1
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void two_plus_two_w_fences_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence();
        y = 2;
    } else if (threadIdx.x == 32) {
        y = 1;
        __threadfence();
        x = 2;
    }
}
