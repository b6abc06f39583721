// shuffle_mask_omits_lane: four lanes execute a shuffle whose mask names only three of them.
//
// Source: fencelab (issue 5), after the Programming Guide 10.22: "each calling thread must
// have its own bit set in the mask".
// Teaches: the mask of a *_sync warp operation must name every lane that executes it. Lane 3
// executes the shuffle with mask 0x7, which omits it: an invalid warp mask (undefined on the
// hardware; fencelab stops the execution with a runtime error at the shuffle).
// Status: BUGGY: use __activemask() or the mask of the lanes that take part (0xf).
//@ launch grid=1 block=4
//@ arg out: int[4] = zeros
//@ expect sc, gpu: diagnostic invalid-warp-mask
//@ expect sc/lockstep, gpu/lockstep: diagnostic invalid-warp-mask

__global__ void shuffle_mask_omits_lane(int* out) {
    int lane = threadIdx.x;
    // The mask names lanes 0-2, but all four lanes execute the shuffle.
    out[lane] = __shfl_sync(0x7, lane * 10, 0);
}
