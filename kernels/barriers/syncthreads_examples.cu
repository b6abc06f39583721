// syncthreads_examples: three __syncthreads() patterns on one shared array.
//
// Source: [004] "Synchronization Complete Guide", "Block-Level Synchronization" > "Thread Block
// Barriers" >
// "Basic __syncthreads() Usage".
// Teaches: data-dependency barriers, multi-phase barriers, and that a barrier after an `if`
// (not inside it) is reached by all threads (Example 3 is correct).
// Status: BUGGY. Between Example 1 and Example 2 there is no barrier: thread tid writes
// shared_array[tid] = sum while thread tid-1 may still be reading shared_array[tid] for its
// own sum: a read-write race in shared memory (the same bug as barrier_synchronization_demo).
// A __syncthreads() before `shared_array[tid] = sum;` fixes it.
// The kernel writes only shared memory, so there is nothing to observe; the race is for the
// race detector.
//
// Weak models: nothing observable (only shared memory is written). Under tso and gpu the race
// between Example 1's reads and Example 2's writes can additionally return the old value after
// the new one was written (store buffers), which sc shows by timing alone.
//
//@ launch grid=1 block=4
//@ expect all: diagnostic data-race

// Comprehensive __syncthreads() examples
__global__ void syncthreads_examples() {
    __shared__ float shared_array[256];
    int tid = threadIdx.x;

    // Example 1: Data dependency synchronization
    shared_array[tid] = tid;
    __syncthreads();  // Ensure all threads have written their data

    // Now safe to read from any location
    float sum = shared_array[tid] + shared_array[(tid + 1) % blockDim.x];

    // Example 2: Multi-phase computation
    shared_array[tid] = sum;
    __syncthreads();  // Wait for all phase 1 computations

    // Phase 2: Use results from phase 1
    if (tid < blockDim.x / 2) {
        shared_array[tid] += shared_array[tid + blockDim.x / 2];
    }
    __syncthreads();  // Wait for phase 2

    // Example 3: Conditional synchronization (CAREFUL!)
    if (tid % 2 == 0) {
        shared_array[tid] *= 2.0f;
    }
    // All threads must reach this point, even if they didn't execute the if
    __syncthreads();
}
