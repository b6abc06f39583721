// WRC with device-scope fences in the second and third threads, every result stored to a __device__ variable instead of a register.
// Source: fencelab (issue 11: litmus kernels whose results live in memory, which the
// plain exhaustive search could not finish); verdicts as in docs/LITMUS.md.
// Teaches: write-to-read causality: a store seen by a thread that then publishes a flag must be seen
// by whoever sees the flag, with fences of device or system scope; not with device-scope fences
// between blocks.
// Each thread is its own block, so block-scope fences do not reach the other threads.
//@ launch grid=3 block=1
//@ observe out[0] out[1] out[2]
//@ expect sc: unreachable out[0]=1 out[1]=1 out[2]=0
//@ expect tso: unreachable out[0]=1 out[1]=1 out[2]=0
//@ expect gpu: unreachable out[0]=1 out[1]=1 out[2]=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;
__device__ int out[3];

__global__ void wrc_fences_device_dev() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        out[0] = x;
        __threadfence();
        y = 1;
    } else if (blockIdx.x == 2) {
        out[1] = y;
        __threadfence();
        out[2] = x;
    }
}
