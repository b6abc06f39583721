// Random kernels with control flow, for the differential test of the bytecode engine against
// the AST walker (tests/bytecode_tests.cpp): two threads run one body of nested if, for, while,
// do and switch statements with break and continue, assignments and compound assignments to
// locals, globals and an array, increments, calls of a helper function, and expressions of
// every operator (conditionals, && and ||, casts, shifts, division that may divide by zero).
// Loops are bounded by counters the body never assigns, so every kernel ends (or faults). The
// same seed gives the same kernel on every machine.
#pragma once

#include "fencelab/explore/exploration.h"

#include <string>

namespace fencelab::testing {

class ProgramGenerator {
public:
  /** `stackless`: nothing runs on the AST (no switch), so that its threads run stackless
   *  (Machine::runs_stackless); it has __syncthreads() (some in divergent code), fences and
   *  atomics instead, and its helper reads and writes the globals and may have them too. */
  explicit ProgramGenerator(uint64_t seed, bool stackless = false) : m_random(seed), m_stackless(stackless) {}

  /** The kernel also takes `const int* in` (four elements, 0..3), whose elements its
   *  expressions read; in half of such kernels some statements also write them through a cast
   *  that drops the const (`((int*)in)[i] = ...`), which makes the buffer writable after all
   *  (the race detector's read-only buffers, tests/check_tests.cpp). Off, the kernels are those
   *  the seeds always gave. */
  ProgramGenerator& with_const_input() {
    m_const_input = true;
    m_casts_away_const = below(2) == 0;
    return *this;
  }

  std::string kernel() {
    std::string text = "//@ launch grid=1 block=2\n";
    if (m_const_input) text += "//@ arg in: int[4] = iota\n";
    text += "//@ arg out: int[4] = zeros\n"
            "//@ observe out[0] out[1] out[2] out[3] g0 g1\n"
            "__device__ int g0, g1 = 3;\n";
    m_in_helper = true;
    m_locals = 2;
    text += "__device__ int helper(int v0, int v1) {\n" + statements(2, 1) + "  return " + expr(2) + ";\n}\n";
    m_in_helper = false;
    m_locals = 3;
    text += std::string(m_const_input ? "__global__ void k(const int* in, int* out) {\n"
                                      : "__global__ void k(int* out) {\n") +
            "  int v0 = threadIdx.x, v1 = " + std::to_string(below(5)) +
            ", v2;\n  v2 = v0 + 1;\n" + statements(3, 1) + "}\n";
    return text;
  }

private:
  SplitMix64 m_random;
  bool m_stackless;
  bool m_in_helper = false;
  uint32_t m_locals = 0;
  uint32_t m_loops = 0; ///< loop counters declared so far (each loop has its own)
  uint32_t m_loop_depth = 0;
  bool m_in_switch = false;
  bool m_const_input = false;     ///< with_const_input
  bool m_casts_away_const = false; ///< with_const_input: some statements write `in` through a cast

  uint32_t below(uint32_t bound) { return m_random.below(bound); }
  std::string local() { return "v" + std::to_string(below(m_locals)); }
  std::string indent(uint32_t depth) { return std::string(2 * depth, ' '); }

  // The helper has no `out`; stackless, it reads and writes the globals, so that its threads
  // stop and resume inside the call.
  std::string lvalue() {
    if (m_casts_away_const && !m_in_helper && below(6) == 0) return "((int*)in)[(" + expr(1) + ") & 3]";
    switch (below(!m_in_helper ? 4 : m_stackless ? 3 : 2)) {
    case 0:
    case 1: return local();
    case 2: return below(2) ? "g0" : "g1";
    default: return "out[(" + expr(1) + ") & 3]";
    }
  }

  std::string expr(uint32_t depth) {
    if (depth == 0 || below(4) == 0) {
      if (m_const_input && !m_in_helper && below(4) == 0) return "in[(" + expr(0) + ") & 3]";
      switch (below(!m_in_helper ? 5 : m_stackless ? 4 : 3)) {
      case 0: return std::to_string(below(9));
      case 1:
      case 2: return local();
      case 3: return below(2) ? "g0" : "threadIdx.x";
      default: return "out[" + std::to_string(below(4)) + "]";
      }
    }
    static const char* const kBinary[] = {"+", "-", "*", "&", "|", "^", "<", "<=", "==", "!=", ">", ">=", "&&", "||"};
    switch (below(10)) {
    case 0: return "(" + expr(depth - 1) + " ? " + expr(depth - 1) + " : " + expr(depth - 1) + ")";
    case 1: return std::string(below(2) ? "-" : below(2) ? "!" : "~") + "(" + expr(depth - 1) + ")";
    case 2: return "(int)((unsigned)(" + expr(depth - 1) + ") >> (" + expr(depth - 1) + " & 7))";
    case 3: // now and then a division by zero: the engines must fault alike
      return "(" + expr(depth - 1) + (below(2) ? " / " : " % ") + "(" + expr(depth - 1) + (below(4) ? " | 1))" : "))");
    case 4:
      if (!m_in_helper) return "helper(" + expr(depth - 1) + ", " + expr(depth - 1) + ")";
      [[fallthrough]];
    default: return "(" + expr(depth - 1) + " " + kBinary[below(14)] + " " + expr(depth - 1) + ")";
    }
  }

