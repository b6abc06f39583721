// cowr: CoWR (coherence of a write then a read).
// Placement: one thread.
//
// One thread stores 1 to x then loads x: can it read the value older than its own store?
//
//   thread 0
//   x = 1;
//   int r0 = x;
//
// Weak outcome: r0=0.
// Verdicts (single thread, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: The load reads the thread's own buffered store; once it has drained, the thread's view
// of x has moved up to it.
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Sequential Consistency Per Location
// axiom.
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=1
//@ observe cowr.r0
//@ expect sc: exactly r0=1
//@ expect tso: exactly r0=1
//@ expect gpu: exactly r0=1
//@ expect sc: unreachable r0=0
//@ expect tso: unreachable r0=0
//@ expect gpu: unreachable r0=0
//@ expect all: no diagnostics

__device__ int x = 0;

__global__ void cowr() {
    x = 1;
    int r0 = x;
}
