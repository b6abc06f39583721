// producer_consumer_demo: a shared-memory ring buffer; the first half of the block produces
// 4 items each, the second half consumes 2 each, waiting with __syncthreads() in spin loops.
//
// Source: [004] "Synchronization Complete Guide", "Synchronization Fundamentals" > "Producer-
// Consumer Pattern".
// Status: BUGGY (barrier divergence and deadlock). Producers and consumers call
// __syncthreads() at different call sites, inside divergent branches and data-dependent
// `while` loops, and a different number of times (producers 4 per thread, consumers 2 plus
// the waits). Guide 10.6: __syncthreads() in conditional code is allowed "only if the
// conditional evaluates identically across the entire thread block, otherwise the code
// execution is likely to hang or produce unintended side effects." Also, `data_count` is read
// with plain loads while others update it atomically (a race), and a consumer may read
// buffer[pos] before the producer that reserved pos has written it.
// Launch: 4 threads, 2 producers and 2 consumers.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: nothing observable (the kernel observes nothing). Under gpu the plain reads of
// data_count and buffer[pos] may also return stale values between barriers (atomics do not
// order, Guide 10.14); the barriers drain buffers and join views.
//
// `fencelab check` reports the barrier divergence (producers and consumers wait at different
// __syncthreads, or exit while the others wait), the races on data_count and buffer, and a
// consumer reading a buffer slot no producer has written yet.
//@ launch grid=1 block=4
//@ expect all: diagnostic barrier-divergence
//@ expect all: diagnostic data-race
//@ expect all: diagnostic uninitialized-read

#include <cstdio>

// Producer-consumer synchronization with shared memory
__global__ void producer_consumer_demo() {
    __shared__ float buffer[128];
    __shared__ int write_pos;
    __shared__ int read_pos;
    __shared__ int data_count;

    int tid = threadIdx.x;

    // Initialize shared variables
    if (tid == 0) {
        write_pos = 0;
        read_pos = 0;
        data_count = 0;
    }
    __syncthreads();

    // Producer threads (first half)
    if (tid < blockDim.x / 2) {
        for (int i = 0; i < 4; i++) {  // Each producer creates 4 items
            float data = tid * 4 + i;

            // Wait for buffer space
            while (data_count >= 128) {
                __syncthreads();
            }

            // Produce data
            int pos = atomicAdd(&write_pos, 1) % 128;
            buffer[pos] = data;
            atomicAdd(&data_count, 1);

            __syncthreads();
        }
    }
    // Consumer threads (second half)
    else {
        for (int i = 0; i < 2; i++) {  // Each consumer processes 2 items
            // Wait for data
            while (data_count <= 0) {
                __syncthreads();
            }

            // Consume data
            int pos = atomicAdd(&read_pos, 1) % 128;
            float data = buffer[pos];
            atomicSub(&data_count, 1);

            // Process data
            printf("Consumer %d processed: %.1f\n", tid, data);

            __syncthreads();
        }
    }
}
