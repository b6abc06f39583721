// deadlock_free_demo: every thread takes lock1 then lock2 (consistent order), updates two
// resources, releases in reverse order.
//
// Source: [004] "Synchronization Complete Guide", "Debugging Synchronization" > "Common
// Synchronization Bugs" >
// "Deadlock Prevention" (second kernel, "FIXED").
// Teaches: a global lock order prevents the lock-ordering deadlock.
// Status: correct under sequential consistency and Volta-style scheduling, but still BUGGY
// in two ways the document does not mention:
// - No fences. The locks are taken and released with atomicCAS/atomicExch, which are relaxed
//   (Guide 10.14: atomic functions "do not act as memory fences"). Nothing orders the plain
//   `*resource1 += tid` of one critical section before the next holder's read: on a weak GPU
//   an update can be lost. The fix: __threadfence() after acquiring and before releasing.
// - Warp lockstep (before Volta): two lanes of one warp spin on the same lock; the lane that
//   got it cannot run its critical section while the warp executes the spinning lane's loop,
//   so the warp deadlocks (fencelab --warp lockstep).
// Launch: 2 threads: resource1 = 0 + 1 = 1, resource2 = 0 + 2 = 2.
//
// Weak models: tso gives exactly 1, 2 (exhaustive: its atomics drain the whole store buffer, as
// x86 locked instructions do). gpu loses updates: resource1=0 and/or resource2=0 are reachable
// (witness gpu:10[5]101010 for both). Thread 1 runs its critical section and releases; thread 0
// acquires with atomicCAS but, the lock being a relaxed atomic (Guide 10.14), its view still
// allows the initial 0, so it reads 0, adds 0 and stores 0 after thread 1's store.
//
//@ launch grid=1 block=2
//@ arg resource1: int[1] = zeros
//@ arg resource2: int[1] = zeros
//@ arg lock1: int[1] = zeros
//@ arg lock2: int[1] = zeros
//@ observe resource1[0] resource2[0]
//@ expect sc: exactly resource1[0]=1 resource2[0]=2
//@ expect tso: exactly resource1[0]=1 resource2[0]=2
//@ expect gpu: reachable resource1[0]=0 resource2[0]=0
//@ expect gpu: reachable resource1[0]=1 resource2[0]=0
//@ expect gpu: reachable resource1[0]=0 resource2[0]=2
//@ expect gpu: always (resource1[0] == 0 || resource1[0] == 1) && (resource2[0] == 0 || resource2[0] == 2)
//@ expect all: diagnostic data-race

// FIXED: Consistent lock ordering prevents deadlock
__global__ void deadlock_free_demo(int* resource1, int* resource2,
                                  int* lock1, int* lock2) {
    int tid = threadIdx.x;

    // Always acquire locks in same order: lock1 then lock2
    while (atomicCAS(lock1, 0, 1) != 0) { /* spin */ }
    while (atomicCAS(lock2, 0, 1) != 0) { /* spin */ }

    // Critical section
    *resource1 += tid;
    *resource2 += tid * 2;

    // Release in reverse order
    atomicExch(lock2, 0);
    atomicExch(lock1, 0);
}
