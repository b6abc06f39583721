// The HTML report's content (its well-formedness is checked by tests/pictures/check_pictures.py
// with real parsers): the outcome table per model with the weak outcome marked and drawn, and
// the GPU column with an outcome the GPU showed but every model forbids flagged.
#include "fencelab/report/html_report.h"
#include "machine_helpers.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

TEST_CASE("the HTML report marks weak outcomes, draws them, and flags what only the GPU showed", "[report][html]") {
  Kernel k = kernel_from_file(catalogue_path("fences/write_read_xy.cu"));
  HtmlReportInput input;
  input.program = &k.program();
  input.command_line = "fencelab report write_read_xy.cu";
  for (const char* name : {"sc", "gpu"}) {
    const auto model = create_model(name);
    ModelRun run;
    run.result = explore_exhaustive(*k.machine, *model, ExhaustiveOptions{});
    run.expectations = check_expectations(k.program(), run.result);
    if (std::string(name) == "sc") input.sc = run.result;
    input.runs.push_back(std::move(run));
  }
  // A made-up GPU histogram: one outcome every model allows, one none does.
  GpuHistogram gpu;
  gpu.device = "test device";
  gpu.mode = "plain mode, 3 launches";
  gpu.executions = 3;
  Outcome allowed = input.runs[0].result.outcomes.front().outcome;
  Outcome impossible = allowed;
  impossible.values[0] = 12345;
  gpu.outcomes = {{allowed, 2}, {impossible, 1}};
  input.gpu = gpu;
  std::ostringstream page;
  write_html_report(page, input);
  const std::string html = page.str();
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<tr class=\"weak\"><td class=\"outcome mono\">A=1 B=20</td>") != std::string::npos);
  CHECK(html.find("weak: sc forbids it") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos); // the weak outcome's execution graph
  // Its explanation is explain's (draw/explanation.h): message passing, with a fence on each side.
  CHECK(html.find("<li>Sequential consistency forbids this outcome: the execution has the cycle po, rf, po, fr") !=
        std::string::npos);
  CHECK(html.find("it is the shape of message passing (MP)") != std::string::npos);
  CHECK(html.find("between its two stores (after line 31, before line 32)") != std::string::npos);
  CHECK(html.find("between its two loads (after line 37, before line 38)") != std::string::npos);
  CHECK(html.find("SEEN ON THE GPU BUT FORBIDDEN by every model") != std::string::npos);
  CHECK(html.find(impossible.to_string(k.program())) != std::string::npos);
  CHECK(html.find("test device") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  // Every expectation's verdict is there.
  CHECK(html.find("expect gpu: reachable A=1 B=20") != std::string::npos);
}
