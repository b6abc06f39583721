// Benchmark kernel: a large grid of independent threads, each making a few global accesses.
// Used by tools/bench for thread events per second and peak memory; not part of the catalogue.
//@ launch grid=512 block=256
//@ arg in: int[131072] = iota
//@ arg out: int[131072] = zeros
//@ observe out[0] out[131071]
//@ expect all: always out[131071] == 262142
__global__ void scale(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int k = 0; k < 4; k++) out[i] = v + v;
}
