// mp_atomic_flag_inter: MP+atomic-flag (message passing, flag accessed with atomics, no fences).
// Placement: threads in different blocks (grid=2 block=1).
//
// Message passing where the flag y is written with atomicExch(&y, 1) and read with
// atomicAdd(&y, 0), and there are no fences: atomics are relaxed.
//
//   block 0            | block 1
//   x = 1;             | int r0 = atomicAdd(&y, 0);
//   atomicExch(&y, 1); | int r1 = x;
//
// Weak outcome: r0=1 r1=0.
// Verdicts (inter, docs/LITMUS.md): sc F   tso F   gpu A   (A reachable, F unreachable)
// Why: gpu: an atomic drains only the thread's own stores to its location, so x=1 may still be
// buffered when y=1 is appended; and the reader's atomic does not move its view of x.
// Rule: Programming Guide, "Atomic Functions": atomics "do not act as memory fences and do not
// imply synchronization or ordering constraints"; PTX ISA, "Memory Consistency Model" (section
// 8): atom without .sem is .relaxed.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=2 block=1
//@ observe mp_atomic_flag_inter.r0 mp_atomic_flag_inter.r1
//@ expect sc: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect tso: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=1
//@ expect gpu: exactly r0=0 r1=0 | r0=0 r1=1 | r0=1 r1=0 | r0=1 r1=1
//@ expect sc: unreachable r0=1 r1=0
//@ expect tso: unreachable r0=1 r1=0
//@ expect gpu: reachable r0=1 r1=0
//@ expect all: diagnostic data-race

__device__ int x = 0, y = 0;

__global__ void mp_atomic_flag_inter() {
    if (blockIdx.x == 0) {
        x = 1;
        atomicExch(&y, 1);
    } else if (blockIdx.x == 1) {
        int r0 = atomicAdd(&y, 0);
        int r1 = x;
    }
}
