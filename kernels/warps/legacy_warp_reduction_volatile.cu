// legacy_warp_reduction_volatile: the pre-Volta "warp-synchronous" last-warp reduction in
// shared memory: volatile, and no synchronization at all within the warp.
//
// Source: fencelab (issue 5), after the classic warpReduce of the CUDA SDK reduction sample
// ("Optimizing Parallel Reduction in CUDA", reduce4-6) that the source documents' [004]
// warp_optimized_reduction (reductions/) copies without the volatile.
// Teaches: the code relies on the 32 lanes executing each statement together (lockstep), and
// on volatile keeping every value in memory rather than in a register. Under lockstep each
// `vsmem[tid] += vsmem[tid + s]` is three warp-wide steps (load, load, store), every lane's
// store landing before any lane's next load: the tree sums correctly. Since Volta, lanes are
// scheduled independently (ITS): lane tid may read vsmem[tid + s] before or after lane tid + s
// has added into it. volatile does not help: it orders nothing between lanes.
// Status: correct under lockstep; BUGGY under ITS: nothing orders one lane's update of sdata
// before another lane's read of it, and wrong sums are reachable (e.g. 7: lane 0 runs its whole unrolled part before any other lane starts it,
// 1 + 1 + 1 + 1 + 1 + 1 + 1). The fix: legacy_warp_reduction_syncwarp.cu, or shuffles
// (warp_reduce_shuffle.cu).
// Launch: one block of 64 threads (two warps; the tree starts at tid + 32), 64 inputs of 1.
//@ launch grid=1 block=64
//@ arg input: int[64] = 1
//@ arg output: int[1] = zeros
//@ observe output[0]
//@ expect sc/lockstep, gpu/lockstep: exactly output[0]=64
//@ expect sc, gpu: reachable output[0]=7
// fencelab-note: the checkers report nothing. The lanes' accesses are volatile, which PTX
// treats as relaxed system-scope operations: morally strong, so not a data race (PTX ISA,
// memory consistency model, "Data races"). The bug is one of ordering, shown by the
// reachable sum 7 above.
//@ expect all: no diagnostics

__global__ void legacy_warp_reduction_volatile(const int* input, int* output) {
    __shared__ int sdata[64];
    unsigned int tid = threadIdx.x;
    sdata[tid] = input[tid];
    __syncthreads();
    if (tid < 32) {
        volatile int* vsmem = sdata;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }
    if (tid == 0) output[0] = sdata[0];
}
