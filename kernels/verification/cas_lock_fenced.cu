// A spin lock taken with atomicCAS and released with atomicExch, with __threadfence() after
// taking it and before releasing it: the textbook correct GPU lock.
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// Teaches: the fences make the critical section's plain accesses happen in lock order, so the
// count is exact under every model and no access races. One thread per block takes the lock
// (lanes of one warp spinning on each other's lock can starve under pre-Volta scheduling).
// Scale: tools/bench/reduction runs it at 4 x 2 and 6 x 4 with --grid/--block.
//@ launch grid=4 block=2
//@ observe count
//@ expect all: always count == 4
//@ expect all: no diagnostics

__device__ int lock = 0;
__device__ int count = 0;

__global__ void cas_lock_fenced() {
    if (threadIdx.x == 0) {
        while (atomicCAS(&lock, 0, 1) != 0) { }
        __threadfence();
        count = count + 1;
        __threadfence();
        atomicExch(&lock, 0);
    }
}
