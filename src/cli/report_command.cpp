// `fencelab report FILE [--model sc,tso,gpu] -o report.html`: explores the kernel exhaustively
// under each model with the checkers on (as `explore` does), and writes the one-page HTML
// report (report/html_report.h). sc is explored as well when not asked, to tell weak outcomes.
#include "commands.h"
#include "gpu_common.h"
#include "picture_files.h"
#include "search_session.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/expectations.h"
#include "fencelab/report/html_report.h"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <sstream>

namespace fencelab::cli {

namespace {

struct ReportCommandOptions {
  CommonOptions common;
  ExhaustiveOptions exhaustive;
  std::string output;
  std::string command_line;
  bool gpu = false; ///< --gpu: run it on the GPU too, as `fencelab gpu` does with its defaults
  SearchCommandOptions search; ///< --time-limit only
};

/** Runs the kernel on the GPU as `fencelab gpu` would; a failure is written on the page. */
GpuHistogram run_gpu_for_report(const Program& program, const ReportCommandOptions& options, int& exit_code) {
  GpuCommandOptions gpu;
  gpu.file = options.common.file;
  gpu.shape = options.common.shape;
  GpuHistogram histogram;
  cuda::GpuOptions gpu_options = gpu.gpu;
  gpu_options.litmus = use_litmus(program, gpu);
  const cuda::GpuResult ran = cuda::run_on_gpu(program, gpu_options);
  if (ran.status == cuda::GpuStatus::Hang) {
    // As `fencelab gpu`: the hung kernel would block any orderly teardown of the context.
    fmt::print(stderr, "fencelab: error: {}\n", ran.message);
    std::fflush(nullptr);
    std::_Exit(cuda::gpu_status_exit_code(ran.status));
  }
  std::optional<cuda::GpuResult> result;
  if (ran.status == cuda::GpuStatus::Ok) result = ran;
  if (!result) {
    fmt::print(stderr, "fencelab: error: {}\n", ran.message);
    exit_code = cuda::gpu_status_exit_code(ran.status);
    histogram.failure = ran.message;
    return histogram;
  }
  histogram.device = result->device;
  histogram.mode = result->litmus ? fmt::format("litmus mode, {} instances in {} launches", result->executions,
                                                result->launches)
                                  : fmt::format("plain mode, {} launches", result->executions);
  histogram.executions = result->executions;
  histogram.outcomes = result->outcomes;
  return histogram;
}

int execute(const ReportCommandOptions& options) {
  if (!check_models(options.common.models)) return kBadInput;
  if (options.output.empty()) {
    fmt::print(stderr, "fencelab: error: report needs -o FILE.html\n");
    return kBadInput;
  }
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  if (!resident_threads_fit(machine)) return kBadInput;
  Checkers checkers(*program);
  HtmlReportInput input;
  input.program = program.get();
  input.machine = options.common.machine;
  input.command_line = options.command_line;
  // As `explore`: --time-limit, SIGINT and SIGTERM end a search with what it found, and the
  // page is written with that (a stop ends every later search at once). Judged as `explore`
  // judges the same models (the extra sc search below is not asked for).
  SearchSession session(options.search);
  std::vector<SearchVerdict> verdicts;
  for (const std::string& model_name : options.common.models) {
    const auto model = create_model(model_name);
    ExhaustiveOptions exhaustive = options.exhaustive;
    exhaustive.checkers = &checkers;
    exhaustive.control = session.control();
    ModelRun run;
    run.result = session.run("report under " + model_name, [&] { return explore_exhaustive(machine, *model, exhaustive); });
    if (!run.result.stopped_because.empty())
      fmt::print(stderr, "fencelab: note: the search under {} was stopped: {}\n", model_name, run.result.stopped_because);
    run.expectations = check_expectations(*program, run.result);
    verdicts.push_back(judge_search(*program, run.result, run.expectations));
    if (model_name == "sc") input.sc = run.result;
    input.runs.push_back(std::move(run));
  }
  if (!input.sc) {
    const auto sc = create_model("sc");
    ExhaustiveOptions exhaustive{options.exhaustive.max_executions};
    exhaustive.control = session.control();
    input.sc = session.run("report under sc", [&] { return explore_exhaustive(machine, *sc, exhaustive); });
  }
  int gpu_exit_code = kSuccess;
  if (options.gpu) input.gpu = run_gpu_for_report(*program, options, gpu_exit_code);
  std::ostringstream page;
  input.control = session.control();
  session.within("report", [&] {
    write_html_report(page, input);
    return true;
  });
  if (!write_text_file(options.output, page.str())) return kBadInput;
  fmt::print("wrote {}\n", options.output);
  print_verdicts(std::cout, verdicts, verdicts.size() > 1);
  // The searches' code first; where they showed the kernel correct, a GPU that failed says so.
  const int exit_code = exit_code_of(verdicts);
  return exit_code != kSuccess ? exit_code : gpu_exit_code;
}

} // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand("report", "write a one-page HTML report: source, outcomes, pictures, diagnostics");
  add_common_options(*command, options->common,
                     CommonOptionSet{.json = false, .stats = false, .model_default = "sc,tso,gpu"});
  options->common.models = {"sc", "tso", "gpu"};
  command->add_option("-o,--output", options->output, "the HTML file to write")->required();
  command->add_option("--max-executions", options->exhaustive.max_executions, "stop each model's search after this many")
      ->transform(whole_number(1));
  add_reduction_option(*command, options->exhaustive.reduction);
  add_time_limit_option(*command, options->search.time_limit);
  command->add_flag("--gpu", options->gpu,
                    "also run it on the GPU (as `fencelab gpu` with its defaults) and add the histogram");
  command->callback([options, &exit_code] {
    options->command_line = fmt::format("fencelab report {} --model {}{}{} -o {}", options->common.file,
                                        fmt::join(options->common.models, ","),
                                        options->common.machine.warp == WarpMode::Lockstep ? " --warp lockstep" : "",
                                        options->gpu ? " --gpu" : "", options->output);
    exit_code = execute(*options);
  });
}

} // namespace fencelab::cli