  /** An atomic on a global (or, in the kernel, an element of `out`). */
  std::string atomic_call() {
    const std::string target = !m_in_helper && below(3) == 0 ? "&out[(" + expr(1) + ") & 3]" : below(2) ? "&g0" : "&g1";
    switch (below(4)) {
    case 0: return "atomicAdd(" + target + ", " + expr(1) + ")";
    case 1: return "atomicCAS(" + target + ", " + expr(1) + ", " + expr(1) + ")";
    case 2: return "atomicExch(" + target + ", " + expr(1) + ")";
    default: return "atomicXor(" + target + ", " + expr(1) + ")";
    }
  }

  std::string statements(uint32_t depth, uint32_t level) {
    std::string code;
    const uint32_t count = 1 + below(4);
    for (uint32_t i = 0; i < count; ++i) code += statement(depth, level);
    return code;
  }

  /** A loop's code from `make`: inside it `break` and `continue` are allowed, and a `break`
   *  leaves the loop, not a switch around it. */
  template <typename Make> std::string in_loop(Make make) {
    ++m_loop_depth;
    const bool saved = m_in_switch;
    m_in_switch = false;
    std::string code = make();
    m_in_switch = saved;
    --m_loop_depth;
    return code;
  }

  std::string block(uint32_t depth, uint32_t level) {
    return "{\n" + statements(depth - 1, level + 1) + indent(level) + "}\n";
  }

  std::string statement(uint32_t depth, uint32_t level) {
    const std::string in = indent(level);
    static const char* const kCompound[] = {"+=", "-=", "*=", "&=", "|=", "^="};
    const uint32_t kind = depth == 0 ? below(4) : below(11);
    switch (kind) {
    case 0: return in + lvalue() + " = " + expr(2) + ";\n";
    case 1: return in + lvalue() + " " + kCompound[below(6)] + " " + expr(2) + ";\n";
    case 2: return in + (below(2) ? lvalue() + (below(2) ? "++" : "--") : (below(2) ? "++" : "--") + lvalue()) + ";\n";
    case 3:
      if (m_loop_depth > 0 || m_in_switch) return in + "if (" + expr(1) + ") " + (below(2) || m_loop_depth == 0 ? "break" : "continue") + ";\n";
      return in + ";\n";
    case 4:
    case 5: {
      std::string code = in + "if (" + expr(2) + ") " + block(depth, level);
      if (below(2)) code.insert(code.size() - 1, " else " + block(depth, level));
      return code;
    }
    case 6: {
      const std::string i = "i" + std::to_string(m_loops++);
      return in_loop([&] {
        return in + "for (int " + i + " = 0; " + i + " < " + std::to_string(1 + below(3)) + "; " + i + "++) " +
               block(depth, level);
      });
    }
    case 7: {
      const std::string w = "w" + std::to_string(m_loops++);
      return in_loop([&] {
        if (below(2))
          return in + "int " + w + " = 0;\n" + in + "while (" + w + "++ < " + std::to_string(1 + below(3)) + ") " +
                 block(depth, level);
        std::string code = in + "int " + w + " = 0;\n" + in + "do " + block(depth, level);
        code.insert(code.size() - 1, " while (++" + w + " < " + std::to_string(1 + below(3)) + ");");
        return code;
      });
    }
    case 8: {
      if (m_stackless) {
        switch (below(4)) {
        case 0: return in + (m_in_helper && below(2) ? ";\n" : "__syncthreads();\n");
        case 1: return in + (below(2) ? "__threadfence();\n" : "__threadfence_block();\n");
        case 2: return in + atomic_call() + ";\n";
        default: return in + local() + " = " + atomic_call() + ";\n";
        }
      }
      const bool saved = m_in_switch;
      m_in_switch = true;
      std::string code = in + "switch ((" + expr(1) + ") & 3) {\n";
      for (uint32_t c = 0; c < 3; ++c) {
        code += in + (c == 2 ? "default: {\n" : "case " + std::to_string(c) + ": {\n") + statements(depth - 1, level + 1);
        if (below(2)) code += in + "  break;\n";
        code += in + "}\n";
      }
      code += in + "}\n";
      m_in_switch = saved;
      return code;
    }
    case 9:
      if (!m_in_helper) return in + local() + " = helper(" + expr(1) + ", " + expr(1) + ");\n";
      return in + local() + " = " + expr(1) + ";\n";
    default: return in + "{\n" + statements(depth - 1, level + 1) + in + "}\n";
    }
  }
};

} // namespace fencelab::testing
