// `fencelab ptx-litmus FILE.litmus`: a herd7 PTX litmus test run under the PTX ISA's axiomatic
// memory model (fencelab/litmus/ptx_model.h); prints the outcomes, herd7's Observation line and
// whether the test's condition holds. A subcommand of its own: the kernel commands (explore,
// run, ...) run a Program on the Machine, which a litmus test does not become (yet).
#include "commands.h"

#include "fencelab/litmus/ptx_litmus.h"
#include "fencelab/litmus/ptx_model.h"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace fencelab::cli {

namespace {

/** Litmus tests are small; a larger file is refused before it is read. */
constexpr std::streamoff kMaxLitmusBytes = 1 << 20;

int execute(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "fencelab: error: cannot read '{}'\n", file);
    return kBadInput;
  }
  in.seekg(0, std::ios::end);
  if (in.tellg() > kMaxLitmusBytes) {
    fmt::print(stderr, "fencelab: error: '{}' is larger than {} bytes\n", file, kMaxLitmusBytes);
    return kBadInput;
  }
  in.seekg(0);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  litmus::PtxParseResult parsed = litmus::parse_ptx_litmus(text);
  if (!parsed.test) {
    for (const auto& diagnostic : parsed.diagnostics)
      fmt::print(stderr, "{}", litmus::format_ptx_diagnostic(file, text, diagnostic));
    return kBadInput;
  }
  litmus::PtxExploration exploration = litmus::explore_ptx(*parsed.test);
  fmt::print("{}", litmus::format_ptx_exploration(*parsed.test, exploration));
  return exploration.refused ? kNotShownCorrect : kSuccess;
}

} // namespace

void add_ptx_litmus_command(CLI::App& app, int& exit_code) {
  auto file = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("ptx-litmus", "run a herd7 PTX litmus test under the PTX memory model");
  command->add_option("file", *file, "the .litmus file (herd7's PTX format)")->required();
  command->callback([file, &exit_code] {
    try {
      exit_code = execute(*file);
    } catch (const std::exception& error) {
      fmt::print(stderr, "fencelab: internal error: {}\n", error.what());
      exit_code = kInternalError;
    }
  });
}

} // namespace fencelab::cli
