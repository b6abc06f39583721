// `fencelab report FILE [--model sc,tso,gpu] -o report.html`: explores the kernel exhaustively
// under each model with the checkers on (as `explore` does), and writes the one-page HTML
// report (report/html_report.h). sc is explored as well when not asked, to tell weak outcomes.
#include "commands.h"
#include "picture_files.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/explore/expectations.h"
#include "fencelab/report/html_report.h"

#include <fmt/format.h>
#include <sstream>

namespace fencelab::cli {

namespace {

struct ReportCommandOptions {
  CommonOptions common;
  ExhaustiveOptions exhaustive;
  std::string output;
  std::string command_line;
};

int execute(const ReportCommandOptions& options) {
  if (!check_models(options.common.models)) return kBadInput;
  if (options.output.empty()) {
    fmt::print(stderr, "fencelab: error: report needs -o FILE.html\n");
    return kBadInput;
  }
  const auto program = load_program(options.common.file, options.common.shape);
  if (program == nullptr) return kBadInput;
  Machine machine(*program, options.common.machine);
  Checkers checkers(*program);
  HtmlReportInput input;
  input.program = program.get();
  input.machine = options.common.machine;
  input.command_line = options.command_line;
  for (const std::string& model_name : options.common.models) {
    const auto model = create_model(model_name);
    ExhaustiveOptions exhaustive = options.exhaustive;
    exhaustive.checkers = &checkers;
    ModelRun run;
    run.result = explore_exhaustive(machine, *model, exhaustive);
    run.expectations = check_expectations(*program, run.result);
    if (model_name == "sc") input.sc = run.result;
    input.runs.push_back(std::move(run));
  }
  if (!input.sc) {
    const auto sc = create_model("sc");
    input.sc = explore_exhaustive(machine, *sc, ExhaustiveOptions{options.exhaustive.max_executions});
  }
  std::ostringstream page;
  write_html_report(page, input);
  if (!write_text_file(options.output, page.str())) return kBadInput;
  fmt::print("wrote {}\n", options.output);
  return kSuccess;
}

} // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand("report", "write a one-page HTML report: source, outcomes, pictures, diagnostics");
  add_common_options(*command, options->common);
  options->common.models = {"sc", "tso", "gpu"};
  command->add_option("-o,--output", options->output, "the HTML file to write")->required();
  command->add_option("--max-executions", options->exhaustive.max_executions, "stop each model's search after this many");
  add_reduction_option(*command, options->exhaustive.reduction);
  command->callback([options, &exit_code] {
    options->command_line = fmt::format("fencelab report {} --model {}{} -o {}", options->common.file,
                                        fmt::join(options->common.models, ","),
                                        options->common.machine.warp == WarpMode::Lockstep ? " --warp lockstep" : "",
                                        options->output);
    exit_code = execute(*options);
  });
}

} // namespace fencelab::cli
