// explicit_warp_sync_demo: divergent work on even lanes, then __syncwarp(0xFFFFFFFF) before a
// warp reduction.
//
// Source: [004] "Synchronization Complete Guide", "Warp-Level Synchronization" > "Explicit Warp
// Synchronization"
// (first kernel).
// Teaches: after divergence, __syncwarp() reconverges the lanes named in its mask before
// warp-synchronous code.
// Status: correct. Lane 0 prints "Warp sum: 496.0" (0 + 1 + ... + 31) with the helper below.
// Added: warp_reduce_sum (marked), which the document calls but does not define: the usual
// shuffle-down tree, whose result is complete in lane 0.
// Only printf shows the result (`sum` is a local of every lane), so nothing is observed.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//@ launch grid=1 block=32
//@ expect all: no diagnostics

#include <cstdio>

// Added by fencelab: the document calls warp_reduce_sum without defining it.
__device__ float warp_reduce_sum(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xFFFFFFFF, val, offset);
    return val;
}

// Modern warp synchronization with __syncwarp()
__global__ void explicit_warp_sync_demo() {
    int tid = threadIdx.x;
    int lane_id = tid % 32;

    // Volta+ architecture: threads can execute independently
    if (lane_id % 2 == 0) {
        // Even threads do extra work
        for (int i = 0; i < 100; i++) {
            float dummy = sin(i * 0.1f);
        }
    }

    // Explicit synchronization required for Volta+
    __syncwarp(0xFFFFFFFF);  // All threads in warp

    // Now all threads are guaranteed to be at the same point
    float value = lane_id;
    float sum = warp_reduce_sum(value);  // Safe to use warp primitives

    if (lane_id == 0) {
        printf("Warp sum: %.1f\n", sum);
    }
}
