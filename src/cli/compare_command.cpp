// `fencelab compare FILE`: every execution under the chosen models beside what the GPU did.
// An outcome the GPU showed that the gpu model forbids is flagged first: the kernel has
// undefined behaviour, or the model is wrong (issue 6; DESIGN.md, "The CUDA backend"). Only a
// complete search proves "forbids"; one cut short says "not reached (search cut short)".
#include "gpu_common.h"
#include "search_session.h"

#include "fencelab/explore/exploration.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/program/launch_shape.h"
#include "fencelab/report/model_verdict.h"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <map>

namespace fencelab::cli {

namespace {

struct CompareOptions {
  GpuCommandOptions gpu;
  std::vector<std::string> models{"sc", "gpu"};
  ExhaustiveOptions exhaustive;
  MachineOptions machine;
  SearchCommandOptions search;
};

/** "gpu: 1234 executions (exhaustive, complete)" for the header: what each verdict rests on. */
std::string search_line(const ExplorationResult& r) {
  if (r.complete) return fmt::format("{}: {} executions (exhaustive, complete)", r.model, r.executions);
  return fmt::format("{}: {} executions (search cut short: {}; an outcome it did not reach is \"not reached\", "
                     "not forbidden)",
                     r.model, r.executions, r.stopped_because.empty() ? "--max-executions" : r.stopped_because);
}

int execute(const CompareOptions& options) {
  if (!check_models(options.models)) return kBadInput;
  const auto program = load_program(options.gpu.file, options.gpu.shape);
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
  if (!resident_threads_fit(machine)) return kBadInput;
  SearchSession session(options.search);
  ExhaustiveOptions exhaustive = options.exhaustive;
  exhaustive.control = session.control();
  std::vector<ExplorationResult> explored;
  for (const std::string& name : models) {
    const auto model = create_model(name);
    explored.push_back(session.run("compare: explore under " + name,
                                   [&] { return explore_exhaustive(machine, *model, exhaustive); }));
  }
  int exit_code = kSuccess;
  const auto gpu = run_gpu_or_report(*program, options.gpu, exit_code);
  if (!gpu) return exit_code;

  // One row per outcome that any model reached or the GPU showed.
  std::map<Outcome, uint64_t> rows;
  for (const ExplorationResult& r : explored)
    for (const OutcomeCount& o : r.outcomes) rows.emplace(o.outcome, 0);
  for (const auto& [outcome, count] : gpu->outcomes) rows[outcome] += count;
  const size_t gpu_model = std::find(models.begin(), models.end(), "gpu") - models.begin();
  const auto gpu_verdict = [&](const Outcome& outcome) { return model_verdict(explored[gpu_model], outcome); };

  fmt::print("{}: compare {} with the GPU ({}, {} mode), kernel {}, {}\n", program->source->path(),
             fmt::join(options.models, ", "), gpu->device, gpu->litmus ? "litmus" : "plain",
             program->launch.kernel->name, describe_launch_shape(program->launch));
  for (const ExplorationResult& r : explored) fmt::print("{}\n", search_line(r));
  fmt::print("GPU: {} executions in {} launches, {:.2f} s ({:.0f} executions/s)\n", gpu->executions, gpu->launches,
             gpu->seconds, double(gpu->executions) / std::max(gpu->seconds, 1e-9));
  // Outcomes the GPU showed that the gpu model did not reach: proven forbidden only by a
  // complete search (a finding, exit 1); otherwise merely not reached.
  std::vector<std::string> flagged;
  for (const auto& [outcome, count] : rows)
    if (count > 0 && gpu_verdict(outcome) != ModelVerdict::Allowed) flagged.push_back(outcome.to_string(*program));
  const bool proven = explored[gpu_model].complete;
  if (!flagged.empty() && proven) {
    fmt::print("\n!! the GPU showed {} outcome{} the gpu model forbids: {}\n"
               "!! either the kernel has undefined behaviour (a data race the model does not cover) or the model "
               "is wrong\n",
               flagged.size(), flagged.size() == 1 ? "" : "s", fmt::join(flagged, "; "));
    if (!program->approximate_math.empty())
      fmt::print("!! or a value differs in its last bits: the kernel calls {}, which a GPU computes within a few ulp "
                 "of the exact value fencelab uses (CUDA Math API error bounds)\n",
                 fmt::join(program->approximate_math, ", "));
    exit_code = kNotShownCorrect;
  } else if (!flagged.empty()) {
    fmt::print("\nthe GPU showed {} outcome{} the gpu model's search did not reach (search cut short): {}\n"
               "the search was not complete, so the model may still allow {}: give a larger --max-executions or "
               "--time-limit to decide\n",
               flagged.size(), flagged.size() == 1 ? "" : "s", fmt::join(flagged, "; "),
               flagged.size() == 1 ? "it" : "them");
  }
  size_t width = 7;
  for (const auto& row : rows) width = std::max(width, row.first.to_string(*program).size());
  constexpr int kVerdictWidth = 11; // "not reached"
  fmt::print("\n  {:<{}}", "outcome", width);
  for (const std::string& m : options.models) fmt::print("  {:>{}}", m, kVerdictWidth);
  fmt::print("  {:>12}  {:>12}\n", "GPU count", "per million");
  uint64_t weak_seen = 0;
  for (const auto& [outcome, count] : rows) {
    fmt::print("  {:<{}}", outcome.to_string(*program), width);
    for (size_t m = 0; m < options.models.size(); ++m)
      fmt::print("  {:>{}}", model_verdict_name(model_verdict(explored[m], outcome)), kVerdictWidth);
    const ModelVerdict verdict = gpu_verdict(outcome);
    const char* marker = count == 0 || verdict == ModelVerdict::Allowed ? ""
                         : verdict == ModelVerdict::Forbidden         ? "  <- gpu model forbids"
                                                                      : "  <- not reached (search cut short)";
    fmt::print("  {:>12}  {:>12.1f}{}\n", count, per_million(count, gpu->executions), marker);
    // Weak memory seen: the gpu model allows it and a complete sc search forbids it.
    // (The lambda names the outcome through a reference: clang 14 cannot capture a binding.)
    const Outcome& shown = outcome;
    const bool weak = verdict == ModelVerdict::Allowed && std::any_of(explored.begin(), explored.end(), [&](const auto& r) {
                        return r.model == "sc" && model_verdict(r, shown) == ModelVerdict::Forbidden;
                      });
    if (weak && count > 0) ++weak_seen;
  }
  fmt::print("\nsummary: {} outcomes; the GPU showed {} of them in {} executions; {} outcome{} forbidden under sc "
             "seen on the GPU; {} {}\n",
             rows.size(), gpu->outcomes.size(), gpu->executions, weak_seen, weak_seen == 1 ? "" : "s", flagged.size(),
             proven ? "the gpu model forbids" : "the gpu model's search did not reach (search cut short)");
  // Each model's search is judged as `explore` judges it (a search cut short proves nothing).
  std::vector<SearchVerdict> verdicts;
  for (const ExplorationResult& r : explored) verdicts.push_back(judge_search(*program, r, {}));
  print_verdicts(std::cout, verdicts, true);
  const int searches = exit_code_of(verdicts);
  return searches != kSuccess ? searches : exit_code;
}

} // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand("compare", "explore every execution under the models beside the GPU's outcomes");
  add_gpu_options(*command, options->gpu);
  command->add_option("--model", options->models, "models to explore (default sc,gpu)")->delimiter(',');
  command->add_option("--max-executions", options->exhaustive.max_executions,
                      "stop each exploration after this many executions")
      ->transform(whole_number(1));
  add_reduction_option(*command, options->exhaustive.reduction);
  add_search_options(*command, options->search);
  // Options compare would accept and ignore are left out, so that they are refused (issue 71):
  // it prints no witness tokens (--witness-dir) and always runs the kernel (`gpu --emit-cuda`
  // prints its CUDA source).
  command->remove_option(command->get_option("--witness-dir"));
  command->remove_option(command->get_option("--emit-cuda"));
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
