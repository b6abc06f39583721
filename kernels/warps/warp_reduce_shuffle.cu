// warp_reduce_shuffle: the sum over a warp with __shfl_down_sync, the modern replacement for
// the warp-synchronous shared-memory reduction (legacy_warp_reduction_*.cu).
//
// Source: fencelab (issue 5), after the Programming Guide 10.22 "Warp Shuffle Functions"
// examples and the usual warp_reduce_sum (also in explicit_warp_sync_demo.cu).
// Teaches: shuffles exchange registers, and each *_sync shuffle is a rendezvous of the lanes
// named in its mask: no shared memory, no volatile, no __syncwarp needed. Right under
// independent thread scheduling (ITS) and under lockstep alike.
// Status: correct. Lane l holds l + 1; after the offsets 16, 8, 4, 2, 1 lane 0 holds
// 1 + 2 + ... + 32 = 528. The values are computed, not loaded, so that every mode's
// exploration is complete (one execution each: a shuffle's arrival is not a decision).
//@ launch grid=1 block=32
//@ arg out: int[1] = zeros
//@ observe out[0]
//@ expect all: exactly out[0]=528
//@ expect all/lockstep: exactly out[0]=528
//@ expect all: no diagnostics

__global__ void warp_reduce_shuffle(int* out) {
    int lane = threadIdx.x % 32;
    int value = lane + 1;
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffff, value, offset);
    if (lane == 0) out[0] = value;
}
