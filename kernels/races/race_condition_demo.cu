// race_condition_demo: every thread increments a counter with a plain load and store and
// records the old and new values.
//
// Source: [004] "Synchronization Complete Guide", "Debugging Synchronization" > "Common
// Synchronization Bugs" >
// "Race Condition Detection" (the kernel; the host analysis with std::map is not ported).
// Teaches: a read-modify-write made of plain accesses loses updates (the document's "BUG").
// Guide 10.5: "It is undefined behavior for two threads to read from or write to the same
// memory location without synchronization"; atomicAdd (10.14) is the fix (compare
// atomics/high_contention_atomics.cu).
// Status: BUGGY on purpose.
// Launch: 3 threads, N = 3. Under sc the counter ends at 1, 2 or 3; 1 when all three threads
// read 0 (and then race_detector holds 0, 1 three times).
//
// Weak models: tso and gpu reach the same sixteen outcomes as sc (20,000 random runs) and no new
// one: each thread reads the counter once and then writes it, and per-location coherence keeps
// a thread that read another's value ordered after that value's store.
//
//@ launch grid=1 block=3
//@ arg shared_counter: int[1] = zeros
//@ arg race_detector: int[6] = zeros
//@ arg N = 3
//@ observe shared_counter[0] race_detector
//@ expect sc: exactly shared_counter[0]=1 | shared_counter[0]=2 | shared_counter[0]=3
//@ expect sc: reachable shared_counter[0]=1 race_detector[0]=0 race_detector[2]=0 race_detector[4]=0
//@ expect sc: reachable shared_counter[0]=3
//@ expect tso,gpu: always shared_counter[0] >= 1 && shared_counter[0] <= 3
//@ expect tso,gpu: reachable shared_counter[0]=1 race_detector[0]=0 race_detector[2]=0 race_detector[4]=0
//@ expect tso,gpu: reachable shared_counter[0]=3
//@ expect all: diagnostic data-race

// Race condition example and detection
__global__ void race_condition_demo(int* shared_counter, int* race_detector, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;

    if (tid < N) {
        // BUG: Race condition on shared_counter
        int old_value = *shared_counter;
        int new_value = old_value + 1;
        *shared_counter = new_value;

        // Record the values seen by each thread
        race_detector[tid * 2] = old_value;
        race_detector[tid * 2 + 1] = new_value;
    }
}
