// preprocessing_kernel
//
// Source: [004] "Synchronization Complete Guide", "Grid-Level Coordination" > "Multi-Kernel
// Coordination" > "Kernel Boundary Synchronization".
// Teaches: the kernel boundary (cudaDeviceSynchronize() between launches in the host class
// MultiStageProcessor) is the grid-wide barrier between stages.
// Status: correct (no synchronization inside the kernel: each thread writes only its own
// element).
// Not ported: the host code around it (see kernels/README.md).
// Stage 1 alone: output = sqrt(|input|) = {2, 3, 4, 1}.
//
// Weak models: tso and gpu give the same output (exploration does not finish: the store buffers
// multiply the interleavings, not the outcomes): no thread reads what another writes.
//
//@ launch grid=1 block=4
//@ arg input: float[4] = {4, -9, 16, -1}
//@ arg output: float[4] = zeros
//@ arg N = 4
//@ observe output
//@ expect sc: exactly output[0]=2 output[1]=3 output[2]=4 output[3]=1
//@ expect tso,gpu: always output[0] == 2 && output[1] == 3 && output[2] == 4 && output[3] == 1
//@ expect all: no diagnostics

__global__ void preprocessing_kernel(float* input, float* output, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N) {
        output[tid] = sqrt(fabs(input[tid]));
    }
}
