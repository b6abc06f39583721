// The one-page HTML report (`fencelab report`): self-contained (inline CSS and SVG; no
// scripts, no network, no external fonts), readable offline and printable.
#pragma once

#include "fencelab/machine/machine.h"
#include "fencelab/program/program.h"
#include "fencelab/report/report.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace fencelab {

struct HtmlReportInput {
  const Program* program = nullptr;
  MachineOptions machine;
  std::vector<ModelRun> runs;          ///< one per model, in the order asked
  std::optional<ExplorationResult> sc; ///< sc's outcomes, to tell weak ones (also when not asked)
  std::string command_line;            ///< how the report was made, shown at its foot
};

/** Writes the page: the kernel with line numbers, the outcome table per model side by side,
 *  each weak outcome with its explanation and execution graph, each diagnostic with its source
 *  lines and barrier timeline, and the expectations' verdicts. */
void write_html_report(std::ostream& out, const HtmlReportInput& input);

} // namespace fencelab
