// partial_barrier / custom_barrier_demo: a hand-made barrier for the first 64 threads
// (atomic counter plus spin), followed by __syncthreads().
//
// Source: [004] "Synchronization Complete Guide", "Block-Level Synchronization" > "Advanced
// Barrier Patterns".
// Status: BUGGY.
// - The demo hard-codes 64 participants. In a block of fewer than 64 threads the counter
//   never reaches 64 and every participating thread spins forever. The launch below (4
//   threads) therefore hangs in every execution, which is what fencelab should report.
// - The spin loop reads barrier_counter with plain loads while other threads update it with
//   atomicAdd: a data race; the compiler may keep the value in a register and spin forever
//   even with 64 threads (it should be volatile or an atomic load).
// Launching 64 threads would make it terminate (under sc), but 64 spinning threads are far
// too many to explore.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: the same hang under tso and gpu: the counter never reaches 64 whatever the
// memory model. `fencelab check` reports it as a deadlock (every thread spins re-reading
// barrier_counter, which nothing will change any more) and the race of the spin's plain loads
// with the atomicAdds.
//
//@ kernel custom_barrier_demo
//@ launch grid=1 block=4
//@ expect all: diagnostic data-race
//@ expect all: diagnostic deadlock

#include <cstdio>

// Custom barrier implementations for special cases
__device__ void partial_barrier(int thread_count) {
    __shared__ int barrier_counter;

    if (threadIdx.x == 0) {
        barrier_counter = 0;
    }
    __syncthreads();

    // Only specified number of threads participate
    if (threadIdx.x < thread_count) {
        atomicAdd(&barrier_counter, 1);

        // Busy wait until all participating threads arrive
        while (barrier_counter < thread_count) {
            // Spin wait
        }
    }

    __syncthreads();  // Ensure non-participating threads also wait
}

__global__ void custom_barrier_demo() {
    int tid = threadIdx.x;

    // Only first 64 threads participate in this computation
    if (tid < 64) {
        // Do some work...
        float result = sin(tid * 0.1f);
    }

    // Custom barrier for just these 64 threads
    partial_barrier(64);

    // Now all threads (including non-participating ones) can continue
    printf("Thread %d continuing after partial barrier\n", tid);
}
