// barrier_inter: Barrier (__syncthreads() between a store and a load).
// Placement: threads in different blocks (grid=2 block=1).
//
// One thread stores x=1 then waits at __syncthreads(); the other waits at __syncthreads() then
// loads x. The barrier orders and publishes the store only within one block.
//
//   block 0          | block 1
//   x = 1;           | __syncthreads();
//   __syncthreads(); | int r1 = x;
//
// Weak outcome: r1=0.
// Verdicts (inter, docs/LITMUS.md): sc A   tso A   gpu A   (A reachable, F unreachable)
// Why: Each thread's __syncthreads() waits only for its own block (here: itself), so the load
// may run before the store even under sc: A under every model.
// Rule: Programming Guide, "Synchronization Functions": __syncthreads() waits for all threads
// of the block and makes their prior accesses visible to all threads of the block.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe barrier_inter.r1
//@ expect sc: exactly r1=0 | r1=1
//@ expect tso: exactly r1=0 | r1=1
//@ expect gpu: exactly r1=0 | r1=1
//@ expect sc: reachable r1=0
//@ expect tso: reachable r1=0
//@ expect gpu: reachable r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void barrier_inter() {
    if (blockIdx.x == 0) x = 1;
    __syncthreads();   // each block's own barrier: it does not wait for the other block
    if (blockIdx.x == 1) {
        int r1 = x;
    }
}
