// Message passing between two blocks with device-scope fences and an atomic flag: correct.
//
// Source: fencelab (the fixed form of mp_block_fences_atomic_flag.cu; [002] Programming Guide 10.5).
// Teaches: __threadfence() in the writer (between the data and the flag) and in the reader
// (between the flag and the data) orders the data after the flag for threads of different
// blocks; the atomic flag itself does not race. No diagnostic, and r1 is always 1.
// Status: correct.
//
//@ launch grid=2 block=1
//@ observe k.r1
//@ expect all: exactly r1=1
//@ expect all: no diagnostics
__device__ int data = 0;
__device__ int flag = 0;

__global__ void k() {
  if (blockIdx.x == 0) {
    data = 1;
    __threadfence();
    atomicExch(&flag, 1);
  } else {
    while (atomicAdd(&flag, 0) == 0) { }
    __threadfence();
    int r1 = data;
  }
}
