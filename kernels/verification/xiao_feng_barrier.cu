// A lock-free grid barrier in the style of Xiao and Feng ("Inter-Block GPU Communication via
// Fast Barrier Synchronization", IPDPS 2010), without the fence before arriving.
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// Teaches: a grid barrier built from flags orders memory only with fences. Each block writes
// its partial result, arrives (flag_in[b] = 1), block 0 waits for every arrival and releases
// every block (flag_out[b] = 1), and each block then reads its neighbour's partial result.
// What is wrong: nothing orders the partial result before the arrival flag. Under gpu a
// block can see the release and still read its neighbour's stale 0 (the data race on
// `partial` is the report); a __threadfence() before `flag_in[b] = 1` and after the wait
// (as the paper's algorithm has) removes both. sc and tso keep stores in order.
// Scale: tools/bench/reduction runs it at 2 x 2, 3 x 2, 4 x 2 and 6 x 4 with --grid/--block.
//@ launch grid=2 block=2
//@ arg partial: int[64] = zeros
//@ arg seen: int[64] = zeros
//@ observe seen[0] seen[1]
//@ expect sc,tso: always seen[0] == 2 && seen[1] == 1
//@ expect gpu: reachable seen[0]=0
//@ expect all: diagnostic data-race

__device__ volatile int flag_in[64];
__device__ volatile int flag_out[64];

__global__ void xiao_feng_barrier(int* partial, int* seen) {
    int b = blockIdx.x;
    if (threadIdx.x == 0) partial[b] = b + 1;
    // gpu_sync: arrive, block 0 collects, every block waits for its release.
    __syncthreads();
    if (threadIdx.x == 0) flag_in[b] = 1;
    if (b == 0) {
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) {
            while (flag_in[i] != 1) { }
        }
        __syncthreads();
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) flag_out[i] = 1;
    }
    if (threadIdx.x == 0) {
        while (flag_out[b] != 1) { }
    }
    __syncthreads();
    if (threadIdx.x == 0) seen[b] = partial[(b + 1) % gridDim.x];
}
