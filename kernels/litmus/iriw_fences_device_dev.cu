// IRIW with device-scope fences between the readers' loads, every result stored to a __device__ variable instead of a register.
// Source: fencelab (issue 11: litmus kernels whose results live in memory, which the
// plain exhaustive search could not finish); verdicts as in docs/LITMUS.md.
// Teaches: two readers must agree on the order of two independent stores when their fences are of
// device or system scope; device-scope fences between blocks do not make them agree.
// Each thread is its own block, so block-scope fences do not reach the other threads.
//@ launch grid=4 block=1
//@ observe out[0] out[1] out[2] out[3]
//@ expect sc: unreachable out[0]=1 out[1]=0 out[2]=1 out[3]=0
//@ expect tso: unreachable out[0]=1 out[1]=0 out[2]=1 out[3]=0
//@ expect gpu: unreachable out[0]=1 out[1]=0 out[2]=1 out[3]=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;
__device__ int out[4];

__global__ void iriw_fences_device_dev() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        y = 1;
    } else if (blockIdx.x == 2) {
        out[0] = x;
        __threadfence();
        out[1] = y;
    } else if (blockIdx.x == 3) {
        out[2] = y;
        __threadfence();
        out[3] = x;
    }
}
