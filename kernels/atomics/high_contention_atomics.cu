// high_contention_atomics: every thread atomicAdd()s 1 to one global counter.
//
// Source: [004] "Synchronization Complete Guide", "Atomic Operations" > "Atomic Performance
// Patterns" >
// "Reducing Atomic Contention" (first kernel).
// Teaches: atomics never lose an update (Guide 10.14), however contended (compare
// races/race_condition_demo.cu).
// Status: correct (slow on hardware, which is the document's point).
// Launch: 2 blocks of 2, N = 3: the counter ends at 3.
//
// Weak models: tso and gpu give exactly 3 too (exhaustive): an atomic reads the newest entry of
// the history, so no model loses an update.
//
//@ launch grid=2 block=2
//@ arg global_counter: int[1] = zeros
//@ arg N = 3
//@ observe global_counter[0]
//@ expect sc: exactly global_counter[0]=3
//@ expect tso,gpu: exactly global_counter[0]=3
//@ expect all: no diagnostics

// High contention - poor performance
__global__ void high_contention_atomics(int* global_counter, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // All threads compete for same memory location
        atomicAdd(global_counter, 1);  // High contention!
    }
}
