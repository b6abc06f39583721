// Writing pictures to files for `draw -o`, `explain --svg DIR` and `check --svg DIR`.
#pragma once

#include "output_directory.h"

#include "fencelab/draw/witness_pictures.h"

#include <CLI/CLI.hpp>

#include <string>

namespace fencelab::cli {

/** `--max-trace-events N`: the events a trace or picture of one execution holds (0, the
 *  default: TraceRecorder::kDefaultLimit); the rest are counted and left out. */
CLI::Option* add_trace_limit_option(CLI::App& command, uint64_t& max_events);
/** Says on stderr, when the recording hit the limit, how many events were left out and how to
 *  keep more. */
void note_events_left_out(uint64_t left_out, uint64_t limit);
void note_events_left_out(const RecordedWitness& witness);

/** Writes `content` to `path`; prints why not and returns false. */
bool write_text_file(const std::string& path, const std::string& content);

/** Writes the witness's graph, timeline and (when it has warp events) warp lanes into
 *  DIR as PREFIX-graph.svg, PREFIX-timeline.svg, PREFIX-warps.svg and prints each path;
 *  false if a file could not be written. The timeline flags `flagged_lines` (a finding's). */
bool write_witness_pictures(const Program& program, const RecordedWitness& witness,
                            const std::vector<std::string>& caption, const std::string& directory,
                            const std::string& prefix, bool with_graph,
                            const std::vector<uint32_t>& flagged_lines = {});

} // namespace fencelab::cli
