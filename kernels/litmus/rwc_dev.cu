// RWC (read-to-write causality) without fences, every result stored to a __device__ variable instead of a register.
// Source: fencelab (issue 11: litmus kernels whose results live in memory, which the
// plain exhaustive search could not finish); verdicts as in docs/LITMUS.md.
// Teaches: a reader sees x=1 and then y=0, while another thread writes y then reads x=0: without fences
// the stores may be seen in different orders (store buffering), under tso and gpu.
// Each thread is its own block, so block-scope fences do not reach the other threads.
//@ launch grid=3 block=1
//@ observe out[0] out[1] out[2]
//@ expect sc: unreachable out[0]=1 out[1]=0 out[2]=0
//@ expect tso: reachable out[0]=1 out[1]=0 out[2]=0
//@ expect gpu: reachable out[0]=1 out[1]=0 out[2]=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;
__device__ int out[3];

__global__ void rwc_dev() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        out[0] = x;
        out[1] = y;
    } else if (blockIdx.x == 2) {
        y = 1;
        out[2] = x;
    }
}
