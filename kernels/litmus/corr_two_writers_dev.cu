// CoRR with two writers, every result stored to a __device__ variable instead of a register.
// Source: fencelab (issue 11: litmus kernels whose results live in memory, which the
// plain exhaustive search could not finish); verdicts as in docs/LITMUS.md.
// Teaches: coherence: a thread that reads one store of x and then the other cannot see them in the
// opposite order from a second reader; every model here keeps coherence for each location.
// Each thread is its own block, so block-scope fences do not reach the other threads.
//@ launch grid=4 block=1
//@ observe out[0] out[1] out[2] out[3]
//@ expect sc: unreachable out[0]=1 out[1]=2 out[2]=2 out[3]=1
//@ expect tso: unreachable out[0]=1 out[1]=2 out[2]=2 out[3]=1
//@ expect gpu: unreachable out[0]=1 out[1]=2 out[2]=2 out[3]=1
//@ expect all: diagnostic data-race

__device__ int x = 0;
__device__ int out[4];

__global__ void corr_two_writers_dev() {
    if (blockIdx.x == 0) {
        x = 1;
    } else if (blockIdx.x == 1) {
        x = 2;
    } else if (blockIdx.x == 2) {
        out[0] = x;
        out[1] = x;
    } else if (blockIdx.x == 3) {
        out[2] = x;
        out[3] = x;
    }
}
