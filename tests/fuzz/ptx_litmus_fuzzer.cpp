// libFuzzer target for the herd7 PTX litmus reader and the PTX model (issue 70): any bytes in
// as a .litmus file; reading must end in a test or in diagnostics, and a test read must be
// enumerated or refused, never a crash, a hang or unbounded memory. The candidate limit is
// lowered so that one input stays well under libFuzzer's timeout. Built with -DFENCELAB_FUZZ=ON
// (clang); tools/fuzz --target ptx_litmus runs it.
#include "fencelab/litmus/ptx_litmus.h"
#include "fencelab/litmus/ptx_model.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  fencelab::litmus::PtxParseResult parsed = fencelab::litmus::parse_ptx_litmus(text);
  for (const auto& diagnostic : parsed.diagnostics) (void)fencelab::litmus::format_ptx_diagnostic("fuzz.litmus", text, diagnostic);
  if (parsed.test) {
    fencelab::litmus::PtxExploration exploration = fencelab::litmus::explore_ptx(*parsed.test, 20'000);
    (void)fencelab::litmus::format_ptx_exploration(*parsed.test, exploration);
  }
  return 0;
}
