#ifndef SCALE
#define SCALE 2
#endif
//@ launch grid=1 block=2
//@ observe out
__device__ int out[2];
__global__ void first() { out[threadIdx.x] = SCALE; }
__global__ void second() { out[threadIdx.x] = 10 * SCALE; }
