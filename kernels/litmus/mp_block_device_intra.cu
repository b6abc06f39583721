// mp_block_device_intra: MP+block/device (block fence in the writer, device fence in the reader).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// Message passing where the writer's fence has block scope and the reader's device scope:
// synchronisation happens only at a scope both fences cover.
//
//   thread 0 (warp 0)      | thread 32 (warp 1)
//   x = 1;                 | int r0 = y;
//   __threadfence_block(); | __threadfence();
//   y = 1;                 | int r1 = x;
//   (the other 62 threads of the block return at once, touching nothing)
//
// Weak outcome: r0=1 r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: gpu: the writer publishes x=1 only in its block's fence view; the reader's device fence
// joins its own block's and the device's views: the same block sees x=1, another does not.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): the two fences are morally strong only
// if each one's scope includes the other thread; CUDA C++ Programming Guide, 10.5 "Memory Fence
// Functions" (scope of __threadfence_block).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe mp_block_device_intra.r0 mp_block_device_intra.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: unreachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_block_device_intra() {
    if (threadIdx.x % 32 != 0) return;   // one thread per warp takes part
    if (threadIdx.x == 0) {
        x = 1;
        __threadfence_block();
        y = 1;
    } else if (threadIdx.x == 32) {
        int r0 = y;
        __threadfence();
        int r1 = x;
    }
}
