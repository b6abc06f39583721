// A thread's slots, the first few in place (src/machine/slot_buffer.h), and the barrier release
// that reads its participants only at their resumptions (src/machine/barriers.cpp): the buffer's
// own rules, then block reductions whose threads keep their slots in place or spill them to the
// heap, on a grid large enough for the Machine to prefetch its resumptions.
#include "fencelab/machine/memory_model.h"
#include "machine/slot_buffer.h"
#include "machine_helpers.h"

#include <fmt/format.h>

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("a slot buffer keeps its first words in place and moves them all to the heap past them", "[machine][slots]") {
  SlotBuffer slots;
  CHECK(slots.empty());
  for (Word w = 0; w < SlotBuffer::kInline; ++w) slots.push_back(10 + w);
  CHECK_FALSE(slots.on_heap());
  REQUIRE(slots.size() == SlotBuffer::kInline);
  slots.push_back(99); // one past the place inside: all of them move
  CHECK(slots.on_heap());
  REQUIRE(slots.size() == SlotBuffer::kInline + 1);
  for (Word w = 0; w < SlotBuffer::kInline; ++w) CHECK(slots[w] == 10 + w);
  CHECK(slots[SlotBuffer::kInline] == 99);
  // A frame's return shrinks them; a call's frame grows them again with zeros.
  slots[1] = 7;
  slots.resize(2);
  slots.resize(6);
  CHECK(std::vector<Word>(slots.begin(), slots.end()) == std::vector<Word>{10, 7, 0, 0, 0, 0});
  // The next thread in the slot starts empty, on the heap memory kept.
  slots.clear();
  CHECK(slots.empty());
  CHECK(slots.on_heap());
  for (Word w = 0; w < 40; ++w) slots.push_back(w * w);
  for (Word w = 0; w < 40; ++w) CHECK(slots[w] == w * w);
}

namespace {

/** A block reduction of 4 x 256 threads (enough for the Machine to prefetch resumptions) with
 *  `extra` locals besides `tid` and `stride` (each 1, summed back out), a __syncthreads_count
 *  whose result every thread keeps, and a divergent-free loop of barriers. */
std::string reduction_with_locals(int extra) {
  std::string declare, sum;
  for (int i = 0; i < extra; ++i) {
    declare += fmt::format(" int x{} = 1;", i);
    sum += fmt::format(" + x{} - 1", i);
  }
  return fmt::format(R"(
//@ launch grid=4 block=256
//@ arg in: int[1024] = iota
//@ arg out: int[4] = zeros
//@ arg counts: int[4] = zeros
//@ observe out[0] out[3] counts[0] counts[3]
__global__ void k(const int* in, int* out, int* counts) {{
  __shared__ int s[256];
  int tid = threadIdx.x;{}
  s[tid] = in[blockIdx.x * 256 + tid]{};
  int n = __syncthreads_count(tid % 3 == 0);
  for (int stride = 128; stride > 0; stride >>= 1) {{
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }}
  if (tid == 0) {{ out[blockIdx.x] = s[0]; counts[blockIdx.x] = n; }}
}}
)",
                     declare, sum);
}

} // namespace

TEST_CASE("block reductions give their one outcome whether a thread's slots fit in place or not",
          "[machine][slots][barrier]") {
  // Block b sums 256b .. 256b + 255: 65536b + 32640. Of the threads 0..255, 86 have tid % 3 == 0.
  const std::set<std::string> expected{"out[0]=32640 out[3]=229248 counts[0]=86 counts[3]=86"};
  for (const int extra : {0, 2, 6}) { // 2, 4 and 8 locals: in place, full, spilled
    Kernel k = kernel_from_text(reduction_with_locals(extra));
    for (const char* model_name : {"sc", "tso", "gpu"}) {
      INFO(extra << " extra locals under " << model_name);
      auto model = create_model(model_name);
      const auto r = explore_random(*k.machine, *model, RandomOptions{4, 5});
      CHECK(outcome_strings(k.program(), r) == expected);
    }
  }
}
