// mp_inter: MP (message passing).
// Placement: threads in different blocks (grid=2 block=1).
//
// The writer stores data x then flag y; the reader loads the flag then the data. Are two stores
// to different locations observed in program order, and two loads performed in order?
//
//   block 0 | block 1
//   x = 1;  | int r0 = y;
//   y = 1;  | int r1 = x;
//
// Weak outcome: r0=1 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: sc and tso keep store order (tso buffers are FIFO). gpu: the writer's buffer may drain y
// before x, and the reader's view of x may stay at the initial value after it has seen y=1.
// Rule: CUDA C++ Programming Guide, 10.5 "Memory Fence Functions": the order in which a thread
// writes is "not necessarily the order in which the data is observed being written by another
// CUDA thread"; PTX ISA, "Memory Consistency Model" (section 8): no order between weak
// accesses.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe mp_inter.r0 mp_inter.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        y = 1;
    } else if (blockIdx.x == 1) {
        int r0 = y;
        int r1 = x;
    }
}
