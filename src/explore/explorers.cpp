// The exhaustive explorers and replay (the random one is random_search.cpp). Each is a
// ChoiceSource answering the Machine's decisions, plus a loop collecting outcomes. Every
// execution's decisions are recorded, so every outcome has a witness token that `replay`
// reproduces exactly.
#include "fencelab/explore/exploration.h"

#include "dpor.h"
#include "outcome_table.h"
#include "fencelab/explore/search_control.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace fencelab {

namespace {

/**
 * Depth-first search over decision sequences: replays the current prefix, extends it with
 * first options, and after each execution advances the deepest decision that has an untried
 * option (stateless model checking with re-execution, as in Godefroid's VeriSoft).
 */
class DepthFirstChoices final : public InterruptibleChoices {
public:
  /** Why the search cannot go on: never (the plain search keeps no per-execution analysis). */
  const std::string& stop_reason() const {
    static const std::string none;
    return none;
  }
  uint32_t choose(uint32_t options, ChoiceKind, uint32_t) override {
    if (m_position < m_stack.size()) {
      Decision& d = m_stack[m_position++];
      // A deterministic Machine offers the same options at the same point of the same prefix.
      d.options = options;
      return std::min(d.chosen, options - 1);
    }
    m_stack.push_back(Decision{0, options});
    ++m_position;
    return 0;
  }
  void start_execution() { m_position = 0; }
  void finish_execution(const ExecutionResult&) {}
  bool abandoned() const { return false; } // every sequence is explored, none is a repeat
  std::vector<uint32_t> taken() const {
    std::vector<uint32_t> out;
    out.reserve(m_stack.size());
    for (const Decision& d : m_stack) out.push_back(d.chosen);
    return out;
  }
  /** Moves to the next unexplored sequence; false when the tree is exhausted. */
  bool advance() {
    m_stack.resize(m_position);
    while (!m_stack.empty() && m_stack.back().chosen + 1 >= m_stack.back().options) m_stack.pop_back();
    if (m_stack.empty()) return false;
    ++m_stack.back().chosen;
    return true;
  }

private:
  struct Decision {
    uint32_t chosen;
    uint32_t options;
  };
  std::vector<Decision> m_stack;
  size_t m_position = 0;
};

class ReplayChoices final : public InterruptibleChoices {
public:
  ReplayChoices(const std::vector<uint32_t>& choices, bool awaits) : m_choices(choices), m_awaits(awaits) {}
  bool awaits_spins() const override { return m_awaits; }
  /** A token that no longer fits ends the execution at once (running on, a barrier loop's
   *  replay took as long as the loop, for nothing); so does the control's stop. */
  bool interrupted() override { return !m_error.empty() || InterruptibleChoices::interrupted(); }
  uint32_t choose(uint32_t options, ChoiceKind kind, uint32_t) override {
    if (m_position >= m_choices.size()) {
      if (m_error.empty())
        m_error = "the token ends before the execution does: it was made for another kernel or options";
      return 0;
    }
    const uint32_t c = m_choices[m_position++];
    if (c >= options) {
      if (m_error.empty())
        m_error = "the token's decision " + std::to_string(m_position) + " (" + choice_kind_name(kind) +
                  ") has only " + std::to_string(options) +
                  " options here: it was made for another kernel or options";
      return 0;
    }
    return c;
  }
  const std::string& error() const { return m_error; }
  bool used_all() const { return m_position == m_choices.size(); }

private:
  const std::vector<uint32_t>& m_choices;
  bool m_awaits = false;
  size_t m_position = 0;
  std::string m_error;
};


} // namespace

