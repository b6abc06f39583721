// warp_optimized_reduction: tree reduction down to 64 elements with __syncthreads(), then an
// unrolled last-warp reduction with no synchronization at all.
//
// Source: [004] "Synchronization Complete Guide", "Block-Level Synchronization" > "Reduction
// Patterns" >
// "Block-Level Reduction" (second kernel).
// Status: BUGGY. "Final warp reduction (no __syncthreads needed)" relies on implicit warp
// lockstep. Since Volta (Independent Thread Scheduling, Guide "Compute Capability 7.x") the
// lanes of a warp are not guaranteed to execute in lockstep, so lane tid may read
// shared_data[tid + 16] before or after lane tid+16 has added into it: read-write races.
// Even on pre-Volta parts the code needs shared_data to be `volatile` (otherwise the
// compiler keeps the values in registers). The fix: __syncwarp() between the steps (or warp
// shuffles).
// Launch: the unrolled part reads shared_data[tid + 16] for tid < 32 and, with
// BLOCK_SIZE >= 64, shared_data[tid + 32], so BLOCK_SIZE must be at least 64 to stay in
// bounds: BLOCK_SIZE 64, one block of 64 threads, 64 inputs of 1. The loop `stride > 32`
// does no iteration, then 32 lanes run the unrolled part (about 800 events per execution).
// The correct total 64 is reachable (a lockstep-like interleaving). If lane 0 runs the whole
// unrolled part before any other lane starts it, it adds 1 + s[32] + s[16] + s[8] + s[4] +
// s[2] + s[1] = 7, all still 1: output[0] = 7.
// Under --warp lockstep (pre-Volta) the 32 lanes perform each load and store together, and
// the sum is 64 in every execution (fencelab models no register caching, so the missing
// volatile does not show; see warps/legacy_warp_reduction_volatile.cu).
//
// Weak models: the race already gives totals from 7 up to several hundred under sc (fresh reads
// of partially reduced, double-counted elements); tso and gpu reach the same range, 7 and 64
// included. Stale reads under gpu (a lane's view still allows an older entry) make low totals
// such as 7 and 8 show up in random runs, where sc needs lane 0 to run alone first.
// Every value a lane reads is at least 1, so the total is at least 7 in every model.
//
//@ template BLOCK_SIZE=64
//@ launch grid=1 block=64
//@ arg input: float[64] = 1
//@ arg output: float[1] = zeros
//@ arg N = 64
//@ observe output[0]
//@ expect sc: reachable output[0]=64
//@ expect sc: reachable output[0]=7
//@ expect sc/lockstep, gpu/lockstep: exactly output[0]=64
//@ expect tso,gpu: reachable output[0]=64
//@ expect tso,gpu: reachable output[0]=7
//@ expect tso,gpu: always output[0] >= 7
//@ expect all: diagnostic data-race

// Warp-optimized reduction (no sync needed within warp)
template<int BLOCK_SIZE>
__global__ void warp_optimized_reduction(float* input, float* output, int N) {
    __shared__ float shared_data[BLOCK_SIZE];

    int tid = threadIdx.x;
    int global_id = blockIdx.x * blockDim.x + tid;

    // Load and reduce in shared memory
    shared_data[tid] = (global_id < N) ? input[global_id] : 0.0f;
    __syncthreads();

    // Reduce to 32 elements (1 per warp)
    for (int stride = BLOCK_SIZE / 2; stride > 32; stride >>= 1) {
        if (tid < stride) {
            shared_data[tid] += shared_data[tid + stride];
        }
        __syncthreads();
    }

    // Final warp reduction (no __syncthreads needed)
    if (tid < 32) {
        // Manually unroll for efficiency
        if (BLOCK_SIZE >= 64) shared_data[tid] += shared_data[tid + 32];
        shared_data[tid] += shared_data[tid + 16];
        shared_data[tid] += shared_data[tid + 8];
        shared_data[tid] += shared_data[tid + 4];
        shared_data[tid] += shared_data[tid + 2];
        shared_data[tid] += shared_data[tid + 1];
    }

    if (tid == 0) {
        output[blockIdx.x] = shared_data[0];
    }
}
