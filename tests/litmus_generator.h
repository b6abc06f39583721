// Random litmus kernels for differential tests of the exhaustive explorer's reduction: 2 to 4
// threads in 1 or 2 blocks, 1 to 3 locations, loads, stores, atomics (device and block scope),
// fences of each scope and __syncthreads, with results in registers (observed locals) and in
// __device__ variables. The same seed gives the same kernel on every machine.
// The Updates flavour adds atomics whose result is discarded (`atomicAdd(&x, 2);`), most of
// them updates the reduction treats as commuting (AtomicUpdate::commuting_kind), some not
// (a zero operand, atomicOr), among the same loads, stores and fences.
// The Waits flavour adds spin loops (`while (x0 != 2) { }`, a CAS lock taken and released,
// waits by atomic reads): spin recognition, wake-ups and deadlocks under the reduction; a wait
// no store satisfies ends as a deadlock.
#pragma once

#include "fencelab/explore/exploration.h"

#include <string>
#include <vector>

namespace fencelab::testing {

enum class LitmusFlavour { Classic, Updates, Waits };

inline std::string generate_litmus_kernel(uint64_t seed, LitmusFlavour flavour = LitmusFlavour::Classic) {
  SplitMix64 random(seed);
  struct Shape {
    uint32_t blocks, per_block;
  };
  static constexpr Shape kShapes[] = {{1, 2}, {1, 3}, {1, 4}, {2, 1}, {2, 2}};
  const Shape shape = kShapes[random.below(5)];
  const uint32_t threads = shape.blocks * shape.per_block;
  const uint32_t locations = 1 + random.below(3);
  const bool barrier = random.below(4) == 0;
  const bool outputs_in_memory = random.below(2) == 0;

  std::string body;
  std::vector<std::string> observed;
  uint32_t results = 0;
  auto location = [&] { return "x" + std::to_string(random.below(locations)); };
  auto phase = [&](uint32_t thread, uint32_t ops) {
    std::string code;
    for (uint32_t op = 0; op < ops; ++op) {
      const std::string r = "r" + std::to_string(results);
      auto result = [&](const std::string& expr) {
        ++results;
        if (outputs_in_memory) return "    out[" + std::to_string(results - 1) + "] = " + expr + ";\n";
        observed.push_back("k." + r);
        return "    int " + r + " = " + expr + ";\n";
      };
      const uint32_t kind = random.below(flavour == LitmusFlavour::Classic ? 10 : 14);
      if (kind >= 10 && flavour == LitmusFlavour::Waits) {
        const std::string x = location();
        const std::string value = std::to_string(random.below(threads + 1));
        switch (kind) {
        case 10: code += "    while (" + x + " != " + value + ") { }\n"; break;
        case 11: code += "    while (atomicCAS(&" + x + ", 0, " + std::to_string(1 + thread) + ") != 0) { }\n"; break;
        case 12: code += "    atomicExch(&" + x + ", 0);\n"; break;
        default: code += "    while (atomicAdd(&" + x + ", 0) == " + value + ") { }\n"; break;
        }
        continue;
      }
      if (kind >= 10) {
        static const char* kUpdates[] = {"atomicAdd(&{}, {})", "atomicAdd_block(&{}, 2)", "atomicSub(&{}, 1)",
                                          "atomicXor(&{}, {})", "atomicAdd(&{}, 0)", "atomicOr(&{}, 1)"};
        std::string update = kUpdates[random.below(6)];
        update.replace(update.find("{}"), 2, location());
        if (const size_t at = update.find("{}"); at != std::string::npos) update.replace(at, 2, std::to_string(1 + thread));
        code += "    " + update + ";\n";
        continue;
      }
      switch (kind) {
      case 0:
      case 1:
      case 2: code += "    " + location() + " = " + std::to_string(1 + thread) + ";\n"; break;
      case 3:
      case 4:
      case 5: code += result(location()); break;
      case 6: code += result("atomicAdd(&" + location() + ", 1)"); break;
      case 7: code += result("atomicExch_block(&" + location() + ", " + std::to_string(5 + thread) + ")"); break;
      case 8: code += result("atomicCAS(&" + location() + ", 0, " + std::to_string(7 + thread) + ")"); break;
      default: {
        static const char* kFences[] = {"__threadfence_block()", "__threadfence()", "__threadfence_system()"};
        code += std::string("    ") + kFences[random.below(3)] + ";\n";
      }
      }
    }
    return code;
  };
  for (int part = 0; part < (barrier ? 2 : 1); ++part) {
    if (part == 1) body += "  __syncthreads();\n";
    for (uint32_t t = 0; t < threads; ++t) {
      const std::string code = phase(t, 1 + random.below(part == 0 ? 3 : 2));
      body += "  if (tid == " + std::to_string(t) + ") {\n" + code + "  }\n";
    }
  }

  std::string text = "//@ launch grid=" + std::to_string(shape.blocks) + " block=" + std::to_string(shape.per_block) + "\n";
  for (uint32_t l = 0; l < locations; ++l) text += "__device__ int x" + std::to_string(l) + ";\n";
  std::string observe = "//@ observe";
  for (uint32_t l = 0; l < locations; ++l) observe += " x" + std::to_string(l);
  if (outputs_in_memory && results > 0) {
    text += "__device__ int out[" + std::to_string(results) + "];\n";
    observe += " out";
  }
  for (const std::string& o : observed) observe += " " + o;
  text += observe + "\n";
  text += "__global__ void k() {\n  int tid = blockIdx.x * blockDim.x + threadIdx.x;\n" + body + "}\n";
  return text;
}

} // namespace fencelab::testing
