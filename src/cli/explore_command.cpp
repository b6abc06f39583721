// `fencelab run` (random schedules, outcome histogram) and `fencelab explore` (every
// execution). Both check the file's expectations for each model they ran.
#include "commands.h"
#include "search_session.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/expectations.h"
#include "fencelab/report/report.h"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <random>

namespace fencelab::cli {

namespace {

struct ExploreCommandOptions {
  CommonOptions common;
  RandomOptions random;
  bool seed_given = false;
  ExhaustiveOptions exhaustive;
  bool no_check = false; ///< --no-check: run without the checkers (faster)
  SearchCommandOptions search;
};

int execute(const ExploreCommandOptions& options, ExplorationMode mode) {
  if (!check_models(options.common.models)) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  if (!resident_threads_fit(machine)) return kBadInput;
  // The checkers watch every execution unless --no-check (DESIGN "Diagnostics").
  std::optional<Checkers> checkers;
  if (!options.no_check) checkers.emplace(*program);
  Checkers* const watching = checkers ? &*checkers : nullptr;
  const ReportOptions report{options.common.stats, mode == ExplorationMode::Random ? "run" : "explore"};
  SearchSession session(options.search);
  std::vector<ModelRun> runs;
  std::vector<SearchVerdict> verdicts;
  for (const std::string& model_name : options.common.models) {
    const auto model = create_model(model_name);
    ModelRun run;
    RandomOptions random = options.random;
    random.checkers = watching;
    random.control = session.control();
    ExhaustiveOptions exhaustive = options.exhaustive;
    exhaustive.checkers = watching;
    exhaustive.control = session.control();
    run.result = session.run(report.command + " under " + model_name, [&] {
      return mode == ExplorationMode::Random ? explore_random(machine, *model, random)
                                             : explore_exhaustive(machine, *model, exhaustive);
    });
    run.expectations = check_expectations(*program, run.result);
    // JSON: one document per model, each on its own line.
    if (options.common.json) print_exploration_json(std::cout, *program, run.result, run.expectations, report);
    verdicts.push_back(judge_search(*program, run.result, run.expectations));
    runs.push_back(std::move(run));
  }
  if (!options.common.json) {
    if (runs.size() == 1) print_exploration_text(std::cout, *program, runs[0].result, runs[0].expectations, report);
    else print_comparison_text(std::cout, *program, runs, report);
    // Expectations for models not run here are not silently ignored.
    std::vector<std::string> unchecked;
    for (const Expectation& e : program->expectations)
      for (const std::string& m : e.models)
        if (std::none_of(runs.begin(), runs.end(), [&m](const ModelRun& r) { return r.result.model == m; }) &&
            std::find(unchecked.begin(), unchecked.end(), m) == unchecked.end())
          unchecked.push_back(m);
    // "gpu.lockstep" is --model gpu --warp lockstep (mode_name in machine.h).
    const bool lockstep_named = std::any_of(unchecked.begin(), unchecked.end(), [](const std::string& m) {
      return m.find('.') != std::string::npos;
    });
    if (!unchecked.empty())
      std::cout << "\nnote: the file also has expectations under " << fmt::format("{}", fmt::join(unchecked, ", "))
                << ", not checked here (add --model " << fmt::format("{}", fmt::join(unchecked, ","))
                << (lockstep_named ? "; NAME.lockstep means --model NAME --warp lockstep" : "") << ")\n";
    print_verdicts(std::cout, verdicts, verdicts.size() > 1);
  }
  return exit_code_of(verdicts);
}

} // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExploreCommandOptions>();
  CLI::App* command = app.add_subcommand("run", "run random schedules and print the outcome histogram");
  add_common_options(*command, options->common);
  command->add_option("--runs", options->random.runs, "number of executions")->transform(whole_number(1));
  command->add_option("--bias", options->random.bias,
                      "probability of the common case (newest value, prompt drain) at a weak-memory "
                      "decision; 0 is uniform")
      ->check(finite_number(0.0, 1.0));
  command->add_flag("--no-check", options->no_check, "run without the checkers (races, barriers, deadlocks): faster");
  add_jobs_option(*command, options->random.jobs);
  command->add_option("--seed", options->random.seed, "generator seed (printed; default: random)")
      ->transform(whole_number())
      ->each([options](const std::string&) { options->seed_given = true; });
  add_search_options(*command, options->search);
  command->callback([options, &exit_code] {
    if (!options->seed_given) options->random.seed = std::random_device{}() | (uint64_t(std::random_device{}()) << 32);
    exit_code = execute(*options, ExplorationMode::Random);
  });
}

void add_explore_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExploreCommandOptions>();
  CLI::App* command = app.add_subcommand("explore", "explore every execution and check the file's expectations");
  add_common_options(*command, options->common);
  command->add_option("--max-executions", options->exhaustive.max_executions,
                      "stop after this many executions (the report says the search was cut short)")
      ->transform(whole_number(1));
  command->add_flag("--no-check", options->no_check, "explore without the checkers (races, barriers, deadlocks): faster");
  add_reduction_option(*command, options->exhaustive.reduction);
  add_search_options(*command, options->search);
  command->callback([options, &exit_code] { exit_code = execute(*options, ExplorationMode::Exhaustive); });
}

} // namespace fencelab::cli
