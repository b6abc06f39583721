// atomic_operations_demo: atomicAdd/Max/Min/CAS/Or/And/Xor on seven counters and a float
// atomicAdd.
//
// Source: [004] "Synchronization Complete Guide", "Atomic Operations" > "Basic Atomic
// Operations" >
// "Atomic Arithmetic".
// Teaches: the atomic functions (Guide 10.14); each counter's final value does not depend on
// the order of the updates, except counters[3].
// Status: BUGGY (the CAS). atomicCAS(&counters[3], 0, tid) uses 0 both as "not set yet" and
// as thread 0's value: thread 0's CAS leaves counters[3] at 0 and still returns 0, so thread
// 0 always prints "was first", and so does the first thread with tid > 0 to run its CAS: two
// threads claim to be first, and counters[3] ends up holding whichever nonzero thread won.
// (The float atomicAdd of tid * 0.1f is not observed: its value is not exact in float.)
// Launch: 4 threads, N = 3 (thread 3 is idle); counters start {0, 0, 100, 0, 0, -1, 0}
// (100 so that atomicMin has something to lower, all ones so that atomicAnd has bits to
// clear). Final: count 3, max 2, min 0, CAS winner 1 or 2, or 0b111 = 7,
// and -1 & ~7 = -8, xor 7.
// Added: #include <cstdio> (printf), which the document's snippet omits; nvcc needs it,
// fencelab
// ignores #include lines.
//
// Weak models: tso and gpu give the same two outcomes: every access is an atomic
// read-modify-write, which reads the newest entry of its location's history, so the models
// differ only in what the atomics would order, and nothing else is read.
//
//@ launch grid=1 block=4
//@ arg counters: int[7] = {0, 0, 100, 0, 0, -1, 0}
//@ arg values: float[1] = zeros
//@ arg N = 3
//@ observe counters
//@ expect sc: exactly \
//@   counters[0]=3 counters[1]=2 counters[2]=0 counters[3]=1 counters[4]=7 counters[5]=-8 counters[6]=7 \
//@ | counters[0]=3 counters[1]=2 counters[2]=0 counters[3]=2 counters[4]=7 counters[5]=-8 counters[6]=7
//@ expect tso,gpu: always counters[0] == 3 && counters[1] == 2 && counters[2] == 0 \
//@   && (counters[3] == 1 || counters[3] == 2) && counters[4] == 7 && counters[5] == -8 && counters[6] == 7
//@ expect tso,gpu: reachable counters[3]=1
//@ expect tso,gpu: reachable counters[3]=2
// fencelab-note: the checkers report nothing: the CAS bug is in the algorithm (0 means
// both "not set" and thread 0), not in the synchronization.
//@ expect all: no diagnostics

#include <cstdio>

// Comprehensive atomic operations demonstration
__global__ void atomic_operations_demo(int* counters, float* values, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // Integer atomic operations
        atomicAdd(&counters[0], 1);                    // Increment counter
        atomicMax(&counters[1], tid);                  // Track maximum
        atomicMin(&counters[2], tid);                  // Track minimum

        // Conditional atomic operations
        int old_val = atomicCAS(&counters[3], 0, tid); // Compare-and-swap
        if (old_val == 0) {
            printf("Thread %d was first to set counter[3]\n", tid);
        }

        // Floating-point atomics (newer architectures)
        atomicAdd(&values[0], tid * 0.1f);            // Float addition

        // Bitwise atomic operations
        atomicOr(&counters[4], 1 << (tid % 32));       // Set bit
        atomicAnd(&counters[5], ~(1 << (tid % 32)));   // Clear bit
        atomicXor(&counters[6], 1 << (tid % 32));      // Toggle bit
    }
}
