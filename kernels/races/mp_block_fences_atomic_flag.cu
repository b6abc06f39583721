// Message passing between two blocks with block-scope fences and an atomic flag: a scoped race.
//
// Source: fencelab (the pattern of [002] Programming Guide 10.5, with the fence scope too narrow).
// Teaches: __threadfence_block() orders a thread's accesses only as seen by threads of its own
// block ("If thread 1 and 2 do not belong to the same block, __threadfence() must be used",
// Programming Guide 10.5). Block 1 waits for the flag, which is fine (atomics), but its read of
// `data` is not ordered after block 0's write: the synchronization exists and its scope is too
// narrow. Under gpu the reader can see data=0 after seeing the flag.
// Status: BUGGY (scoped race). The fix is mp_device_fences_atomic_flag.cu.
//
//@ launch grid=2 block=1
//@ observe k.r1
//@ expect sc,tso: exactly r1=1
//@ expect gpu: exactly r1=0 | r1=1
//@ expect all: diagnostic scoped-race
__device__ int data = 0;
__device__ int flag = 0;

__global__ void k() {
  if (blockIdx.x == 0) {
    data = 1;
    __threadfence_block();
    atomicExch(&flag, 1);
  } else {
    while (atomicAdd(&flag, 0) == 0) { }
    __threadfence_block();
    int r1 = data;
  }
}
