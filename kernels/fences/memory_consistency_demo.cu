// memory_consistency_demo: even threads write data, __threadfence(), set a flag; odd threads
// spin on the flag with atomicAdd(&flag, 0), __threadfence(), read the data.
//
// Source: [004] "Synchronization Complete Guide", "Memory Consistency" > "Memory Ordering" >
// "Memory Fence Operations" (first kernel).
// Teaches: message passing with a fence on both sides (Guide 10.5), the docs/LITMUS.md
// MP+fences pattern.
// Status: correct on Volta and later, with two caveats.
// - The flag is written with a plain store and read with atomics: a plain/atomic data race
//   in the letter of the Guide ("It is undefined behavior for two threads to read from or
//   write to the same memory location without synchronization", 10.5); atomicExch or a
//   volatile store would make it well-defined.
// - Producer and consumer are neighbouring lanes of one warp. Before Volta (warp lockstep)
//   the consumer's spin can starve the producer's branch forever (fencelab --warp lockstep).
// Launch: 2 threads (one producer, one consumer), N = 2; data starts at -1 so a stale read
// would show. The producer writes data[0] = 0 * 100 = 0.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso and gpu give exactly value=0 (exhaustive): the stale -1 is unreachable.
// This is docs/LITMUS.md MP+fences+atomic-flag (gpu F): the producer's fence drains data[0] before
// the flag and publishes its view; the consumer's fence after the spin joins it. Without the
// consumer's fence the flag read (a relaxed atomic, Guide 10.14) would order nothing and -1
// would be reachable (MP+atomic-flag, gpu A).
//
//@ launch grid=1 block=2
//@ arg flags: int[2] = zeros
//@ arg data: int[2] = -1
//@ arg N = 2
//@ observe memory_consistency_demo.value
//@ expect sc: exactly value=0
//@ expect tso,gpu: exactly value=0
//@ expect all: diagnostic data-race

#include <cstdio>

// Memory fence usage for consistency
__global__ void memory_consistency_demo(int* flags, int* data, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // Producer thread
        if (tid % 2 == 0) {
            // Write data first
            data[tid] = tid * 100;

            // Memory fence ensures data write completes before flag write
            __threadfence();  // Global memory fence

            // Signal data is ready
            flags[tid] = 1;
        }
        // Consumer thread
        else {
            int partner = tid - 1;

            // Busy wait for flag
            while (atomicAdd(&flags[partner], 0) == 0) {
                // Spin wait
            }

            // Memory fence ensures flag read completes before data read
            __threadfence();

            // Now safe to read data
            int value = data[partner];
            printf("Thread %d read value %d\n", tid, value);
        }
    }
}
