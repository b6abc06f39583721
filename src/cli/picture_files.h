// Writing pictures to files for `draw -o`, `explain --svg DIR` and `check --svg DIR`.
#pragma once

#include "fencelab/draw/witness_pictures.h"

#include <string>

namespace fencelab::cli {

/** Writes `content` to `path`; prints why not and returns false. */
bool write_text_file(const std::string& path, const std::string& content);

/** Creates DIR (and parents) if needed; prints why not and returns false. */
bool prepare_directory(const std::string& directory);

/** Writes the witness's graph, timeline and (when it has warp events) warp lanes into
 *  DIR as PREFIX-graph.svg, PREFIX-timeline.svg, PREFIX-warps.svg and prints each path;
 *  false if a file could not be written. The timeline flags `flagged_lines` (a finding's). */
bool write_witness_pictures(const Program& program, const RecordedWitness& witness,
                            const std::vector<std::string>& caption, const std::string& directory,
                            const std::string& prefix, bool with_graph,
                            const std::vector<uint32_t>& flagged_lines = {});

} // namespace fencelab::cli
