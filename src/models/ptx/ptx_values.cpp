// Values by demand: a register's value is that of the last instruction of its thread before the
// use that writes it (else its initial value); a read's value is its write's. Evaluation follows
// data dependencies and reads-from backwards; meeting an instruction being evaluated is a cycle
// of rf | dep, which the PTX ISA's axiom "No Thin Air" forbids.
#include "ptx_values.h"

namespace fencelab::ptx {

using litmus::PtxInstruction;
using litmus::PtxInstructionKind;
using litmus::PtxOperand;
using litmus::PtxOperation;

namespace {

struct Cycle {};

/** The arithmetic of atom, red and the local instructions; division by zero gives 0. */
int64_t apply(PtxOperation operation, int64_t old_value, int64_t operand) {
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  uint64_t a = static_cast<uint64_t>(old_value), b = static_cast<uint64_t>(operand);
  switch (operation) {
  case PtxOperation::add: return wrap(a + b);
  case PtxOperation::sub: return wrap(a - b);
  case PtxOperation::mul: return wrap(a * b);
  case PtxOperation::div: return operand == 0 || (old_value == INT64_MIN && operand == -1) ? 0 : old_value / operand;
  case PtxOperation::bit_and: return wrap(a & b);
  case PtxOperation::bit_or: return wrap(a | b);
  case PtxOperation::bit_xor: return wrap(a ^ b);
  case PtxOperation::exch:
  case PtxOperation::move: return operand;
  case PtxOperation::cas:
  case PtxOperation::none: return operand;
  }
  return operand;
}

bool compare(litmus::PtxComparison comparison, int64_t a, int64_t b) {
  switch (comparison) {
  case litmus::PtxComparison::equal: return a == b;
  case litmus::PtxComparison::not_equal: return a != b;
  case litmus::PtxComparison::less: return a < b;
  case litmus::PtxComparison::greater: return a > b;
  case litmus::PtxComparison::less_equal: return a <= b;
  case litmus::PtxComparison::greater_equal: return a >= b;
  }
  return false;
}

class Evaluator {
public:
  Evaluator(const litmus::PtxTest& test, const Graph& graph, const std::vector<int>& reads_from)
      : m_test(test), m_graph(graph), m_reads_from(reads_from) {
    for (const auto& thread : test.threads) {
      m_state.emplace_back(thread.instructions.size(), State::unknown);
      m_result.emplace_back(thread.instructions.size(), 0);
      m_depends_on.emplace_back(thread.instructions.size(), 0);
    }
  }

  /** The reads whose reads-from choices the values computed since the last call depend on
   *  (directly or through the writes they read); resets the record. */
  EventSet take_touched() {
    EventSet touched = m_touched;
    m_touched = 0;
    return touched;
  }

  /** The value instruction i of thread t puts in its destination register (a read's value). */
  int64_t result(int t, int i) {
    if (m_state[t][i] == State::done) {
      m_touched |= m_depends_on[t][i];
      return m_result[t][i];
    }
    if (m_state[t][i] == State::busy) throw Cycle{};
    m_state[t][i] = State::busy;
    EventSet outer = take_touched();
    const PtxInstruction& instruction = m_test.threads[t].instructions[i];
    int64_t value = 0;
    if (instruction.kind == PtxInstructionKind::local) {
      int64_t first = operand(t, i, instruction.operands[0]);
      value = instruction.operation == PtxOperation::move ? first
                                                           : apply(instruction.operation, first, operand(t, i, instruction.operands[1]));
    } else {
      value = read_value(m_graph.read_of[t][i]);
      m_touched |= EventSet{1} << m_graph.read_of[t][i];
    }
    m_state[t][i] = State::done;
    m_result[t][i] = value;
    m_depends_on[t][i] = m_touched;
    m_touched |= outer;
    return value;
  }

  int64_t read_value(int read) {
    int source = m_reads_from[read];
    return write_value(source);
  }

  /** The value write event w writes. */
  int64_t write_value(int w) {
    const Event& event = m_graph.events[w];
    if (event.kind == EventKind::init) {
      auto found = m_test.initial_memory.find(m_graph.locations[event.location]);
      return found == m_test.initial_memory.end() ? 0 : found->second;
    }
    const PtxInstruction& instruction = m_test.threads[event.thread].instructions[event.instruction];
    if (instruction.kind == PtxInstructionKind::store) return operand(event.thread, event.instruction, instruction.operands[0]);
    int64_t old_value = result(event.thread, event.instruction);
    if (instruction.operation == PtxOperation::cas) return operand(event.thread, event.instruction, instruction.operands[1]);
    return apply(instruction.operation, old_value, operand(event.thread, event.instruction, instruction.operands[0]));
  }

