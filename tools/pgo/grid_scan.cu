// Training kernel for tools/build-release (not part of the catalogue, not a benchmark): a
// large grid's paths (block admission and retirement, barrier rounds, resumption prefetching,
// shared and global accesses, an atomic per block) on 512 blocks of 256 threads. Each block
// scans its slice of the input (Hillis-Steele: log2(256) rounds of two barriers each) and adds
// its total to a grid-wide sum.
//@ launch grid=512 block=256
//@ arg in: int[131072] = iota
//@ arg out: int[131072] = zeros
//@ arg total: unsigned long long[1] = zeros
//@ observe out[255] total[0]
__global__ void grid_scan(const int* in, int* out, unsigned long long* total) {
    __shared__ int s[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int before = tid >= offset ? s[tid - offset] : 0;
        __syncthreads();
        s[tid] += before;
        __syncthreads();
    }
    out[i] = s[tid];
    if (tid == blockDim.x - 1) atomicAdd(total, (unsigned long long)s[tid]);
}
