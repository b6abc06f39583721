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

/** What a real GPU showed (`report --gpu`; the CUDA backend's result, as the page needs it). */
struct GpuHistogram {
  std::string device;  ///< "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"
  std::string mode;    ///< "litmus mode, 6553600 instances in 100 launches" or "plain mode, 100 launches"
  uint64_t executions = 0;
  std::vector<std::pair<Outcome, uint64_t>> outcomes;
  std::string failure; ///< why it could not run (then the rest is empty)
};

struct HtmlReportInput {
  const Program* program = nullptr;
  MachineOptions machine;
  std::vector<ModelRun> runs;          ///< one per model, in the order asked
  std::optional<ExplorationResult> sc; ///< sc's outcomes, to tell weak ones (also when not asked)
  std::string command_line;            ///< how the report was made, shown at its foot
  std::optional<GpuHistogram> gpu;     ///< with --gpu: a column beside the models'
  /** Replays for the pictures stop at its time limit or a signal (the page says so where a
   *  picture is missing); null: they run to their end. */
  const SearchControl* control = nullptr;
};

/** Writes the page: the kernel with line numbers, the outcome table per model side by side,
 *  each weak outcome with its explanation and execution graph, each diagnostic with its source
 *  lines and barrier timeline, and the expectations' verdicts. */
void write_html_report(std::ostream& out, const HtmlReportInput& input);

} // namespace fencelab
