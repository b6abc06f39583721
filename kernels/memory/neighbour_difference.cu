// neighbour_difference: out[i] = in[i + 1] - in[i], with no bounds check on i + 1.
//
// Source: fencelab catalogue (the off-by-one of every first stencil kernel).
// Teaches: the last thread reads one element past the end of `in`. On hardware the read
// usually returns whatever lies there, silently (compute-sanitizer memcheck reports it when
// it crosses an allocation); fencelab stops the execution and names the array, its size and
// the index.
// Status: BUGGY (out of bounds). The fix: `if (i + 1 < n)` around the difference.
// Launch: one block of 4 threads, in = 0, 1, 2, 3.
//
// Weak models: the same in every model: the out-of-bounds read ends every execution.
//
//@ launch grid=1 block=4
//@ arg in: float[4] = iota
//@ arg out: float[4] = zeros
//@ expect all: diagnostic out-of-bounds

__global__ void neighbour_difference(const float* in, float* out) {
    int i = threadIdx.x;
    out[i] = in[i + 1] - in[i];   // thread 3 reads in[4]
}
