// `fencelab compare FILE`: every execution under the chosen models beside what the GPU did.
// An outcome the GPU showed that the gpu model forbids is flagged first: the kernel has
// undefined behaviour, or the model is wrong (issue 6; DESIGN.md, "The CUDA backend").
#include "gpu_common.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/machine/memory_model.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace fencelab::cli {

namespace {

struct CompareOptions {
  GpuCommandOptions gpu;
  std::vector<std::string> models{"sc", "gpu"};
  ExhaustiveOptions exhaustive;
  MachineOptions machine;
};

int execute(const CompareOptions& options) {
  if (!check_models(options.models)) return kBadInput;
  const auto program = load_program(options.gpu.file);
  if (program == nullptr) return kBadInput;
  // Ask for the GPU first: without one there is nothing to compare, and exploring is slow.
  const cuda::GpuResult probe = cuda::probe_gpu();
  if (probe.status != cuda::GpuStatus::Ok) {
    fmt::print(stderr, "fencelab: error: {}\n", probe.message);
    return cuda::gpu_status_exit_code(probe.status);
  }
  std::vector<std::string> models = options.models;
  const bool gpu_shown = std::find(models.begin(), models.end(), "gpu") != models.end();
  if (!gpu_shown) models.push_back("gpu"); // needed for the flag, not shown as a column
  Machine machine(*program, options.machine);
  std::vector<ExplorationResult> explored;
  for (const std::string& name : models) {
    const auto model = create_model(name);
    explored.push_back(explore_exhaustive(machine, *model, options.exhaustive));
  }
  int exit_code = kSuccess;
  const auto gpu = run_gpu_or_report(*program, options.gpu, exit_code);
  if (!gpu) return exit_code;

  // One row per outcome that any model reached or the GPU showed.
  std::map<Outcome, uint64_t> rows;
  for (const ExplorationResult& r : explored)
    for (const OutcomeCount& o : r.outcomes) rows.emplace(o.outcome, 0);
  for (const auto& [outcome, count] : gpu->outcomes) rows[outcome] += count;
  const auto allowed = [&](size_t m, const Outcome& outcome) {
    return std::any_of(explored[m].outcomes.begin(), explored[m].outcomes.end(),
                       [&](const OutcomeCount& o) { return o.outcome == outcome; });
  };
  const size_t gpu_model = std::find(models.begin(), models.end(), "gpu") - models.begin();
  const auto verdict = [&](size_t m, const Outcome& outcome) -> std::string {
    if (allowed(m, outcome)) return "allowed";
    return explored[m].complete ? "forbidden" : "not found";
  };

  fmt::print("{}: compare {} with the GPU ({}, {} mode)\n", program->source->path(),
             fmt::join(options.models, ", "), gpu->device, gpu->litmus ? "litmus" : "plain");
  fmt::print("GPU: {} executions in {} launches, {:.2f} s ({:.0f} executions/s)\n", gpu->executions, gpu->launches,
             gpu->seconds, double(gpu->executions) / std::max(gpu->seconds, 1e-9));
  std::vector<std::string> flagged;
  for (const auto& [outcome, count] : rows)
    if (count > 0 && !allowed(gpu_model, outcome)) flagged.push_back(outcome.to_string(*program));
  if (!flagged.empty()) {
    const bool proven = explored[gpu_model].complete;
    fmt::print("\n!! the GPU showed {} outcome{} the gpu model {}: {}\n"
               "!! either the kernel has undefined behaviour (a data race the model does not cover) or the model "
               "is wrong\n",
               flagged.size(), flagged.size() == 1 ? "" : "s", proven ? "forbids" : "did not reach (search cut short)",
               fmt::join(flagged, "; "));
    exit_code = kFindings;
  }
  size_t width = 7;
  for (const auto& row : rows) width = std::max(width, row.first.to_string(*program).size());
  fmt::print("\n  {:<{}}", "outcome", width);
  for (const std::string& m : options.models) fmt::print("  {:>9}", m);
  fmt::print("  {:>12}  {:>12}\n", "GPU count", "per million");
  uint64_t weak_seen = 0;
  for (const auto& [outcome, count] : rows) {
    fmt::print("  {:<{}}", outcome.to_string(*program), width);
    for (size_t m = 0; m < options.models.size(); ++m) fmt::print("  {:>9}", verdict(m, outcome));
    fmt::print("  {:>12}  {:>12.1f}{}\n", count, per_million(count, gpu->executions),
               count > 0 && !allowed(gpu_model, outcome) ? "  <- gpu model forbids" : "");
    const bool weak = allowed(gpu_model, outcome) && std::any_of(explored.begin(), explored.end(), [&](const auto& r) {
                        return r.model == "sc" && r.complete && !allowed(size_t(&r - explored.data()), outcome);
                      });
    if (weak && count > 0) ++weak_seen;
  }
  const size_t seen = size_t(std::count_if(gpu->outcomes.begin(), gpu->outcomes.end(), [](const auto&) { return true; }));
  fmt::print("\nsummary: {} outcomes; the GPU showed {} of them in {} executions; {} outcome{} forbidden under sc "
             "seen on the GPU; {} the gpu model forbids\n",
             rows.size(), seen, gpu->executions, weak_seen, weak_seen == 1 ? "" : "s", flagged.size());
  return exit_code;
}

} // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand("compare", "explore every execution under the models beside the GPU's outcomes");
  add_gpu_options(*command, options->gpu);
  command->add_option("--model", options->models, "models to explore (default sc,gpu)")->delimiter(',');
  command->add_option("--max-executions", options->exhaustive.max_executions,
                      "stop each exploration after this many executions")
      ->check(CLI::PositiveNumber);
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
