// witness_pictures.h: replay, explain, draw.
#include "fencelab/draw/witness_pictures.h"

#include "fencelab/draw/pictures.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>

namespace fencelab {

std::string file_name_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<RecordedWitness> record_witness(const Program& program, MachineOptions machine, const ReplayToken& token,
                                              std::string& error, const WitnessRecording& how) {
  RecordedWitness witness;
  if (!split_mode_name(token.model, witness.model, machine.warp)) {
    error = fmt::format("unknown warp mode in '{}' (its or lockstep)", token.model);
    return std::nullopt;
  }
  const auto model = create_model(witness.model);
  if (model == nullptr) {
    error = fmt::format("unknown model '{}'", witness.model);
    return std::nullopt;
  }
  witness.warp = machine.warp;
  witness.token = token.display();
  Machine simulated(program, machine);
  TraceRecorder recorder(how.max_events != 0 ? how.max_events : TraceRecorder::kDefaultLimit);
  ReplayError replay_error;
  auto execution = replay(simulated, *model, token, &recorder, replay_error, how.control);
  if (!execution) {
    error = replay_error.message;
    return std::nullopt;
  }
  witness.events = recorder.events();
  witness.events_left_out = recorder.left_out();
  witness.execution = std::move(*execution);
  return witness;
}

Explanation explain_witness(const Program& program, const MachineOptions& machine, const RecordedWitness& witness,
                            std::optional<ScSearch> sc) {
  if (!sc) {
    MachineOptions options = machine;
    options.warp = witness.warp;
    Machine simulated(program, options);
    const auto sc_model = create_model("sc");
    const ExplorationResult under_sc = explore_exhaustive(simulated, *sc_model, ExhaustiveOptions{100'000});
    sc = ScSearch{false, under_sc.complete};
    for (const OutcomeCount& o : under_sc.outcomes) sc->reached |= o.outcome == witness.execution.outcome;
  }
  return explain_execution(program, witness.events, witness.model, *sc);
}

std::string draw_witness_graph(const Program& program, const RecordedWitness& witness,
                               const std::vector<std::string>& caption) {
  ExecutionGraph graph = build_execution_graph(program, witness.events, witness.model);
  graph.title = fmt::format("{}: {} under {}", file_name_of(program.source->path()),
                            witness.execution.outcome.to_string(program), mode_name(witness.model, witness.warp));
  graph.caption = caption;
  if (!graph.has_sc_cycle)
    graph.caption.push_back("po ∪ rf ∪ co ∪ fr has no cycle: the execution is sequentially consistent.");
  graph.caption.push_back(fmt::format("Replay: fencelab replay {} {}", program.source->path(), witness.token));
  return render_graph_svg(graph);
}

std::string draw_witness_timeline(const Program& program, const RecordedWitness& witness,
                                  const std::vector<uint32_t>& flagged_lines) {
  TimelineOptions options;
  options.flagged_lines = flagged_lines;
  BarrierTimeline timeline = build_barrier_timeline(program, witness.events, witness.execution, options);
  timeline.title = fmt::format("{}: timeline, {} under {}", file_name_of(program.source->path()),
                               witness.execution.outcome.to_string(program), mode_name(witness.model, witness.warp));
  return render_timeline_svg(timeline);
}

std::optional<std::string> draw_witness_warps(const Program& program, const RecordedWitness& witness) {
  const auto warp = pick_warp(program, witness.events);
  if (!warp) return std::nullopt;
  const WarpLanes lanes = build_warp_lanes(program, witness.events, warp->first, warp->second);
  return render_warp_svg(lanes, witness.warp == WarpMode::Lockstep ? "lockstep" : "its");
}

} // namespace fencelab
