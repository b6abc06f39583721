// A ticket lock: each block takes a ticket with atomicAdd and waits until it is served, with
// __threadfence() after entering and before leaving.
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// Teaches: a fair lock built from two counters; the fences order the critical section, so the
// count is exact under every model and nothing races. The wait reads now_serving with a
// volatile load: fencelab's race detector does not follow release sequences (PTX ISA 8.6,
// "Release sequence"), so a wait by atomicAdd(&now_serving, 0), whose read-modify-write the
// next holder may read instead of the release, is reported as a race on count.
// Scale: tools/bench/reduction runs it at 3 x 2, 4 x 2 and 6 x 4 with --grid/--block.
//@ launch grid=3 block=2
//@ observe count
//@ expect all: always count == 3
//@ expect all: no diagnostics

__device__ int next_ticket = 0;
__device__ int now_serving = 0;
__device__ int count = 0;

__global__ void ticket_lock_fenced() {
    if (threadIdx.x == 0) {
        int ticket = atomicAdd(&next_ticket, 1);
        while (*(volatile int*)&now_serving != ticket) { }
        __threadfence();
        count = count + 1;
        __threadfence();
        atomicAdd(&now_serving, 1);
    }
}
