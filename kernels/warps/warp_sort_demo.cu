// warp_bitonic_sort / warp_sort_demo: a bitonic sort of 32 values held one per lane, with
// __shfl_sync exchanges.
//
// Source: [004] "Synchronization Complete Guide", "Warp-Level Synchronization" > "Warp
// Cooperative Algorithms" >
// "Warp-Level Sorting".
// Status: BUGGY (an algorithm bug, not a synchronization bug; the synchronization is fine:
// each lane touches only its own warp_data element, and the shuffles use the full mask).
// The compare-exchange ignores which lane of the pair is the lower one: both partners swap
// when `ascending == (value > partner_value)`, so in an ascending pair both lanes keep the
// minimum (and in a descending pair both keep the maximum). Values are duplicated and lost
// instead of sorted. The lower lane should keep min (ascending) and the upper lane max, e.g.
// should_swap = (ascending == (lane_id < partner)) == (value > partner_value).
// Also: warp_data[32] is shared by all warps of the block, so with more than one warp the
// warps would race on it; this launch has one warp.
// Launch: one full warp (the mask is 0xFFFFFFFF), N = 4, data = {4, 3, 2, 1}; lanes 4..31
// hold FLT_MAX. The result, computed by hand and by a script, is {2, 2, 2, 2}: the outcome
// is deterministic because each full-mask shuffle waits for all 32 lanes.
// Added: #include <cfloat> (FLT_MAX), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//@ kernel warp_sort_demo
//@ launch grid=1 block=32
//@ arg data: float[4] = {4, 3, 2, 1}
//@ arg N = 4
//@ observe data
//@ expect sc, gpu: exactly data[0]=2 data[1]=2 data[2]=2 data[3]=2
//@ expect sc/lockstep, gpu/lockstep: exactly data[0]=2 data[1]=2 data[2]=2 data[3]=2
// fencelab-note: the checkers report nothing: the bug is in the sorting algorithm, not in
// the synchronization.
//@ expect all: no diagnostics

#include <cfloat>

// Bitonic sort within a warp
__device__ void warp_bitonic_sort(float* data, int warp_size = 32) {
    int lane_id = threadIdx.x % 32;
    float value = data[lane_id];

    // Bitonic sort network
    for (int stage = 2; stage <= warp_size; stage <<= 1) {
        for (int step = stage >> 1; step > 0; step >>= 1) {
            int partner = lane_id ^ step;
            float partner_value = __shfl_sync(0xFFFFFFFF, value, partner);

            bool ascending = ((lane_id & stage) == 0);
            bool should_swap = (ascending == (value > partner_value));

            if (should_swap) {
                value = partner_value;
            }
        }
    }

    data[lane_id] = value;
}

__global__ void warp_sort_demo(float* data, int N) {
    __shared__ float warp_data[32];

    int tid = threadIdx.x;
    int warp_id = tid / 32;
    int lane_id = tid % 32;

    // Each warp sorts its own 32 elements
    int global_idx = warp_id * 32 + lane_id;

    if (global_idx < N) {
        warp_data[lane_id] = data[global_idx];
    } else {
        warp_data[lane_id] = FLT_MAX;  // Padding
    }

    warp_bitonic_sort(warp_data);

    if (global_idx < N) {
        data[global_idx] = warp_data[lane_id];
    }
}
