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
 *  `extra` locals besides `data`, `tid`, `n` and `stride` (each 1, summed back out), so that a
 *  thread has 4 + `extra` slots; a __syncthreads_count whose result every thread keeps, and a
 *  loop of barriers without divergence. One buffer holds the input (elements 0..1023) and the
 *  results (1024..1031), so that the parameters take one slot. */
std::string reduction_with_locals(int extra) {
  std::string declare, sum;
  for (int i = 0; i < extra; ++i) {
    declare += fmt::format(" int x{} = 1;", i);
    sum += fmt::format(" + x{} - 1", i);
  }
  return fmt::format(R"(
//@ launch grid=4 block=256
//@ arg data: int[1032] = iota
//@ observe data[1024] data[1027] data[1028] data[1031]
__global__ void k(int* data) {{
  __shared__ int s[256];
  int tid = threadIdx.x;{}
  s[tid] = data[blockIdx.x * 256 + tid]{};
  int n = __syncthreads_count(tid % 3 == 0);
  for (int stride = 128; stride > 0; stride >>= 1) {{
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }}
  if (tid == 0) {{ data[1024 + blockIdx.x] = s[0]; data[1028 + blockIdx.x] = n; }}
}}
)",
                     declare, sum);
}

} // namespace

TEST_CASE("block reductions give their one outcome whether a thread's slots fit in place or not",
          "[machine][slots][barrier]") {
  // Block b sums 256b .. 256b + 255: 65536b + 32640. Of the threads 0..255, 86 have tid % 3 == 0.
  const std::set<std::string> expected{"data[1024]=32640 data[1027]=229248 data[1028]=86 data[1031]=86"};
  for (const int extra : {0, 1, 5}) { // 4, 5 and 9 slots: in place (the place full), one spilled, five
    Kernel k = kernel_from_text(reduction_with_locals(extra));
    REQUIRE(k.program().launch.kernel->frame_slots == SlotBuffer::kInline + uint32_t(extra));
    for (const char* model_name : {"sc", "tso", "gpu"}) {
      INFO(extra << " extra locals under " << model_name);
      auto model = create_model(model_name);
      const auto r = explore_random(*k.machine, *model, RandomOptions{4, 5});
      CHECK(outcome_strings(k.program(), r) == expected);
    }
  }
}
