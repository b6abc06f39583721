// wave_synchronization: block reduction, then thread 0 counts its block into a "wave" of
// wave_size blocks; the last block of a wave resets the wave's counter.
//
// Source: [004] "Synchronization Complete Guide", "Advanced Patterns" > "Wave Synchronization"
// >
// "Multi-Block Wave Processing".
// Status: misleading rather than racy. Nothing waits: "wave synchronization" only detects
// which block of a wave finished last. The "Last block in wave processes results" comment
// promises work that is not there, and could not be: block_result is __shared__, so other
// blocks' results are invisible to it (they would have to go to global memory with a
// __threadfence() on both sides, as in the Guide's last-block-done sum). If gridDim.x is not
// a multiple of wave_size the last wave never completes and its counter is never reset.
// The reset `wave_counter[wave_id] = 0` is a plain store to a location others update
// atomically; it is ordered after them only because it runs in the last block.
// Launch: 3 blocks of 2, wave_size 2: blocks 0 and 1 form wave 0 (reset to 0); block 2 is a
// partial wave 1 whose counter stays 1.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso and gpu give the same counters (20,000 random runs): the counters are updated
// with atomics, and the reset is a store issued after the last atomicAdd of the wave, so it
// drains after them and the host reads it last.
//
//@ launch grid=3 block=2
//@ arg data: float[6] = iota(1)
//@ arg wave_counter: int[2] = zeros
//@ arg wave_size = 2
//@ arg N = 6
//@ observe wave_counter
//@ expect sc: exactly wave_counter[0]=0 wave_counter[1]=1
//@ expect tso,gpu: always wave_counter[0] == 0 && wave_counter[1] == 1
//@ expect all: no diagnostics

#include <cstdio>

// Implement wave-style synchronization across blocks
__global__ void wave_synchronization(float* data, int* wave_counter,
                                    int wave_size, int N) {
    __shared__ float block_result;
    int tid = threadIdx.x;
    int bid = blockIdx.x;

    // Phase 1: Local computation
    float local_sum = 0.0f;
    for (int i = bid * blockDim.x + tid; i < N; i += gridDim.x * blockDim.x) {
        local_sum += data[i];
    }

    // Block-level reduction
    __shared__ float shared_sums[256];
    shared_sums[tid] = local_sum;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            shared_sums[tid] += shared_sums[tid + stride];
        }
        __syncthreads();
    }

    if (tid == 0) {
        block_result = shared_sums[0];

        // Wave synchronization
        int wave_id = bid / wave_size;
        int pos_in_wave = bid % wave_size;

        // Increment wave counter
        int count = atomicAdd(&wave_counter[wave_id], 1);

        // Last block in wave processes results
        if (count == wave_size - 1) {
            printf("Wave %d completed processing\n", wave_id);
            // Reset counter for next iteration
            wave_counter[wave_id] = 0;
        }
    }
}
