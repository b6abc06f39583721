// swap: each thread writes A[idx], calls __threadfence_block(), then reads the mirrored
// element A[BLOCK_SIZE-1-idx] written by another thread.
//
// Source: [000] course note, "Memory Fence", Example 1.
// Teaches: a fence is not a barrier. __threadfence_block() orders the calling thread's own
// write before its own later read (Guide 10.5), but it does not wait for the other thread:
// "Memory fence functions only affect the ordering of memory operations by a thread; they do
// not, by themselves, ensure that these memory operations are visible to other threads (like
// __syncthreads() does for threads within a block)". B[idx] can therefore be the initial 0.
// __syncthreads() instead of the fence would make B always {2, 2, 1, 1}.
// What the fence does give: threads idx and BLOCK_SIZE-1-idx form a store-buffering pair, so
// they cannot both read 0 (B[0]=0 with B[3]=0, or B[1]=0 with B[2]=0).
// Status: BUGGY (the intended swap needs __syncthreads()).
// Completed (the note's code cannot compile as printed): `global` -> `__global__` (the
// markdown ate the underscores); the statement the comment introduces, printed on the
// comment's line, is moved to its own line (its text is unchanged); `#define BLOCK_SIZE 4`
// added. With BLOCK_SIZE 4: A = {1, 1, 2, 2}.
//
// Weak models: tso and gpu reach the same nine outcomes (in 20,000 random runs each; exploration
// does not finish), only more often with a 0. Both-zero pairs stay unreachable: the block fence
// drains the thread's buffer and joins the block's fence view, and the two threads are in one
// block (docs/LITMUS.md SB+block-fences intra, F under tso and gpu). Between blocks a block fence
// would not help under gpu.
//
//@ launch grid=1 block=4
//@ arg A: int[4] = zeros
//@ arg B: int[4] = zeros
//@ observe B
//@ expect sc: exactly \
//@   B[0]=2 B[1]=2 B[2]=1 B[3]=1 | B[0]=2 B[1]=2 B[2]=1 B[3]=0 | B[0]=2 B[1]=2 B[2]=0 B[3]=1 \
//@ | B[0]=2 B[1]=2 B[2]=0 B[3]=0 | B[0]=2 B[1]=0 B[2]=1 B[3]=1 | B[0]=2 B[1]=0 B[2]=1 B[3]=0 \
//@ | B[0]=0 B[1]=2 B[2]=1 B[3]=1 | B[0]=0 B[1]=2 B[2]=0 B[3]=1 | B[0]=0 B[1]=0 B[2]=1 B[3]=1
//@ expect sc: reachable B[0]=0
//@ expect sc: unreachable B[0]=0 B[3]=0
//@ expect sc: unreachable B[1]=0 B[2]=0
//@ expect tso,gpu: reachable B[0]=0
//@ expect tso,gpu: unreachable B[0]=0 B[3]=0
//@ expect tso,gpu: unreachable B[1]=0 B[2]=0
//@ expect tso,gpu: always (B[0] == 2 || B[0] == 0) && (B[1] == 2 || B[1] == 0) \
//@   && (B[2] == 1 || B[2] == 0) && (B[3] == 1 || B[3] == 0)
//@ expect all: diagnostic data-race

// Added by fencelab: the note uses BLOCK_SIZE without defining it.
#define BLOCK_SIZE 4

__global__ void swap (int* A, int* B) {
unsigned int idx = threadIdx.x + blockDim.x * blockIdx.x;

// Reaplce “A[idx] = ( idx < BLOCK_SIZE/2 ) ? 1 : 2” by the line below to avoid warp divergence
A[idx] = (idx-(idx%(BLOCK_SIZE/2))) / (BLOCK_SIZE/2) + 1;

__threadfence_block();

B[idx] = A[(BLOCK_SIZE-1) - idx]; }