namespace {

/**
 * The exhaustive loop, for either search: the plain depth-first search (DepthFirstChoices,
 * every distinct decision sequence) or source-DPOR (DporChoices, dpor.h: one execution per
 * class of equivalent orders, and some abandoned part-way because they could only repeat
 * explored ones). --max-executions counts both kinds, as both take time.
 */
template <typename Choices>
void explore_depth_first(Machine& machine, MemoryModel& model, const ExhaustiveOptions& options,
                         OutcomeTable& table, ExplorationResult& result) {
  Choices choices;
  choices.interrupt_on(options.control);
  bool more = true;
  while (more && result.executions + result.abandoned < options.max_executions) {
    if (options.control && options.control->should_stop(result, choices.taken().size())) break;
    choices.start_execution();
    const ExecutionResult& execution = machine.run(model, choices, options.checkers);
    if (!choices.interrupted_because().empty()) { // cut off inside: unfinished, not analysed
      if (options.checkers) options.checkers->discard_execution();
      result.stopped_because = choices.interrupted_because();
      break;
    }
    choices.finish_execution(execution);
    if (choices.abandoned()) {
      if (options.checkers) options.checkers->discard_execution(); // a repeat of explored executions
      if (choices.stop_reason().empty()) ++result.abandoned; // else cut off by the limit below
    } else {
      const auto witness = [&] {
        ReplayToken token{result.model, choices.taken()};
        token.awaits = execution.awaits_released; // replayed with spins awaited, as run
        return token;
      };
      table.add(execution, witness);
      if (options.checkers) table.add_reports(options.checkers->catalogue(), witness);
      if (execution.awaits_released) ++result.awaits_released;
      result.events += execution.events;
      ++result.executions;
    }
    // The reduction could not analyse the execution (too long for its memory): the search
    // ends here, cut short, with what it found.
    if (!choices.stop_reason().empty()) {
      result.stopped_because = choices.stop_reason();
      result.reduction_gave_up = true;
      more = true;
      break;
    }
    more = choices.advance();
  }
  result.complete = !more;
}

} // namespace

ExplorationResult explore_exhaustive(Machine& machine, MemoryModel& model,
                                     const ExhaustiveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ExplorationResult result;
  result.mode = ExplorationMode::Exhaustive;
  result.model = mode_name(model.name(), machine.options().warp); // "gpu", "gpu.lockstep"
  OutcomeTable table;
  if (options.checkers) options.checkers->start_search();
  // Lockstep schedules warps, whose steps the reduction does not describe: searched in full.
  const bool dpor = options.reduction == Reduction::Dpor && machine.options().warp != WarpMode::Lockstep;
  result.reduction = dpor ? "dpor" : "none";
  if (dpor) explore_depth_first<DporChoices>(machine, model, options, table, result);
  else explore_depth_first<DepthFirstChoices>(machine, model, options, table, result);
  result.outcomes = table.take();
  result.reports = table.take_reports();
  result.checked = options.checkers != nullptr;
  result.seconds = seconds_since(start);
  machine.release_fiber_stacks(); // the next search (another model's) maps its own
  return result;
}

std::optional<ExecutionResult> replay(Machine& machine, MemoryModel& model, const ReplayToken& token,
                                      EventObserver* observer, ReplayError& error, const SearchControl* control) {
  const std::string running = mode_name(model.name(), machine.options().warp);
  if (token.model != running) {
    error.message = fmt::format("the token was made under model '{}', not '{}'", token.model, running);
    return std::nullopt;
  }
  ReplayChoices choices(token.choices, token.awaits);
  if (control != nullptr) choices.interrupt_on(control);
  ExecutionResult execution = machine.run(model, choices, observer);
  if (!choices.error().empty()) {
    error.message = choices.error();
    return std::nullopt;
  }
  if (!choices.interrupted_because().empty()) {
    error.message = "stopped: " + choices.interrupted_because();
    error.stopped = true;
    return std::nullopt;
  }
  if (!choices.used_all()) {
    error.message = "the execution ended before the token did: it was made for another kernel or options";
    return std::nullopt;
  }
  return execution;
}

ExplorationResult explore_checked(Machine& machine, MemoryModel& model, Checkers& checkers, const CheckBudget& budget) {
  ExplorationResult result =
      explore_exhaustive(machine, model, ExhaustiveOptions{budget.max_executions, &checkers, budget.control, budget.reduction});
  if (result.complete || (!result.stopped_because.empty() && !result.reduction_gave_up)) return result;
  // Too many executions to visit all, or one too long for the reduction: sample instead, with
  // the same checkers.
  ExplorationResult sampled =
      explore_random(machine, model, RandomOptions{budget.runs, budget.seed, 0.5, &checkers, budget.control, budget.jobs});
  if (result.reduction_gave_up) sampled.exhaustive_stopped_because = result.stopped_because;
  else sampled.exhaustive_cut_short_at = result.executions + result.abandoned;
  return sampled;
}

} // namespace fencelab
