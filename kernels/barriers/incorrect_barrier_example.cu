// incorrect_barrier_example: __syncthreads() in both arms of an if/else on threadIdx.x % 2.
//
// Source: [001] textbook (Chinese), section 4.3 "同步和透明可扩展性" (Synchronization and
// transparent scalability), Figure 4.4 "一个错误的__syncthreads()的用法" (an incorrect use of
// __syncthreads()).
// Teaches: the two __syncthreads() calls are two different barriers. Even threads wait at the
// first, odd threads at the second; neither is reached by the whole block. Guide 10.6:
// "__syncthreads() is allowed in conditional code but only if the conditional evaluates
// identically across the entire thread block, otherwise the code execution is likely to hang
// or produce unintended side effects." The textbook: undefined behaviour, wrong results or
// deadlock.
// Status: BUGGY (barrier divergence).
// Completed (the textbook's code cannot compile): `void` -> `__global__ void`;
// `__syncthreads{};` -> `__syncthreads();`; each `...` placeholder -> the comment `// ...`.
// Nothing is observed: the kernel has no memory effects; the point is the diagnostic.
//
// Weak models: nothing to add; the kernel makes no memory accesses, so tso and gpu behave as sc.
//
// fencelab check reports the divergence: even threads wait at one __syncthreads, odd threads
// at the other.
//@ launch grid=1 block=4
//@ arg n = 0
//@ expect all: diagnostic barrier-divergence

__global__ void incorrect_barrier_example(int n) {
    // ...
    if (threadIdx.x % 2 == 0) {
        // ...
        __syncthreads();
    }
    else {
        // ...
        __syncthreads();
    }
}
