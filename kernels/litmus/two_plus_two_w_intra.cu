// two_plus_two_w_intra: 2+2W (two threads, two writes each).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Each thread stores to both locations in opposite orders; the outcome is the final memory. Can
// both locations end with the value that was first in its writer's program?
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | y = 1;
//   y = 2;            | x = 2;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: final x=1 y=1.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: tso: FIFO buffers keep each thread's stores in order, so x=1 y=1 needs a cycle (F). gpu:
// buffers drain different locations in any order (A).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): coherence orders of different
// locations are unrelated without fences; CUDA C++ Programming Guide, 10.5 "Memory Fence
// Functions".
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe x y
//@ expect sc: exactly x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect tso: exactly x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect gpu: exactly x=1 y=1 | x=1 y=2 | x=2 y=1 | x=2 y=2
//@ expect sc: unreachable x=1 y=1
//@ expect tso: unreachable x=1 y=1
//@ expect gpu: reachable x=1 y=1
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void two_plus_two_w_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        y = 2;
    } else if (threadIdx.x == 32) {
        y = 1;
        x = 2;
    }
}
