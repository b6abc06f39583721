// memory_fence_scopes: one shared and one global store, then the three fences.
//
// Source: [004] "Synchronization Complete Guide", "Memory Consistency" > "Memory Ordering" >
// "Memory Fence Operations" (second kernel).
// Teaches: the three fence scopes (block, device, system).
// Status: correct code, wrong comments. "__threadfence(); // Ensures both writes are visible"
// and "Ensures visibility to CPU and other GPUs" misstate what a fence does: Guide 10.5,
// "Memory fence functions only affect the ordering of memory operations by a thread; they do
// not, by themselves, ensure that these memory operations are visible to other threads".
// No other thread reads anything here, so the fences change nothing; N is unused.
// Launch: 4 threads: global_data = {0, 2, 4, 6}.
//
// Weak models: tso and gpu give the same single outcome. Each thread writes only its own element
// and nobody reads it; every store buffer drains at kernel end, fences or not.
//
//@ launch grid=1 block=4
//@ arg global_data: int[4] = zeros
//@ arg N = 4
//@ observe global_data
//@ expect sc: exactly global_data[0]=0 global_data[1]=2 global_data[2]=4 global_data[3]=6
//@ expect tso,gpu: always global_data[0] == 0 && global_data[1] == 2 && global_data[2] == 4 && global_data[3] == 6
//@ expect all: no diagnostics

// Different fence scopes
__global__ void memory_fence_scopes(int* global_data, int N) {
    __shared__ int shared_data[256];
    int tid = threadIdx.x;

    // Thread fence (affects all memory spaces)
    shared_data[tid] = tid;
    global_data[tid] = tid * 2;
    __threadfence();  // Ensures both writes are visible

    // Block fence (affects memory visible to thread block)
    __threadfence_block();  // Ensures shared memory consistency

    // System fence (affects system-wide memory)
    __threadfence_system();  // Ensures visibility to CPU and other GPUs
}
