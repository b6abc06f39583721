// picture_files.h.
#include "picture_files.h"

#include "commands.h"

#include "fencelab/report/report.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace fencelab::cli {

CLI::Option* add_trace_limit_option(CLI::App& command, uint64_t& max_events) {
  return command
      .add_option("--max-trace-events", max_events,
                  fmt::format("events of the execution a trace or picture holds (default {}); the rest are left out",
                              TraceRecorder::kDefaultLimit))
      ->transform(whole_number(1));
}

void note_events_left_out(uint64_t left_out, uint64_t limit) {
  if (left_out == 0) return;
  fmt::print(stderr,
             "fencelab: note: the execution has {} events; only its first {} are shown, the rest are left out "
             "(--max-trace-events {} limits them: raise it to see more)\n",
             limit + left_out, limit, limit);
}

void note_events_left_out(const RecordedWitness& witness) {
  note_events_left_out(witness.events_left_out, witness.events.size());
}

bool write_text_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << content;
  if (!out) {
    fmt::print(stderr, "fencelab: error: cannot write '{}'\n", path);
    return false;
  }
  return true;
}

bool write_witness_pictures(const Program& program, const RecordedWitness& witness,
                            const std::vector<std::string>& caption, const std::string& directory,
                            const std::string& prefix, bool with_graph,
                            const std::vector<uint32_t>& flagged_lines) {
  const std::string base = (std::filesystem::path(directory) / prefix).string();
  std::vector<std::pair<std::string, std::string>> files;
  if (with_graph) files.emplace_back(base + "-graph.svg", draw_witness_graph(program, witness, caption));
  files.emplace_back(base + "-timeline.svg", draw_witness_timeline(program, witness, flagged_lines));
  if (auto warps = draw_witness_warps(program, witness)) files.emplace_back(base + "-warps.svg", std::move(*warps));
  for (const auto& [path, content] : files) {
    if (!write_text_file(path, content)) return false;
    fmt::print(stderr, "wrote {}\n", path);
  }
  return true;
}

} // namespace fencelab::cli
