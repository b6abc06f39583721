// Golden reports: tests/golden/DIR.NAME.txt is what `fencelab check kernels/DIR/NAME.cu` prints.
// The report holds no addresses or timings and its search is seeded, so it must match byte for
// byte; every report in it must come back when its witness is replayed with the checkers on.
// tools/update-golden rewrites the files (review the diff).
#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "machine_helpers.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <sys/wait.h>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** `fencelab check` on a catalogue kernel, run from the source tree as a user would. */
std::string check_output(const std::string& relative_kernel) {
  const std::string command = std::string("cd ") + FENCELAB_SOURCE_DIR + " && " + FENCELAB_BINARY + " check " +
                              relative_kernel + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  ::pclose(pipe);
  return output;
}

/** A report as the golden file prints it: its message, kind and witness token. */
struct GoldenReport {
  std::string message, kind, witness;
};

std::vector<GoldenReport> reports_in(const std::string& text) {
  std::vector<GoldenReport> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    // A primary line: `FILE:LINE:COL: error: MESSAGE [KIND]` (the notes under it are indented).
    for (const char* severity : {": error: ", ": warning: "}) {
      const size_t at = line.find(severity);
      if (line.starts_with(" ") || at == std::string::npos || line.back() != ']') continue;
      const size_t from = at + std::strlen(severity);
      const size_t open = line.rfind(" [");
      out.push_back({line.substr(from, open - from), line.substr(open + 2, line.size() - open - 3), ""});
    }
    const size_t witness = line.find("; witness ");
    if (witness != std::string::npos && line.starts_with("  seen in ") && !out.empty())
      out.back().witness = line.substr(witness + 10);
  }
  return out;
}

} // namespace

TEST_CASE("golden check reports match, and each report's witness reproduces it", "[checkers][golden]") {
  size_t files = 0, replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FENCELAB_SOURCE_DIR) + "/tests/golden")) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    const std::string name = entry.path().stem().string(); // DIR.NAME
    const std::string kernel = "kernels/" + name.substr(0, name.find('.')) + "/" + name.substr(name.find('.') + 1) + ".cu";
    INFO(entry.path().string() << " (regenerate with tools/update-golden " << kernel << ")");
    const std::string golden = file_text(entry.path().string());
    CHECK(check_output(kernel) == golden);

    const std::vector<GoldenReport> reports = reports_in(golden);
    CHECK(!reports.empty());
    for (const GoldenReport& report : reports) {
      INFO(report.message << " [" << report.kind << "], witness " << report.witness);
      std::string error;
      const std::optional<ReplayToken> decoded = ReplayToken::decode(report.witness, error);
      REQUIRE(decoded);
      const ReplayToken& token = *decoded;
      std::string model_name;
      WarpMode warp = WarpMode::Its;
      REQUIRE(split_mode_name(token.model, model_name, warp));
      MachineOptions options;
      options.warp = warp;
      Kernel k = kernel_from_file(catalogue_path(kernel.substr(std::strlen("kernels/"))), options);
      Checkers checkers(k.program());
      auto model = create_model(model_name);
      ReplayError replay_error;
      REQUIRE(replay(*k.machine, *model, token, &checkers, replay_error));
      const auto again = checkers.execution_reports();
      CHECK(std::any_of(again.begin(), again.end(), [&](const CheckReport& r) {
        return r.message == report.message && report.kind == diagnostic_kind_name(r.kind);
      }));
      ++replayed;
    }
  }
  CHECK(files >= 15);
  CHECK(replayed >= 40);
}
