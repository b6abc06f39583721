// atomic_stress_test, scaled: the kernel of atomic_stress_test.cu with its two constants made
// macros (1000 increments per thread -> ITERATIONS, 100 locations -> LOCATIONS) and set small,
// so that a launch of two blocks, too small for the document's constants, shows both of its
// synchronization bugs.
//
// Source: [004] "Synchronization Complete Guide", "Debugging Synchronization" >
// "Synchronization Testing Framework" > "Stress Testing Synchronization".
// Status: BUGGY, twice (see atomic_stress_test.cu for the test's arithmetic):
// - __syncthreads() is inside `if (tid < N)`. With N = 3 and blocks of 2 threads, thread 3
//   of block 1 skips the barrier and exits while thread 2 waits at it: barrier divergence
//   (Guide 10.6: __syncthreads() in conditional code only when the condition is the same for
//   the whole block).
// - __syncthreads() waits only for the block. Thread 0 (block 0) checks data[0], which thread 2
//   (block 1) is still incrementing: a plain read racing with another block's atomicAdd, so
//   the check may see 2, 3 or 4 and report a false error.
// Launch: grid=2 block=2, N = 3, ITERATIONS = 2, LOCATIONS = 2. data[0] ends at 4 (threads 0
// and 2), data[1] at 2 (thread 1). Expected value (3 / 2) * 2 = 2, so thread 0's check fails
// when it reads data[0] after thread 2's increments (error_count 1) and passes when it reads
// before them (0); thread 1 always reads 2.
// Added: #include <cstdio> (printf), which the document's snippet omits; the two macros.
//
// Weak models: the same outcomes under tso and gpu: thread 0 reads data[0] with a plain load
// after its block's barrier, and each model lets it see 2, 3 or 4.
//
//@ launch grid=2 block=2
//@ arg data: int[2] = zeros
//@ arg results: int[1] = zeros
//@ arg error_count: int[1] = zeros
//@ arg N = 3
//@ observe data[0] data[1] error_count[0]
//@ expect all: exactly data[0]=4 data[1]=2 error_count[0]=0 | data[0]=4 data[1]=2 error_count[0]=1
//@ expect all: diagnostic barrier-divergence
//@ expect all: diagnostic data-race

#include <cstdio>

#define ITERATIONS 2
#define LOCATIONS 2

__global__ void atomic_stress_test(int* data, int* results, int* error_count, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // Each thread increments its assigned location many times
        for (int i = 0; i < ITERATIONS; i++) {
            atomicAdd(&data[tid % LOCATIONS], 1);  // Contended updates
        }

        __syncthreads();

        // Verify results
        if (tid < LOCATIONS) {
            int expected = (N / LOCATIONS) * ITERATIONS;  // Expected value
            if (data[tid] != expected) {
                atomicAdd(error_count, 1);
                printf("Error at index %d: expected %d, got %d\n",
                       tid, expected, data[tid]);
            }
        }
    }
}
