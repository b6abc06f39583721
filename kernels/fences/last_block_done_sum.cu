// The last-block-done sum: each block stores a partial sum, signals with atomicInc, and the
// last block to finish adds the partial sums.
//
// Source: [002] CUDA C++ Programming Guide, 10.5 "Memory Fence Functions", the `sum` kernel
// (also [000] course note, Example 3).
// Teaches: the writer side. Without the __threadfence() between `result[blockIdx.x] =
// partialSum` and atomicInc, "the counter might increment before the partial sum is stored"
// (10.5), and the last block could read a partial sum that is not yet there.
// Status: BUGGY with respect to the memory model (correct on hardware). The reader side has
// no fence: the last block's thread 0 reads result[i] after its atomicInc with only a
// __syncthreads() (block scope) in between. Atomics order nothing (Guide 10.14: atomic
// functions "do not act as memory fences"), and a fence synchronizes only with a later fence
// of the reading thread. The Guide relies on `volatile` loads bypassing the L1 cache, which
// is hardware behaviour, not a memory-model guarantee. So under the gpu model the last block
// can read the initial 0 for another block's partial sum. With array = 1..6 the partial sums
// are 3, 7, 11 and the total is 21; if block 1 or 2 is last and reads block 0's slot stale,
// it stores 0 + 7 + 11 = 18. (Other stale reads give 14, 10, 11, 7 or 3.)
// The fix is in last_block_done_sum_fixed.cu.
// Added: calculatePartialSum and calculateTotalSum (marked), which the Guide leaves undefined.
//
// Weak models: tso always gives 21 (atomics and fences drain the FIFO buffer, loads read memory:
// no message-passing reordering). gpu adds every total the last block can form from its own
// partial sum (its thread 0 reads its own store) plus any subset of the others': 3, 7, 10, 11,
// 14, 18 (witness for 18 in `fencelab run --model gpu --seed 1`). count is 0 in every model.
//
//@ launch grid=3 block=2
//@ arg array: float[6] = {1, 2, 3, 4, 5, 6}
//@ arg N = 6
//@ arg result: float[3] = zeros
//@ observe result[0] count
//@ expect sc: always result[0] == 21 && count == 0
//@ expect gpu: reachable result[0]=18
//@ expect tso: always result[0] == 21 && count == 0
//@ expect gpu: always count == 0
//@ expect gpu: always result[0] == 3 || result[0] == 7 || result[0] == 10 || result[0] == 11 \
//@   || result[0] == 14 || result[0] == 18 || result[0] == 21
//@ expect gpu: reachable result[0]=14
// fencelab-note: the checkers report nothing: `result` is volatile, and volatile accesses
// are relaxed system-scope operations (PTX ISA, memory consistency model), which do not race.
// The bug is one of ordering (a missing fence on the reader side), shown by the reachable
// total 18 above; `fencelab explain` on its witness names the stale read.
//@ expect all: no diagnostics

// Added by fencelab (the Guide calls these but does not define them): the smallest
// completion. calculatePartialSum: each calling thread sums its block's blockDim.x
// elements of array on its own (no cooperation, so no barrier is needed inside).
// calculateTotalSum: each calling thread sums result[0 .. gridDim.x-1].
__device__ float calculatePartialSum(const float* array, unsigned int N)
{
    float s = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x;
         i < (blockIdx.x + 1) * blockDim.x && i < N; i++)
        s += array[i];
    return s;
}

__device__ float calculateTotalSum(volatile float* result)
{
    float s = 0.0f;
    for (unsigned int i = 0; i < gridDim.x; i++)
        s += result[i];
    return s;
}

__device__ unsigned int count = 0;
__shared__ bool isLastBlockDone;
__global__ void sum(const float* array, unsigned int N,
                    volatile float* result)
{
    // Each block sums a subset of the input array.
    float partialSum = calculatePartialSum(array, N);

    if (threadIdx.x == 0) {

        // Thread 0 of each block stores the partial sum
        // to global memory. The compiler will use
        // a store operation that bypasses the L1 cache
        // since the "result" variable is declared as
        // volatile. This ensures that the threads of
        // the last block will read the correct partial
        // sums computed by all other blocks.
        result[blockIdx.x] = partialSum;

        // Thread 0 makes sure that the incrementing
        // of the "count" variable is only performed after
        // the partial sum has been written to global memory.
        __threadfence();

        // Thread 0 signals that it is done.
        unsigned int value = atomicInc(&count, gridDim.x);

        // Thread 0 determines if its block is the last
        // block to be done.
        isLastBlockDone = (value == (gridDim.x - 1));
    }

    // Synchronize to make sure that each thread reads
    // the correct value of isLastBlockDone.
    __syncthreads();

    if (isLastBlockDone) {

        // The last block sums the partial sums
        // stored in result[0 .. gridDim.x-1]
        float totalSum = calculateTotalSum(result);

        if (threadIdx.x == 0) {

            // Thread 0 of last block stores the total sum
            // to global memory and resets the count
            // variable, so that the next kernel call
            // works properly.
            result[0] = totalSum;
            count = 0;
        }
    }
}
