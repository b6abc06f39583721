// grid_barrier_oversubscribed: a hand-made grid-wide barrier (every block counts itself in,
// then spins until all have arrived), launched with more blocks than the GPU holds at once.
//
// Source: fencelab catalogue. The spin is the idiom of [004] "Synchronization Complete Guide"
// ("Producer-consumer with memory fences": `while (atomicAdd(&flags[partner], 0) == 0)`),
// turned into the grid barrier that pattern invites.
// Teaches: forward progress between blocks. Blocks "are required to execute independently"
// and may run in any order, one after another (Programming Guide, "Thread Hierarchy"); a
// block that is not resident starts only when a resident one finishes. Here the resident
// blocks never finish: they wait for the others to arrive, and those wait for a free slot.
// On hardware the kernel hangs; cooperative launches (cudaLaunchCooperativeKernel with
// grid.sync(), Programming Guide "Grid Synchronization") exist because only they guarantee
// that every block is resident.
// Status: BUGGY (deadlock whenever the grid exceeds what can be resident, here 2 blocks).
// Launch: 4 blocks of 1 thread, at most 2 resident (`resident=2`, as on a GPU too small for
// the grid). With `fencelab run --resident-blocks 4` every execution completes, arrived = 4.
//
// Weak models: the same deadlock under every model: blocks 0 and 1 spin on `arrived`, which
// reaches 2 and can never grow.
//
//@ launch grid=4 block=1 resident=2
//@ observe arrived
//@ expect all: diagnostic deadlock

__device__ int arrived = 0;

__global__ void grid_barrier_oversubscribed() {
    atomicAdd(&arrived, 1);
    while (atomicAdd(&arrived, 0) < gridDim.x) {
        // wait for every block of the grid
    }
}
