// conditional_warp_sync: __ballot_sync builds the mask of lanes 0..15; those lanes
// __syncwarp(mask) and broadcast lane 0's value with __shfl_sync(mask, ...).
//
// Source: [004] "Synchronization Complete Guide", "Warp-Level Synchronization" > "Explicit Warp
// Synchronization"
// (second kernel).
// Teaches: a warp operation inside a branch must name exactly the lanes that take the branch
// (Guide 10.22: "all non-exited threads named in mask must execute the same intrinsic with the
// same mask").
// Status: correct: every lane calls the ballot with the full mask, and exactly the lanes in
// active_mask enter the branch. Lanes 0..15 print "received broadcast: 0.0".
// Only printf shows the result, so nothing is observed.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//@ launch grid=1 block=32
//@ expect all: no diagnostics

#include <cstdio>

// Conditional warp synchronization
__global__ void conditional_warp_sync() {
    int tid = threadIdx.x;
    int lane_id = tid % 32;

    // Only sync active threads
    bool is_active = (lane_id < 16);
    unsigned int active_mask = __ballot_sync(0xFFFFFFFF, is_active);

    if (is_active) {
        // Work done by active threads
        float result = lane_id * 3.0f;

        // Sync only active threads
        __syncwarp(active_mask);

        // Warp operations on active subset
        float broadcast_value = __shfl_sync(active_mask, result, 0);

        printf("Lane %d received broadcast: %.1f\n", lane_id, broadcast_value);
    }
}
