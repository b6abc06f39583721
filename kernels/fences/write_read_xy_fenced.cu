// writeXY / readXY with __threadfence() in both threads.
//
// Source: [002] CUDA C++ Programming Guide, 10.5 "Memory Fence Functions", the fenced version
// (also [000] course note, Example 2, whose copy adds the comment "why we need this line?").
// Teaches: a fence in the writer orders X=10 before Y=20; a fence in the reader orders the
// read of Y before the read of X. With both, the Guide lists exactly three outcomes: "The
// fourth outcome [A=1 B=20] is not possible, because the first write must be visible before
// the second write." Both fences are needed: the reader's fence answers [000]'s question.
// Status: correct as the Guide's demonstration of what fences order. X and Y are plain
// variables written and read by two threads with nothing that makes either read wait, so
// `fencelab check` reports data races on both ("It is undefined behavior for two threads to
// read from or write to the same memory location without synchronization", Guide 10.5);
// volatile or atomic accesses would make them well defined.
// Added: the launcher at the end (marked).
//
// Weak models: tso and gpu both give exactly the three sc outcomes (exhaustive). Under gpu the
// writer's fence drains X=10 before Y=20 and publishes its view; the reader's fence, after it
// read Y=20, joins that view, so its read of X can no longer return 1 (docs/LITMUS.md MP+fences, F).
//
//@ launch grid=1 block=2
//@ observe readXY.A readXY.B
//@ expect sc: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect gpu: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect tso: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect all: diagnostic data-race

__device__ int X = 1, Y = 2;

__device__ void writeXY()
{
    X = 10;
    __threadfence();
    Y = 20;
}

__device__ void readXY()
{
    int B = Y;
    __threadfence();
    int A = X;
}

// Added by fencelab (not in the document): the Guide only says "thread 1 executes
// writeXY(), while thread 2 executes readXY()". This launcher is that sentence.
__global__ void write_read_xy() {
    if (threadIdx.x == 0) writeXY(); else readXY();
}
