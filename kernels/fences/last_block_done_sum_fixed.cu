// The last-block-done sum with the reader-side fence added.
//
// Source: [002] CUDA C++ Programming Guide, 10.5 "Memory Fence Functions", the `sum` kernel,
// with one line added by fencelab (marked "fencelab fix").
// Teaches: message passing needs a fence on both sides. The writer's __threadfence() orders
// its partial-sum store before its atomicInc; the added __threadfence() after atomicInc
// orders the last block's reads of result[] after the atomicInc that told it that it is last
// (Guide 10.5: a fence orders the calling thread's own accesses; 10.14: atomics are not
// fences). Every block's thread 0 executes the added fence; it matters only in the last
// block.
// Status: correct (also under the gpu model).
// Added: calculatePartialSum and calculateTotalSum (marked), and the __threadfence() after
// atomicInc (marked).
//
// Weak models: tso and gpu always give 21 and count 0 (20,000 random runs each; exploration too
// large to finish). Under gpu the added fence joins the device fence view that every earlier
// block's writer-side fence published, so no partial sum can be read stale.
//
//@ launch grid=3 block=2
//@ arg array: float[6] = {1, 2, 3, 4, 5, 6}
//@ arg N = 6
//@ arg result: float[3] = zeros
//@ observe result[0] count
//@ expect sc: always result[0] == 21 && count == 0
//@ expect gpu: always result[0] == 21
//@ expect gpu: unreachable result[0]=18
//@ expect tso: always result[0] == 21 && count == 0
//@ expect gpu: always count == 0
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

        // fencelab fix: the reader-side fence. Ordered after atomicInc, it makes the
        // partial sums of every block whose atomicInc came earlier visible to this thread;
        // the __syncthreads() below passes that on to the rest of the block.
        __threadfence();

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
