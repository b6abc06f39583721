// dynamic_shared_reduction: the tree reduction with its shared array sized at launch
// (`extern __shared__`, the launch's third parameter), as most reduction code is written.
//
// Source: fencelab catalogue, after the CUDA samples' reduction kernels (reduce0-reduce3),
// which size sdata with `extern __shared__` and pass the bytes at launch.
// Teaches: `extern __shared__ T s[]` has as many bytes as the launch gives (Programming Guide
// 7.2.3); here `//@ launch ... shared=BYTES` gives them. With fewer bytes than threads need,
// the kernel writes past its shared memory (run it with shared=8: an out-of-bounds report).
// Status: correct (for shared = blockDim.x * sizeof(value_t), blockDim.x a power of two).
// Launch: 2 blocks of 4 threads, in = 1..8: out = {1+2+3+4, 5+6+7+8} = {10, 26}.
//
// Weak models: the same under sc, tso and gpu: each level is separated by a barrier.
//
//@ launch grid=2 block=4 shared=16
//@ arg in: int[8] = iota(1)
//@ arg out: int[2] = zeros
//@ observe out
//@ expect all: exactly out[0]=10 out[1]=26
//@ expect all: no diagnostics

typedef int value_t;

__global__ void dynamic_shared_reduction(const value_t* in, value_t* out) {
    extern __shared__ value_t sdata[];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
