// diverged_warp: one warp takes both sides of a branch on the lane index, then runs on together.
//
// For the gallery (docs/gallery.md): the warp-lanes picture under --warp lockstep and --warp its.
// Programming Guide 4.1 (SIMT architecture): before Volta, a warp that diverges runs each path
// with the other lanes masked off, one path after the other, and reconverges after the branch;
// with Independent Thread Scheduling (Volta and later) the lanes are independent threads and
// need not run together at all.
//@ launch grid=1 block=32
//@ observe out[0] out[8]
//@ expect all: always out[0] == 3 && out[8] == 3

__device__ int out[32];

__global__ void diverged_warp() {
  if (threadIdx.x < 8) out[threadIdx.x] = 1;
  else out[threadIdx.x] = 2;
  out[threadIdx.x] = 3;
}
