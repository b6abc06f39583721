// inter_block_coordination: grid-stride partial sums, a block tree reduction, then a
// last-block-done total (atomicAdd on a counter, the last block adds block_results[]).
//
// Source: [004] "Synchronization Complete Guide", "Grid-Level Coordination" > "Inter-Block
// Communication" >
// "Global Memory Coordination".
// Status: BUGGY under the memory model: the Programming Guide's last-block-done pattern
// without any fence. Thread 0 stores block_results[bid] and then atomicAdd()s the counter
// with no __threadfence() between them, and the last block reads block_results[] after its
// atomicAdd with no fence either. Guide 10.5: "If no fence is placed between storing the
// partial sum and incrementing the counter, the counter might increment before the partial
// sum is stored"; 10.14: atomics are not fences. (block_results is not even volatile, which
// the Guide's version uses.) Under sc the total is always right; on a weak GPU the last block
// can add a stale 0. The fix: __threadfence() before the atomicAdd and after it in the last
// block (see fences/last_block_done_sum_fixed.cu).
// Launch: 3 blocks of 2, N = 6, data = 1..6: each thread adds one element; block sums
// 3, 7, 11; total 21; the last block resets the counter to 0.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso always gives 21 (FIFO buffer, atomics drain it). gpu gives every total the
// last block can form from its own block_results entry plus any subset of the others': 3, 7,
// 10, 11, 14, 18 besides 21. In witness gpu:0[34]1[5]0110110 block 1 is last and reads
// block_results[0] = 0, the initial value, although block 0's store has drained: nothing
// synchronizes the two threads (no fence on either side; 10.14 atomics do not order), so 18.
// block_results and the counter end correct in every model.
//
//@ launch grid=3 block=2
//@ arg data: float[6] = iota(1)
//@ arg block_results: float[3] = zeros
//@ arg sync_counter: int[1] = zeros
//@ arg N = 6
//@ observe inter_block_coordination.total_sum block_results sync_counter[0]
//@ expect sc: always total_sum == 21 && sync_counter[0] == 0
//@ expect sc: exactly total_sum=21 block_results[0]=3 block_results[1]=7 block_results[2]=11 sync_counter[0]=0
//@ expect tso: always total_sum == 21 && sync_counter[0] == 0
//@ expect gpu: always sync_counter[0] == 0 && block_results[0] == 3 && block_results[1] == 7 && block_results[2] == 11
//@ expect gpu: always total_sum == 3 || total_sum == 7 || total_sum == 10 || total_sum == 11 \
//@   || total_sum == 14 || total_sum == 18 || total_sum == 21
//@ expect gpu: reachable total_sum=18
//@ expect gpu: reachable total_sum=10
//@ expect all: diagnostic data-race

#include <cstdio>

// Inter-block communication using global memory
__global__ void inter_block_coordination(float* data, float* block_results,
                                        int* sync_counter, int N) {
    __shared__ float block_sum;
    int tid = threadIdx.x;
    int bid = blockIdx.x;
    int global_tid = bid * blockDim.x + tid;

    // Phase 1: Each block computes local sum
    float thread_sum = 0.0f;
    for (int i = global_tid; i < N; i += gridDim.x * blockDim.x) {
        thread_sum += data[i];
    }

    // Block-level reduction
    __shared__ float shared_data[256];
    shared_data[tid] = thread_sum;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            shared_data[tid] += shared_data[tid + stride];
        }
        __syncthreads();
    }

    // Store block result
    if (tid == 0) {
        block_sum = shared_data[0];
        block_results[bid] = block_sum;

        // Signal completion
        int count = atomicAdd(sync_counter, 1);

        // Last block computes final result
        if (count == gridDim.x - 1) {
            float total_sum = 0.0f;
            for (int i = 0; i < gridDim.x; i++) {
                total_sum += block_results[i];
            }

            printf("Total sum across all blocks: %.2f\n", total_sum);

            // Reset counter for next kernel launch
            *sync_counter = 0;
        }
    }
}
