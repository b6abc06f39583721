// A test-and-test-and-set lock with fences on both sides of the critical section: the fenced
// counterpart of ttas_lock_missing_fence.cu.
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// Teaches: waiting with a read (atomicAdd of 0) before trying the atomicCAS keeps waiters off
// the lock's line; __threadfence() after the acquire and before the release makes the
// critical section's store visible to the next holder, so no update is lost under any model.
// Scale: tools/bench/reduction runs it at 4 x 2 and 6 x 4 with --grid/--block.
//@ launch grid=4 block=2
//@ observe count
//@ expect all: always count == 4
//@ expect all: no diagnostics

__device__ int lock = 0;
__device__ int count = 0;

__global__ void ttas_lock_fenced() {
    if (threadIdx.x == 0) {
        bool held = false;
        while (!held) {
            while (atomicAdd(&lock, 0) != 0) { }
            held = atomicCAS(&lock, 0, 1) == 0;
        }
        __threadfence();
        count = count + 1;
        __threadfence();
        atomicExch(&lock, 0);
    }
}
