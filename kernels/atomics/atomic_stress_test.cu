// atomic_stress_test: each thread does 1000 atomicAdd()s on data[tid % 100], then checks
// data[tid] against (N / 100) * 1000.
//
// Source: [004] "Synchronization Complete Guide", "Debugging Synchronization" >
// "Synchronization Testing Framework"
// > "Stress Testing Synchronization" (the kernel; the host class SyncStressTester is not
// ported).
// Status: BUGGY test.
// - The expected value (N / 100) * 1000 is right only when N is a multiple of 100: for
//   N < 100 it is 0, and each location i < N really holds 1000 (more generally
//   ceil-or-floor of (N - i) / 100 thousands), so the test reports false errors.
// - __syncthreads() waits only for the block: with more than one block the check reads
//   locations other blocks are still incrementing (Guide 10.6: the barrier is block-wide).
// - __syncthreads() is inside `if (tid < N)`: when N is not a multiple of blockDim.x the
//   threads with tid >= N skip it (barrier divergence, Guide 10.6).
// Launch: kept as written with tiny N: one thread, N = 1 (1000 atomics, one execution). The
// check expects (1 / 100) * 1000 = 0, finds 1000, and counts an error. With one thread there
// is no barrier to diverge at and no other thread to race with, so the checkers report
// nothing here; atomic_stress_test_scaled.cu is the same kernel scaled down to a launch of
// several blocks, where both synchronization bugs are reported.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: one thread, so tso and gpu give the same single outcome (a thread reads its own
// atomic results).
//
//@ launch grid=1 block=1
//@ arg data: int[1] = zeros
//@ arg results: int[1] = zeros
//@ arg error_count: int[1] = zeros
//@ arg N = 1
//@ observe data[0] error_count[0]
//@ expect sc: exactly data[0]=1000 error_count[0]=1
//@ expect tso,gpu: exactly data[0]=1000 error_count[0]=1
//@ expect all: no diagnostics

#include <cstdio>

__global__ void atomic_stress_test(int* data, int* results, int* error_count, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // Each thread increments its assigned location many times
        for (int i = 0; i < 1000; i++) {
            atomicAdd(&data[tid % 100], 1);  // Contended updates
        }

        __syncthreads();

        // Verify results
        if (tid < 100) {
            int expected = (N / 100) * 1000;  // Expected value
            if (data[tid] != expected) {
                atomicAdd(error_count, 1);
                printf("Error at index %d: expected %d, got %d\n",
                       tid, expected, data[tid]);
            }
        }
    }
}
