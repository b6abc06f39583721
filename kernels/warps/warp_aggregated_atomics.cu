// warp_aggregated_atomics: a shuffle-down reduction of each lane's contribution, then one
// atomicAdd per warp from lane 0.
//
// Source: [004] "Synchronization Complete Guide", "Atomic Operations" > "Atomic Performance
// Patterns" >
// "Reducing Atomic Contention" (third kernel).
// Status: BUGGY when N is not a multiple of 32. The shuffle is inside `if (tid < N)` but its
// mask is 0xFFFFFFFF: lanes with tid >= N never execute it. Guide 10.22: "all non-exited
// threads named in mask must execute the same intrinsic with the same mask, or the result is
// undefined"; lanes that read from a lane that skipped the shuffle get an undefined value. The
// fix: mask = __ballot_sync(0xFFFFFFFF, tid < N) taken before the branch, and a reduction
// that only reads lanes in that mask. With N a multiple of 32 the kernel is correct (lane 0
// holds 32 after the offsets 16, 8, 4, 2, 1).
// Launch: one warp, N = 20: lanes 20..31 skip the shuffles.
//
// fencelab: lanes 20..31, named in the mask, exit without arriving at the shuffle, so the
// other lanes wait forever: the execution ends in deadlock, with a message naming the warp,
// the mask and the lanes that exited (fencelab requires every lane of a mask to arrive).
//@ launch grid=1 block=32
//@ arg global_counter: int[1] = zeros
//@ arg N = 20
//@ observe global_counter[0]
//@ expect sc, gpu: diagnostic deadlock
//@ expect sc/lockstep, gpu/lockstep: diagnostic deadlock

// Warp-level aggregation - best performance
__global__ void warp_aggregated_atomics(int* global_counter, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int lane_id = tid % 32;

    if (tid < N) {
        // Each thread wants to add 1
        int contribution = 1;

        // Warp-level reduction
        for (int offset = 16; offset > 0; offset /= 2) {
            contribution += __shfl_down_sync(0xFFFFFFFF, contribution, offset);
        }

        // Only lane 0 performs atomic operation
        if (lane_id == 0) {
            atomicAdd(global_counter, contribution);
        }
    }
}
