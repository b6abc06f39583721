// block_reduction_optimized: the classic shared-memory tree reduction, one sum per block.
//
// Source: [004] "Synchronization Complete Guide", "Block-Level Synchronization" > "Reduction
// Patterns" >
// "Block-Level Reduction" (first kernel).
// Teaches: a __syncthreads() after every tree level, outside the `if (tid < stride)`, so
// every thread reaches every barrier.
// Status: correct (for blockDim.x == BLOCK_SIZE, a power of two).
// Launch: BLOCK_SIZE 4, 2 blocks, N = 7 of 8 inputs 1..8, so the guard pads block 1 with 0:
// output = {1+2+3+4, 5+6+7} = {10, 18}.
//
// Weak models: tso and gpu give the same totals (20,000 random runs; exploration does not
// finish): each __syncthreads() drains the block's store buffers and joins views (Guide 10.6),
// so every level reads the previous level's sums.
//
//@ template BLOCK_SIZE=4
//@ launch grid=2 block=4
//@ arg input: float[8] = iota(1)
//@ arg output: float[2] = zeros
//@ arg N = 7
//@ observe output
//@ expect sc: always output[0] == 10 && output[1] == 18
//@ expect tso,gpu: always output[0] == 10 && output[1] == 18
//@ expect all: no diagnostics

// Efficient block-level reduction with multiple strategies
template<int BLOCK_SIZE>
__global__ void block_reduction_optimized(float* input, float* output, int N) {
    __shared__ float shared_data[BLOCK_SIZE];

    int tid = threadIdx.x;
    int global_id = blockIdx.x * blockDim.x + tid;

    // Load data into shared memory
    shared_data[tid] = (global_id < N) ? input[global_id] : 0.0f;
    __syncthreads();

    // Reduction in shared memory
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            shared_data[tid] += shared_data[tid + stride];
        }
        __syncthreads();
    }

    // Thread 0 writes result for this block
    if (tid == 0) {
        output[blockIdx.x] = shared_data[0];
    }
}
