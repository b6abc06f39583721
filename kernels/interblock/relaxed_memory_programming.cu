// relaxed_memory_programming: even blocks produce (data, __threadfence(), volatile flag),
// odd blocks spin on the flag of the previous block and read the data.
//
// Source: [004] "Synchronization Complete Guide", "Memory Consistency" > "Memory Ordering" >
// "Relaxed Memory Model Programming".
// Status: BUGGY, twice.
// 1. One flag per producer *block*, but every producer thread writes it after its own data:
//    the first producer thread to finish sets the flag while the others may not have written
//    their data yet. A consumer thread then reads an element that is not there. This happens
//    even under sequential consistency.
// 2. The consumer has no fence between the flag read and the data read (message passing with
//    a fence in the writer only). Guide 10.5: a fence orders only the calling thread's own
//    accesses, so the reader needs one too; volatile does not order anything.
// Also, the spin makes a consumer block wait for another block with no guarantee that the
// producer block is resident: with enough blocks this deadlocks.
// The fix: __syncthreads() in the producer block before one thread sets the flag (after a
// __threadfence()), and a __threadfence() in the consumer after the spin.
// Launch: 2 blocks of 2, N = 3: block 0 (threads 0, 1) produces shared_buffer[0..1]; in
// block 1 only thread 2 consumes (thread 3 has tid >= N), reading shared_buffer[0]. If
// thread 1 sets the flag before thread 0 has written shared_buffer[0], it reads the
// initial -1 (bug 1, reachable under sc).
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso gives the same two values with the same frequency as sc (bug 1 only: tso
// forbids message passing). gpu reaches -1 far more often (about 27% of random runs against 3%)
// because bug 2 adds a second way: even when the flag was set by thread 0 itself, after its
// data store and fence, the consumer's view may still allow the initial -1 (no reader fence,
// Guide 10.5). With a single producer thread (grid=2 block=1, N=2) -1 is unreachable under sc
// and tso and reachable under gpu.
//
//@ launch grid=2 block=2
//@ arg sync_flags: int[2] = zeros
//@ arg shared_buffer: int[4] = -1
//@ arg N = 3
//@ observe relaxed_memory_programming.consumed_value
//@ expect sc: exactly consumed_value=1000 | consumed_value=-1
//@ expect sc: reachable consumed_value=-1
//@ expect tso,gpu: always consumed_value == 1000 || consumed_value == -1
//@ expect tso,gpu: reachable consumed_value=-1
//@ expect tso,gpu: reachable consumed_value=1000
//@ expect all: diagnostic data-race

#include <cstdio>

// Handle relaxed memory ordering correctly
__global__ void relaxed_memory_programming(volatile int* sync_flags,
                                          int* shared_buffer, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int block_id = blockIdx.x;

    if (tid < N) {
        // Each block acts as producer or consumer
        if (block_id % 2 == 0) {
            // Producer block
            shared_buffer[tid] = tid + 1000;

            // Ensure write completes
            __threadfence();

            // Signal completion using volatile (prevents compiler optimization)
            sync_flags[block_id] = 1;
        }
        else {
            // Consumer block
            int producer_id = block_id - 1;

            // Wait for producer signal
            while (sync_flags[producer_id] == 0) {
                // Volatile access prevents optimization
            }

            // Read data produced by other block
            int consumed_value = shared_buffer[tid - blockDim.x];

            printf("Block %d thread %d consumed: %d\n",
                   block_id, threadIdx.x, consumed_value);
        }
    }
}
