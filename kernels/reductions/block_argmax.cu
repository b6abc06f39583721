// block_argmax: the largest input of each block and where it is, reduced as { value, index }
// pairs in shared memory.
//
// Source: fencelab catalogue (the arg-max pattern of top-k, beam search and pivoting kernels).
// Teaches: a struct in shared memory is reduced like a scalar: a __syncthreads() after every
// tree level, outside the `if`, so that each level reads whole pairs of the level before. The
// pair is two fields of different types (float, int): a copy `s[t] = s[t + stride]` is two
// accesses, which the barriers keep apart from every reader. Ties keep the lower index (the
// comparison is strict and the lower half wins), so the result is deterministic.
// Status: correct (for a power-of-two block).
// Launch: 2 blocks of 4; block 0's maximum 9.25 is at index 1, block 1's 7.5 at index 6.
//
// Weak models: the same pairs under sc, tso and gpu: each barrier drains the block's store
// buffers and joins its threads' views (Programming Guide 10.6), so no level reads a stale field.
//
//@ launch grid=2 block=4
//@ arg in: float[8] = {3.5, 9.25, 1.0, 9.0, 2.0, 2.0, 7.5, 0.5}
//@ arg out: Best[2] = zeros
//@ observe out
//@ expect all: exactly out[0]=9.25 out[1]=1 out[2]=7.5 out[3]=6
//@ expect all: no diagnostics

struct Best {
    float value;
    int index;
};

__global__ void block_argmax(const float* in, Best* out) {
    __shared__ Best s[4];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    Best mine = {in[i], i};
    s[t] = mine;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride && s[t + stride].value > s[t].value) {
            s[t] = s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
