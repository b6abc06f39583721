// reduced_contention_atomics: count in a __shared__ counter per block, then one global
// atomicAdd per block.
//
// Source: [004] "Synchronization Complete Guide", "Atomic Operations" > "Atomic Performance
// Patterns" >
// "Reducing Atomic Contention" (second kernel).
// Teaches: hierarchical aggregation; the __syncthreads() after the shared atomics makes the
// block's count complete before thread 0 reads it (Guide 10.6).
// Status: correct.
// Launch: 2 blocks of 2, N = 3: block 0 adds 2, block 1 adds 1; the counter ends at 3.
//
// Weak models: tso and gpu give exactly 3 too (exhaustive): the shared atomics read the newest
// entry, and the second __syncthreads() gives thread 0 a view that includes all of them.
//
//@ launch grid=2 block=2
//@ arg global_counter: int[1] = zeros
//@ arg N = 3
//@ observe global_counter[0]
//@ expect sc: exactly global_counter[0]=3
//@ expect tso,gpu: exactly global_counter[0]=3
//@ expect all: no diagnostics

__global__ void reduced_contention_atomics(int* global_counter, int N) {
    __shared__ int block_counter;
    int tid = threadIdx.x;

    // Initialize shared counter
    if (tid == 0) {
        block_counter = 0;
    }
    __syncthreads();

    // All threads in block increment shared counter
    if (threadIdx.x + blockIdx.x * blockDim.x < N) {
        atomicAdd(&block_counter, 1);
    }
    __syncthreads();

    // Only one thread per block updates global counter
    if (tid == 0) {
        atomicAdd(global_counter, block_counter);
    }
}
