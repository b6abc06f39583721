// coww: CoWW (coherence of two writes).
// Placement: one thread.
//
// One thread stores 1 then 2 to x; the outcome is x's final value.
//
//   thread 0
//   x = 1;
//   x = 2;
//
// Weak outcome: final x=1.
// Verdicts (single thread, docs/LITMUS.md): sc F   tso F   gpu F   (A reachable, F unreachable)
// Why: Every model keeps one thread's stores to one location in program order (gpu:
// per-location program order in the store buffer).
// Rule: PTX ISA, "Memory Consistency Model" (section 8): Sequential Consistency Per Location
// axiom (program order and coherence order agree for one location).
// Outcome sets: exhaustive enumeration of each model as DESIGN.md defines it.
//
//@ launch grid=1 block=1
//@ observe x
//@ expect sc: exactly x=2
//@ expect tso: exactly x=2
//@ expect gpu: exactly x=2
//@ expect sc: unreachable x=1
//@ expect tso: unreachable x=1
//@ expect gpu: unreachable x=1
//@ expect all: no diagnostics

__device__ int x = 0;

__global__ void coww() {
    x = 1;
    x = 2;
}
