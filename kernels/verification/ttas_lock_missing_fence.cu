// A test-and-test-and-set lock whose release forgets the fence: the critical section's store
// may still sit in the store buffer when the next holder reads the count.
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// Teaches: releasing a lock with atomicExch alone does not publish the critical section;
// __threadfence() before the release (and after the acquire) does. Under gpu an update is lost
// (count 1 of 2 is reachable) and the plain accesses to count race; sc and tso keep the
// store before the release.
// Scale: tools/bench/reduction runs it at 2 x 2, 3 x 2, 4 x 2 and 6 x 4 with --grid/--block.
//@ launch grid=2 block=2
//@ observe count
//@ expect sc,tso: always count == 2
//@ expect gpu: reachable count=1
//@ expect all: diagnostic data-race

__device__ int lock = 0;
__device__ int count = 0;

__global__ void ttas_lock_missing_fence() {
    if (threadIdx.x == 0) {
        bool held = false;
        while (!held) {
            while (atomicAdd(&lock, 0) != 0) { }
            held = atomicCAS(&lock, 0, 1) == 0;
        }
        count = count + 1;
        atomicExch(&lock, 0);
    }
}
