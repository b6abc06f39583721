// block_exclusive_scan: Blelloch work-efficient exclusive scan in shared memory.
//
// Source: [004] "Synchronization Complete Guide", "Block-Level Synchronization" > "Reduction
// Patterns" >
// "Scan (Prefix Sum) Operations".
// Teaches: up-sweep and down-sweep with a __syncthreads() after every level, reached by all
// threads; within a level the threads touch disjoint elements, so there is no race.
// Status: correct (for blockDim.x a power of two, blockDim.x <= 256; scans within one block).
// Launch: one block of 4, input 1..4: exclusive scan {0, 1, 3, 6}.
//
// Weak models: tso and gpu give the same scan (20,000 random runs): the barrier after every
// level drains buffers and joins views (Guide 10.6).
//
//@ launch grid=1 block=4
//@ arg input: int[4] = iota(1)
//@ arg output: int[4] = zeros
//@ arg N = 4
//@ observe output
//@ expect sc: exactly output[0]=0 output[1]=1 output[2]=3 output[3]=6
//@ expect tso,gpu: always output[0] == 0 && output[1] == 1 && output[2] == 3 && output[3] == 6
//@ expect all: no diagnostics

// Block-level exclusive scan implementation
__global__ void block_exclusive_scan(int* input, int* output, int N) {
    __shared__ int shared_data[256];

    int tid = threadIdx.x;
    int global_id = blockIdx.x * blockDim.x + tid;

    // Load input data
    int value = (global_id < N) ? input[global_id] : 0;
    shared_data[tid] = value;
    __syncthreads();

    // Up-sweep phase (build sum tree)
    for (int stride = 1; stride < blockDim.x; stride <<= 1) {
        int index = (tid + 1) * stride * 2 - 1;
        if (index < blockDim.x) {
            shared_data[index] += shared_data[index - stride];
        }
        __syncthreads();
    }

    // Clear the last element (for exclusive scan)
    if (tid == 0) {
        shared_data[blockDim.x - 1] = 0;
    }
    __syncthreads();

    // Down-sweep phase (distribute sums)
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        int index = (tid + 1) * stride * 2 - 1;
        if (index < blockDim.x) {
            int temp = shared_data[index];
            shared_data[index] += shared_data[index - stride];
            shared_data[index - stride] = temp;
        }
        __syncthreads();
    }

    // Write results
    if (global_id < N) {
        output[global_id] = shared_data[tid];
    }
}
