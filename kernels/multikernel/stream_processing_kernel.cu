// stream_processing_kernel
//
// Source: [004] "Synchronization Complete Guide", "Grid-Level Coordination" > "Multi-Kernel
// Coordination" > "Stream-Based Coordination".
// Teaches: kernels in different streams are ordered only within their stream (host code).
// Status: correct (no synchronization inside the kernel: each thread writes only its own
// element).
// Not ported: the host code around it (see kernels/README.md).
// Launch: data = 0, so sin + cos = 1 exactly; N = 3 leaves data[3] alone (the guard).
//
// Weak models: tso and gpu give exactly the same outcome (exhaustive): each thread reads and
// writes only its own element, and reads its own buffered store.
//
//@ launch grid=1 block=4
//@ arg data: float[4] = zeros
//@ arg N = 3
//@ observe data
//@ expect sc: exactly data[0]=1 data[1]=1 data[2]=1 data[3]=0
//@ expect tso,gpu: exactly data[0]=1 data[1]=1 data[2]=1 data[3]=0
//@ expect all: no diagnostics

__global__ void stream_processing_kernel(float* data, int N) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < N) {
        data[tid] = sin(data[tid]) + cos(data[tid]);
    }
}