  /** An operand's value at instruction i of thread t. */
  int64_t operand(int t, int i, const PtxOperand& value) {
    if (!value.register_name) return value.constant;
    return register_before(t, i, *value.register_name);
  }

  int64_t register_before(int t, int i, const std::string& name) {
    const auto& instructions = m_test.threads[t].instructions;
    for (int j = i - 1; j >= 0; --j)
      if (instructions[j].destination == name) return result(t, j);
    auto found = m_test.initial_registers.find({t, name});
    return found == m_test.initial_registers.end() ? 0 : found->second;
  }

private:
  enum class State { unknown, busy, done };
  const litmus::PtxTest& m_test;
  const Graph& m_graph;
  const std::vector<int>& m_reads_from;
  std::vector<std::vector<State>> m_state;
  std::vector<std::vector<int64_t>> m_result;
  std::vector<std::vector<EventSet>> m_depends_on;  ///< per instruction: the reads its value depends on
  EventSet m_touched = 0;
};

} // namespace

std::optional<Values> evaluate(const litmus::PtxTest& test, const Graph& graph, const std::vector<int>& reads_from,
                               const std::vector<bool>& cas_succeeds, EventSet* failed_on) {
  if (failed_on) *failed_on = ~EventSet{0};
  Evaluator evaluator(test, graph, reads_from);
  Values values;
  values.of_event.assign(graph.size, 0);
  values.barrier_id.assign(graph.size, 0);
  values.barrier_count.assign(graph.size, -1);
  try {
    for (int e = 0; e < graph.size; ++e) {
      const Event& event = graph.events[e];
      if (event.kind == EventKind::read) values.of_event[e] = evaluator.read_value(e);
      if (event.kind == EventKind::write || event.kind == EventKind::init) values.of_event[e] = evaluator.write_value(e);
      if (event.kind == EventKind::barrier) {
        const PtxInstruction& bar = test.threads[event.thread].instructions[event.instruction];
        values.barrier_id[e] = evaluator.operand(event.thread, event.instruction, bar.barrier_id);
        if (bar.barrier_count) values.barrier_count[e] = evaluator.operand(event.thread, event.instruction, *bar.barrier_count);
      }
    }
    // A cas writes exactly when the value it reads equals its compare operand (PTX ISA, atom).
    size_t cas_index = 0;
    for (int t = 0; t < static_cast<int>(test.threads.size()); ++t) {
      const auto& instructions = test.threads[t].instructions;
      for (int i = 0; i < static_cast<int>(instructions.size()); ++i) {
        if (instructions[i].kind == PtxInstructionKind::assume) {
          // A path's branch: taken exactly when its operands compare true (PTX ISA, "bra" with
          // a predicate; herd7's beq/bne/... forms).
          evaluator.take_touched();
          int64_t a = evaluator.operand(t, i, instructions[i].operands[0]);
          int64_t b = evaluator.operand(t, i, instructions[i].operands[1]);
          if (compare(instructions[i].comparison, a, b) != instructions[i].assume_taken) {
            if (failed_on) *failed_on = evaluator.take_touched();
            return std::nullopt;
          }
          continue;
        }
        if (instructions[i].kind != PtxInstructionKind::atom || instructions[i].operation != PtxOperation::cas) continue;
        evaluator.take_touched();
        bool succeeds = evaluator.result(t, i) == evaluator.operand(t, i, instructions[i].operands[0]);
        if (succeeds != cas_succeeds.at(cas_index++)) {
          if (failed_on) *failed_on = evaluator.take_touched();
          return std::nullopt;
        }
      }
      values.final_registers.emplace_back();
      for (int i = 0; i < static_cast<int>(instructions.size()); ++i)
        if (!instructions[i].destination.empty()) values.final_registers[t][instructions[i].destination] = evaluator.result(t, i);
    }
  } catch (const Cycle&) {
    return std::nullopt;
  }
  return values;
}

} // namespace fencelab::ptx
