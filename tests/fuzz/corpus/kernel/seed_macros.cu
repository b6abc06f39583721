#define IDX(i, j) ((i) * N + (j))
#define N 4
#define SQ(x) ((x) * (x))
#define CHECK(call) do { if ((call) != 0) { printf("failed: %s\n", #call); } } while (0)
#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define UNUSED(a, b) a b
//@ launch grid=1 block=2
//@ observe out
__device__ int out[8];
__global__ void k() {
  int t = threadIdx.x;
  out[IDX(1, t)] = SQ(t + 1);
  CHECK(t - t);
  LOG("%d %d\n", t, SQ(SQ(2)));
}
