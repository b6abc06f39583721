// main_computation_kernel
//
// Source: [004] "Synchronization Complete Guide", "Grid-Level Coordination" > "Multi-Kernel
// Coordination" > "Kernel Boundary Synchronization".
// Teaches: the kernel boundary (cudaDeviceSynchronize() between launches in the host class
// MultiStageProcessor) is the grid-wide barrier between stages.
// Inside one kernel this stencil would race with a stage writing its input; between launches it
// cannot.
// Status: correct (no synchronization inside the kernel: each thread writes only its own
// element).
// Not ported: the host code around it (see kernels/README.md).
// Stage 2 alone: with N = 4 every window covers all 4 elements: 110 / 11 = 10.
//
// Weak models: tso and gpu give the same output (exploration does not finish: the store buffers
// multiply the interleavings, not the outcomes): no thread reads what another writes.
//
//@ launch grid=1 block=4
//@ arg input: float[4] = {11, 22, 33, 44}
//@ arg output: float[4] = zeros
//@ arg N = 4
//@ observe output
//@ expect sc: exactly output[0]=10 output[1]=10 output[2]=10 output[3]=10
//@ expect tso,gpu: always output[0] == 10 && output[1] == 10 && output[2] == 10 && output[3] == 10
//@ expect all: no diagnostics

__global__ void main_computation_kernel(float* input, float* output, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N) {
        float sum = 0.0f;
        for (int i = max(0, tid - 5); i <= min(N - 1, tid + 5); i++) {
            sum += input[i];
        }
        output[tid] = sum / 11.0f;  // Average of 11 elements
    }
}
