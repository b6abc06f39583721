// `fencelab check FILE`: every checker on; exhaustive exploration when the search is small,
// random executions within a budget otherwise; each distinct report once with its witness.
#include "commands.h"
#include "picture_files.h"
#include "search_session.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/expectations.h"
#include "fencelab/report/report.h"

#include <fmt/format.h>
#include <iostream>

namespace fencelab::cli {

namespace {

struct CheckOptions {
  CommonOptions common;
  CheckBudget budget;
  SearchCommandOptions search;
  std::string svg_directory; ///< --svg DIR: each finding's witness as pictures
  uint64_t max_trace_events = 0; ///< 0: TraceRecorder's default
};

int execute(const CheckOptions& options) {
  if (!check_models(options.common.models)) return kBadInput;
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  if (!resident_threads_fit(machine)) return kBadInput;
  Checkers checkers(*program);
  SearchSession session(options.search);
  CheckBudget budget = options.budget;
  budget.control = session.control();
  std::vector<SearchVerdict> verdicts;
  if (!options.svg_directory.empty() && !prepare_directory(options.svg_directory)) return kBadInput;
  for (const std::string& model_name : options.common.models) {
    const auto model = create_model(model_name);
    const ExplorationResult result =
        session.run("check under " + model_name, [&] { return explore_checked(machine, *model, checkers, budget); });
    const std::vector<ExpectationResult> expectations = check_expectations(*program, result);
    verdicts.push_back(judge_search(*program, result, expectations));
    if (options.common.json) {
      print_exploration_json(std::cout, *program, result, expectations, ReportOptions{options.common.stats, "check"});
    } else {
      print_check_text(std::cout, *program, result);
      print_expectations_text(std::cout, *program, expectations, "expectations:");
      if (options.common.stats) print_stats_text(std::cout, result); // after them, as explore's
      // Each model's report ends with its verdict (a check of several models prints several).
      print_verdicts(std::cout, {verdicts.back()}, options.common.models.size() > 1);
    }
    if (!options.svg_directory.empty()) {
      // One set of pictures per finding: its witness's barrier timeline and warp lanes.
      for (size_t i = 0; i < result.reports.size(); ++i) {
        std::string error;
        const WitnessRecording how{options.max_trace_events, session.control()};
        const auto witness = session.within("check --svg", [&] {
          return record_witness(*program, options.common.machine, result.reports[i].report.witness, error, how);
        });
        if (!witness && error.starts_with("stopped: ")) { // the report is printed: its pictures are cut short
          fmt::print(stderr, "fencelab: error: the pictures of finding {} were not drawn: {}\n", i + 1, error);
          return stopped_exit_code();
        }
        if (!witness) {
          fmt::print(stderr, "fencelab: error: cannot replay the witness of finding {}: {}\n", i + 1, error);
          return kInternalError;
        }
        note_events_left_out(*witness);
        const std::string prefix = fmt::format("{}-finding-{}-{}", model_name, i + 1,
                                               diagnostic_kind_name(result.reports[i].report.kind));
        std::vector<uint32_t> lines;
        for (const ReportSite& site : result.reports[i].report.sites)
          if (site.range.end > 0) lines.push_back(program->source->position(site.range.begin).line);
        if (!write_witness_pictures(*program, *witness, {}, options.svg_directory, prefix, false, lines))
          return kBadInput;
      }
    }
  }
  if (!checkers.races_checked())
    std::cerr << "fencelab: note: the grid has 2^32 threads or more, so races were not checked (the other "
                 "checkers ran)\n";
  return exit_code_of(verdicts);
}

} // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand("check", "find races, barrier divergence, deadlocks and memory errors");
  add_common_options(*command, options->common);
  command->add_option("--max-executions", options->budget.max_executions,
                      "explore exhaustively when the search has at most this many executions")
      ->transform(whole_number());
  command->add_option("--runs", options->budget.runs, "otherwise, this many random executions")
      ->transform(whole_number(1));
  command->add_option("--seed", options->budget.seed, "seed for the random executions")->transform(whole_number());
  add_jobs_option(*command, options->budget.jobs);
  add_reduction_option(*command, options->budget.reduction);
  add_search_options(*command, options->search);
  CLI::Option* svg = command->add_option("--svg", options->svg_directory,
                      "also write each finding's barrier timeline (and warp lanes) as SVG into DIR (DIR or its "
                      "parent must exist)")
      ->check(output_directory());
  add_trace_limit_option(*command, options->max_trace_events)->needs(svg); // it limits only --svg's pictures
  command->callback([options, &exit_code] { exit_code = execute(*options); });
}

} // namespace fencelab::cli
