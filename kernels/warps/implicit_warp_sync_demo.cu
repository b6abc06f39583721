// implicit_warp_sync_demo: __shfl_sync and __popc(__ballot_sync(...)) with the full mask.
//
// Source: [004] "Synchronization Complete Guide", "Warp-Level Synchronization" > "Implicit Warp
// Synchronization" >
// "SIMT Synchronization Properties".
// Teaches: the *_sync warp intrinsics synchronize the lanes named in their mask themselves.
// Status: correct code with a misleading comment: "All threads in a warp execute in lockstep
// (SIMT)" is not guaranteed since Volta (Independent Thread Scheduling); the code is safe
// because __shfl_sync/__ballot_sync take a mask that all 32 lanes execute (Guide 10.21-10.22),
// not because of lockstep. Lane l holds 2*l; 24 lanes (l >= 8) have value > 15, so lane 0
// prints "Warp 0: 24 threads satisfy condition". A full warp is needed (mask 0xFFFFFFFF).
// Only printf shows the result (`count` is a local of every lane), so nothing is observed.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//@ launch grid=1 block=32
//@ expect all: no diagnostics

#include <cstdio>

// Demonstrate implicit warp synchronization
__global__ void implicit_warp_sync_demo() {
    int tid = threadIdx.x;
    int lane_id = tid % 32;
    int warp_id = tid / 32;

    // All threads in a warp execute in lockstep (SIMT)
    float value = lane_id * 2.0f;

    // This is safe within a warp - no explicit sync needed
    float neighbor = __shfl_sync(0xFFFFFFFF, value, (lane_id + 1) % 32);

    // Warp vote operations work without explicit sync
    bool condition = (value > 15.0f);
    int count = __popc(__ballot_sync(0xFFFFFFFF, condition));

    if (lane_id == 0) {
        printf("Warp %d: %d threads satisfy condition\n", warp_id, count);
    }

    // However, be careful with Volta+ independent thread scheduling
    // Always use __syncwarp() when thread divergence is possible
}
