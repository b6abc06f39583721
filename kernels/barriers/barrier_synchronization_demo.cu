// barrier_synchronization_demo: write, __syncthreads(), read a neighbour and update, barrier,
// thread 0 sums.
//
// Source: [004] "Synchronization Complete Guide", "Synchronization Fundamentals" >
// "Synchronization Models" >
// "Barrier Synchronization".
// Teaches: barriers separate the phases of a shared-memory computation.
// Status: BUGGY. Phase 2 reads the neighbour's element and overwrites the own element with no
// barrier between the read and the write, so thread tid-1 may read shared_data[tid] before
// or after thread tid has updated it: a read-write data race in shared memory (Guide 10.6:
// __syncthreads() is what makes one thread's shared-memory writes visible to the others in a
// defined order; without it the accesses race). The comment "All threads can safely read any
// shared memory location" holds for the read but not for the write that follows. A fix: read
// neighbor_value, __syncthreads(), then write.
// With 4 threads the intended sum is 2*(0+2+4+6) = 24; stale/fresh mixes give the others
// (e.g. thread 0 finishing phase 2 before thread 3 reads shared_data[0] gives 26; all
// chains of fresh reads give up to 52). The set below was enumerated exhaustively under sc.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso and gpu reach the same sums as sc (20,000 random runs) and no new one. A stale
// read of the neighbour returns its phase-1 value, which sc reaches too by reading early; a
// cycle of fresh reads stays impossible because loads are performed in program order. Both
// __syncthreads() drain the block's buffers and join views (Guide 10.6), so phase 3 sees every
// phase-2 store.
//
//@ launch grid=1 block=4
//@ observe barrier_synchronization_demo.sum
//@ expect sc: exactly sum=24 | sum=26 | sum=28 | sum=30 | sum=32 | sum=34 | sum=36 | sum=40 | sum=52
//@ expect sc: reachable sum=26
//@ expect tso,gpu: always sum == 24 || sum == 26 || sum == 28 || sum == 30 || sum == 32 \
//@   || sum == 34 || sum == 36 || sum == 40 || sum == 52
//@ expect tso,gpu: reachable sum=24
//@ expect tso,gpu: reachable sum=26
//@ expect all: diagnostic data-race

#include <cstdio>

// Basic barrier synchronization patterns
__global__ void barrier_synchronization_demo() {
    __shared__ float shared_data[256];
    int tid = threadIdx.x;

    // Phase 1: All threads write to shared memory
    shared_data[tid] = tid * 2.0f;

    // Barrier: Ensure all writes complete before reads
    __syncthreads();

    // Phase 2: All threads can safely read any shared memory location
    float neighbor_value = shared_data[(tid + 1) % blockDim.x];
    shared_data[tid] = shared_data[tid] + neighbor_value;

    // Another barrier before final phase
    __syncthreads();

    // Phase 3: Final processing with consistent shared memory state
    if (tid == 0) {
        float sum = 0.0f;
        for (int i = 0; i < blockDim.x; i++) {
            sum += shared_data[i];
        }
        printf("Block sum: %.2f\n", sum);
    }
}
