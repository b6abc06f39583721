// potential_deadlock_demo: even threads take lock1 then lock2, odd threads lock2 then lock1.
//
// Source: [004] "Synchronization Complete Guide", "Debugging Synchronization" > "Common
// Synchronization Bugs" >
// "Deadlock Prevention" (first kernel).
// Teaches: inconsistent lock ordering deadlocks (the document's "BAD").
// Status: BUGGY on purpose: if thread 0 takes lock1 and thread 1 takes lock2 before either
// takes its second lock, both spin forever. Other executions complete with resource1 =
// resource2 = 2. (Also, as in deadlock_free_demo: no __threadfence() after acquiring or
// before releasing, so the critical sections are not ordered by the locks on a weak GPU,
// Guide 10.14: atomics are not fences.)
// Launch: 2 threads (one even, one odd).
//
// Weak models: tso behaves as sc (the deadlock, or resource1 = resource2 = 2). gpu also loses
// updates, as in deadlock_free_demo: resource1 = 1 and/or resource2 = 1 in completed executions
// (witnesses gpu:011001001[3]010 for 1, 1 and gpu:1[3]001100100110 for 2, 1 in
// `fencelab run --model gpu --seed 1`).
//
// fencelab check reports the deadlock: in some executions each thread holds one lock and spins
// in atomicCAS on the other, and no thread can make progress.
//@ launch grid=1 block=2
//@ arg resource1: int[1] = zeros
//@ arg resource2: int[1] = zeros
//@ arg lock1: int[1] = zeros
//@ arg lock2: int[1] = zeros
//@ observe resource1[0] resource2[0]
//@ expect all: diagnostic deadlock
//@ expect all: diagnostic data-race

// Potential deadlock scenario and prevention
__global__ void potential_deadlock_demo(int* resource1, int* resource2,
                                       int* lock1, int* lock2) {
    int tid = threadIdx.x;

    // BAD: Can cause deadlock
    if (tid % 2 == 0) {
        // Even threads acquire lock1 then lock2
        while (atomicCAS(lock1, 0, 1) != 0) { /* spin */ }
        while (atomicCAS(lock2, 0, 1) != 0) { /* spin */ }

        // Critical section
        *resource1 += 1;
        *resource2 += 1;

        atomicExch(lock2, 0);
        atomicExch(lock1, 0);
    } else {
        // Odd threads acquire lock2 then lock1 - DEADLOCK POTENTIAL!
        while (atomicCAS(lock2, 0, 1) != 0) { /* spin */ }
        while (atomicCAS(lock1, 0, 1) != 0) { /* spin */ }

        // Critical section
        *resource1 += 1;
        *resource2 += 1;

        atomicExch(lock1, 0);
        atomicExch(lock2, 0);
    }
}
