// libFuzzer target for the front end (issue 15): any bytes in as a kernel file; lexing,
// preprocessing, parsing, sema and the //@ directives must end in a program or in diagnostics,
// never in a crash, a hang or unbounded memory. Built with -DFENCELAB_FUZZ=ON (clang);
// tools/fuzz runs it.
#include "fencelab/frontend/compile.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<fencelab::SourceFile>(
      "fuzz.cu", std::string(reinterpret_cast<const char*>(data), size));
  fencelab::DiagnosticSink diagnostics;
  const auto program = fencelab::compile_program(source, diagnostics);
  std::ostringstream rendered; // rendering is part of the front end's work on bad input
  diagnostics.print(rendered, *source);
  return 0;
}
