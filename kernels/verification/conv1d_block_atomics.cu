// A 1D convolution (3 taps) whose blocks accumulate into a shared output with
// atomicAdd_block, after GPUMC's convolution benchmark (block-scoped atomics).
// Source: fencelab's own version of the classic verification kernel (issue 11, scale).
// The input is all ones, computed rather than loaded to keep the search about the atomics.
// Teaches: atomicAdd_block is atomic only among the threads of one block (PTX ISA, scope
// .cta). Each thread adds its input times each tap into out[i-1], out[i], out[i+1]; at a
// block's edge the neighbouring block adds into the same element, so two blocks' block-scoped
// atomics meet: a scoped race, which is the report. (This model performs atomics atomically
// whatever their scope, so the sums come out right here; on hardware they may not.)
// atomicAdd (device scope) fixes it.
// Scale: tools/bench/reduction runs it at 2 x 2, 4 x 2, 6 x 4 and 30 x 4 with --grid/--block.
//@ launch grid=2 block=2
//@ arg out: int[130] = zeros
//@ observe out[1] out[2] out[3]
//@ expect all: always out[1] == 3 && out[2] == 6 && out[3] == 6
//@ expect all: diagnostic scoped-race

__global__ void conv1d_block_atomics(int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = 1; // every input is 1, so out[i + 1] is the sum of the taps that reach it
    // out has one element of padding on each side: out[i + 1] is position i.
    atomicAdd_block(&out[i], v * 1);
    atomicAdd_block(&out[i + 1], v * 2);
    atomicAdd_block(&out[i + 2], v * 3);
}
