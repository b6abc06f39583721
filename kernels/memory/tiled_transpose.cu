// tiled_transpose: a matrix transpose through a padded shared-memory tile, as in NVIDIA's
// transpose sample (coalesced reads and writes, the tile one column wider against bank
// conflicts).
//
// Source: fencelab catalogue, after the CUDA samples' transpose (transposeCoalesced).
// Teaches: each block loads a TILE x TILE tile, waits at __syncthreads(), then writes it out
// transposed: every thread reads an element another thread wrote, so the barrier is what
// makes the read see it (Programming Guide 10.6). A two-dimensional __shared__ array is
// laid out row-major; [TILE + 1] pads each row.
// Status: correct.
// Launch: a 4 x 4 matrix 0..15 in 2 x 2 blocks of 2 x 2 threads; out is its transpose.
//
// Weak models: the same under sc, tso and gpu: the barrier drains and joins views.
//
//@ launch grid=(2,2) block=(2,2)
//@ arg in: int[16] = iota
//@ arg out: int[16] = zeros
//@ observe out
//@ expect all: exactly out[0]=0 out[1]=4 out[2]=8 out[3]=12 out[4]=1 out[5]=5 out[6]=9 out[7]=13 out[8]=2 out[9]=6 out[10]=10 out[11]=14 out[12]=3 out[13]=7 out[14]=11 out[15]=15
//@ expect all: no diagnostics

#define TILE 2
#define N 4

__global__ void tiled_transpose(const int* in, int* out) {
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * N + x];
    __syncthreads();
    // The transposed block: this thread writes what its mirror image read.
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}
