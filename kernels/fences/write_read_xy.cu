// writeXY / readXY without fences.
//
// Source: [002] CUDA C++ Programming Guide, 10.5 "Memory Fence Functions", first example
// (the same code is in [000] course note, "Memory Fence", Example 2).
// Teaches: message passing without fences. Thread 0 writes X then Y; thread 1 reads Y then X.
// Under sequential consistency A=1 B=20 (new Y, old X) is impossible; on a weakly ordered
// GPU it is allowed: "the order in which a CUDA thread writes data to ... global memory ...
// is not necessarily the order in which the data is observed being written by another CUDA
// thread" (10.5). The Guide also calls this a data race: "The resulting values for A and B
// can be anything."
// Status: buggy as a synchronization pattern (no fences); correct as a teaching example.
// Added: the launcher at the end (marked).
//
// Weak models: tso keeps the three sc outcomes (its store buffer is FIFO and loads are performed
// in order, so message passing is forbidden: docs/LITMUS.md MP, tso F). gpu adds A=1 B=20: X=10 and
// Y=20 sit in thread 0's store buffer and drain in either order (different locations), or the
// reader's view still allows the initial X=1 after it read Y=20 (witness gpu:001001).
//
//@ launch grid=1 block=2
//@ observe readXY.A readXY.B
//@ expect sc: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect gpu: reachable A=1 B=20
//@ expect tso: exactly A=1 B=2 | A=10 B=2 | A=10 B=20
//@ expect gpu: exactly A=1 B=2 | A=1 B=20 | A=10 B=2 | A=10 B=20
//@ expect all: diagnostic data-race

__device__ int X = 1, Y = 2;

__device__ void writeXY()
{
    X = 10;
    Y = 20;
}

__device__ void readXY()
{
    int B = Y;
    int A = X;
}

// Added by fencelab (not in the document): the Guide only says "thread 1 executes
// writeXY(), while thread 2 executes readXY()". This launcher is that sentence.
__global__ void write_read_xy() {
    if (threadIdx.x == 0) writeXY(); else readXY();
}
