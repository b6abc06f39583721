// Benchmark kernel: a 2^20-thread block reduction (4,096 blocks of 256 threads), the catalogue's
// shared-memory tree reduction (kernels/reductions/block_reduction_optimized.cu) at full size.
// Used by tools/bench/run for visible events per second and peak memory with the checkers on;
// not part of the catalogue.
// Inputs 0..2^20-1: block b sums 256*b .. 256*b+255, that is 65536*b + 32640, so out[0] == 32640
// and out[4095] == 65536*4095 + 32640 == 268402560 (fits an int).
//@ launch grid=4096 block=256
//@ arg in: int[1048576] = iota
//@ arg out: int[4096] = zeros
//@ observe out[0] out[4095]
//@ expect all: always out[0] == 32640 && out[4095] == 268402560
//@ expect all: no diagnostics
__global__ void reduction_2_20(const int* in, int* out) {
    __shared__ int s[256];

    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }

    if (tid == 0) {
        out[blockIdx.x] = s[0];
    }
}
