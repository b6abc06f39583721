// barrier_intra: Barrier (__syncthreads() between a store and a load).
// Placement: threads in one block, different warps (grid=1 block=64).
//
// One thread stores x=1 then waits at __syncthreads(); the other waits at __syncthreads() then
// loads x. The barrier orders and publishes the store only within one block.
//
//   thread 0 (warp 0) | thread 32 (warp 1)
//   x = 1;            | __syncthreads();
//   __syncthreads();  | int r1 = x;
//   (every thread of the block reaches the __syncthreads(), so it is not divergent;
//   the other 62 threads do nothing else)
//
// Weak outcome: r1=0.
// Verdicts (intra, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: The load cannot start before the writer has reached the barrier, and the barrier drains
// the block's store buffers (tso, gpu) and joins the views (gpu): F under every model.
// Rule: Programming Guide, "Synchronization Functions": __syncthreads() waits for all threads
// of the block and makes their prior accesses visible to all threads of the block.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=64
//@ observe barrier_intra.r1
//@ expect sc: exactly r1=1
//@ expect tso: exactly r1=1
//@ expect gpu: exactly r1=1
//@ expect sc: unreachable r1=0
//@ expect tso: unreachable r1=0
//@ expect gpu: unreachable r1=0
//@ expect all: no diagnostics

__device__ int x = 0, y = 0;

__global__ void barrier_intra() {
    if (threadIdx.x == 0) x = 1;
    __syncthreads();   // all 64 threads of the block
    if (threadIdx.x == 32) {
        int r1 = x;
    }
}
