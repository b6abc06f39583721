// mp_block_device_inter: MP+block/device (block fence in the writer, device fence in the reader).
// Placement: threads in different blocks (grid=2 block=1).
//
// Message passing where the writer's fence has block scope and the reader's device scope:
// synchronisation happens only at a scope both fences cover.
//
//   block 0                | block 1
//   x = 1;                 | int r0 = y;
//   __threadfence_block(); | __threadfence();
//   y = 1;                 | int r1 = x;
//
// Weak outcome: r0=1 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: gpu: the writer publishes x=1 only in its block's fence view; the reader's device fence
// joins its own block's and the device's views: the same block sees x=1, another does not.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): the two fences are morally strong only
// if each one's scope includes the other thread; CUDA C++ Programming Guide, 10.5 "Memory Fence
// Functions" (scope of __threadfence_block).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe mp_block_device_inter.r0 mp_block_device_inter.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race
//@ expect all: diagnostic scoped-race

__device__ int x = 0, y = 0;

__global__ void mp_block_device_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        __threadfence_block();
        y = 1;
    } else if (blockIdx.x == 1) {
        int r0 = y;
        __threadfence();
        int r1 = x;
    }
}
