// An independent reference of fencelab's three memory models, for tests: every final outcome a
// litmus program (litmus_program.h) can reach under sc, tso or gpu, by explicit-state
// depth-first search with a set of visited states. It implements the models as DESIGN.md
// ("Memory models") states them, with the decisions docs/architecture.md ("The memory models")
// records, and shares no code with fencelab's Machine, models or explorers: a Machine bug
// that the partial-order reduction and the plain search share shows up against it.
//
// A step is one operation of one thread, a barrier arrival, one drain of a buffered store, or
// a barrier release, the last a step of its own once every participant has arrived; every
// interleaving of steps is explored. The rules are written out above the code that applies
// them, in reference_model.cpp.
#pragma once

#include "litmus_program.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace fencelab::testing {

enum class ReferenceModel : uint8_t { Sc, Tso, Gpu };

/** "sc", "tso", "gpu"; nullopt for any other name. */
std::optional<ReferenceModel> reference_model_named(const std::string& name);

struct ReferenceResult {
  bool complete = false; ///< false when the state limit stopped the search
  uint64_t states = 0;   ///< distinct states visited
  /** outcome_text of each final state reached ("x=1 y=0 r0=2"), and "deadlock" when some
   *  state has unfinished threads and no step (a program litmus_program.h's rules exclude). */
  std::set<std::string> outcomes;
};

/** Every outcome of `program` under `model`, within `max_states` distinct states. */
ReferenceResult explore_reference(const LitmusProgram& program, ReferenceModel model, uint64_t max_states = 1'000'000);

} // namespace fencelab::testing
