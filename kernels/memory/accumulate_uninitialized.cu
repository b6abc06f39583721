// accumulate_uninitialized: every thread atomicAdd()s its input into sum[0], but sum was never
// zeroed (a cudaMalloc without the cudaMemset).
//
// Source: fencelab catalogue (the host-side slip behind many "wrong total" reports).
// Teaches: device memory from cudaMalloc holds whatever was there before ("The memory is not
// cleared", CUDA Runtime API, cudaMalloc). The atomics are correct; the total starts from
// garbage. compute-sanitizer initcheck reports such reads; so does fencelab, for buffers
// declared `uninit`.
// Status: BUGGY (uninitialized read). The fix: cudaMemset(sum, 0, sizeof(int)) on the host,
// or `//@ arg sum: int[1] = zeros` here.
// Launch: one block of 4 threads, in = 1, 1, 1, 1. fencelab gives uninit memory the value 0,
// so the total prints as 4; the report is the finding.
//
// Weak models: the same in every model (atomics only).
//
//@ launch grid=1 block=4
//@ arg in: int[4] = 1
//@ arg sum: int[1] = uninit
//@ observe sum[0]
//@ expect all: exactly sum[0]=4
//@ expect all: diagnostic uninitialized-read

__global__ void accumulate_uninitialized(const int* in, int* sum) {
    atomicAdd(&sum[0], in[threadIdx.x]);
}
