// intra_warp_spin_lock: two lanes of one warp take turns in a critical section guarded by a
// spin lock (atomicCAS to take it, atomicExch to give it back).
//
// Source: fencelab (issue 5), after the lock of [004] locks/deadlock_free_demo.cu and the
// Programming Guide's Compute Capability 7.x note on Independent Thread Scheduling ("can lead
// to ... deadlock ... in code that assumed warp-synchronicity" and the reverse: starvation-free
// algorithms such as this mutex become possible within a warp).
// Teaches: under lockstep (pre-Volta) the lanes of a warp run each step together and the
// diverged paths one after the other: the lane that won the lock waits while the losers, whose
// loop comes first, spin forever: no lane can make progress (fencelab reports a deadlock: the spinning lanes re-read
// a lock that only the waiting winner would release). Under ITS the winner is scheduled
// independently, leaves the critical section and releases the lock: both lanes complete.
// Status: correct under ITS (counter = 2; the fences order the critical section under the gpu
// model); deadlock under lockstep (no execution completes).
//@ launch grid=1 block=2
//@ observe counter
//@ expect sc, gpu: exactly counter=2
//@ expect sc/lockstep, gpu/lockstep: unreachable counter=2
//@ expect sc/lockstep, gpu/lockstep: diagnostic deadlock
//@ expect all: no diagnostics

__device__ int lock = 0;
__device__ int counter = 0;

__global__ void intra_warp_spin_lock() {
    while (atomicCAS(&lock, 0, 1) != 0) {
        // spin
    }
    __threadfence();
    counter = counter + 1;
    __threadfence();
    atomicExch(&lock, 0);
}
