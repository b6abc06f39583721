// mp_intra: MP (message passing).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// The writer stores data x then flag y; the reader loads the flag then the data. Are two stores
// to different locations observed in program order, and two loads performed in order?
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | int r0 = y;
//   y = 1;            | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso keep store order (tso buffers are FIFO). gpu: the writer's buffer may drain y
// before x, and the reader's view of x may stay at the initial value after it has seen y=1.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions": the order in which a thread
// writes is "not necessarily the order in which the data is observed being written by another
// CUDA thread"; PTX ISA, "Memory Consistency Model" (section 8): no order between weak
// accesses.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_intra.r0 mp_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        int r1 = x;
    }
}
