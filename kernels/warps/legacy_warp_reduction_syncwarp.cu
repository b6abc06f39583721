// legacy_warp_reduction_syncwarp: the last-warp shared-memory reduction made safe under
// independent thread scheduling with __syncwarp().
//
// Source: fencelab (issue 5), after "Using CUDA Warp-Level Primitives" (NVIDIA developer blog,
// 2018), which gives exactly this rewrite of the legacy warp-synchronous reduction.
// Teaches: `v[tid] += v[tid + s]` cannot be fixed by putting __syncwarp() between statements,
// because the read of v[tid + s] and lane tid + s's write of it are in the same statement.
// Read into a register, __syncwarp(), write, __syncwarp(): every read of a level happens
// before every write of it, and __syncwarp() also makes the writes visible to the other lanes
// (Programming Guide 10.6: memory ordering among the participating threads).
// Status: correct under ITS and lockstep: output[0] = 64 in every execution.
// Launch: as legacy_warp_reduction_volatile.cu: 64 threads, 64 inputs of 1.
//@ launch grid=1 block=64
//@ arg input: int[64] = 1
//@ arg output: int[1] = zeros
//@ observe output[0]
//@ expect sc, gpu: always output[0] == 64
//@ expect sc/lockstep, gpu/lockstep: exactly output[0]=64
//@ expect all: no diagnostics

__global__ void legacy_warp_reduction_syncwarp(const int* input, int* output) {
    __shared__ int sdata[64];
    unsigned int tid = threadIdx.x;
    sdata[tid] = input[tid];
    __syncthreads();
    if (tid < 32) {
        int v = sdata[tid];
        v += sdata[tid + 32]; __syncwarp();
        sdata[tid] = v;       __syncwarp();
        v += sdata[tid + 16]; __syncwarp();
        sdata[tid] = v;       __syncwarp();
        v += sdata[tid + 8];  __syncwarp();
        sdata[tid] = v;       __syncwarp();
        v += sdata[tid + 4];  __syncwarp();
        sdata[tid] = v;       __syncwarp();
        v += sdata[tid + 2];  __syncwarp();
        sdata[tid] = v;       __syncwarp();
        v += sdata[tid + 1];  __syncwarp();
        sdata[tid] = v;
    }
    if (tid == 0) output[0] = sdata[0];
}
