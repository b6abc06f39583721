// From a witness token to its pictures: replays the execution with a trace recorder and hands
// the events to the draw layer's models and renderers. Shared by `draw`, `explain --svg`,
// `check --svg` and `report`.
#pragma once

#include "fencelab/draw/explanation.h"
#include "fencelab/explore/replay_token.h"
#include "fencelab/machine/machine.h"
#include "fencelab/program/program.h"

#include <optional>
#include <string>
#include <vector>

namespace fencelab {

class SearchControl; // explore/search_control.h

/** One replayed execution, with everything the pictures need. */
struct RecordedWitness {
  std::string model;  ///< "gpu" for a "gpu.lockstep:..." token
  WarpMode warp = WarpMode::Its;
  std::string token;  ///< as displayed (ReplayToken::display)
  std::vector<Event> events; ///< the first `WitnessRecording::max_events` of them
  uint64_t events_left_out = 0; ///< past that limit: the pictures show a prefix
  ExecutionResult execution;
};

/** How a witness is recorded: at most `max_events` events kept (0: TraceRecorder's default),
 *  and a `control` whose time limit or signal ends the replay. */
struct WitnessRecording {
  uint64_t max_events = 0;
  const SearchControl* control = nullptr;
};

/** Replays `token` on `program` (its warp mode wins over `machine.warp`); nullopt with `error`
 *  set when the token does not fit the program, or the control stopped the replay. */
std::optional<RecordedWitness> record_witness(const Program& program, MachineOptions machine, const ReplayToken& token,
                                              std::string& error, const WitnessRecording& how = {});

/** The witness explained (explanation.h): what `explain` prints, the report shows and the
 *  graph's caption says. `sc`: what an sc search said of its outcome, when known; otherwise an
 *  exhaustive sc search (bounded at 100,000 executions) decides. */
Explanation explain_witness(const Program& program, const MachineOptions& machine, const RecordedWitness& witness,
                            std::optional<ScSearch> sc);

std::string draw_witness_graph(const Program& program, const RecordedWitness& witness,
                               const std::vector<std::string>& caption);
/** `flagged_lines`: the lines a diagnostic points at, drawn in its colour. */
std::string draw_witness_timeline(const Program& program, const RecordedWitness& witness,
                                  const std::vector<uint32_t>& flagged_lines = {});
/** Nullopt when the execution has no warp events to draw. */
std::optional<std::string> draw_witness_warps(const Program& program, const RecordedWitness& witness);

/** "write_read_xy.cu" from "kernels/fences/write_read_xy.cu". */
std::string file_name_of(const std::string& path);

} // namespace fencelab
