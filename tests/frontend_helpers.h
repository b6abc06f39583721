// Helpers shared by the front-end tests.
#pragma once

#include "fencelab/frontend/compile.h"
#include "fencelab/frontend/lexer.h"

#include <memory>
#include <sstream>
#include <string>

namespace fencelab::testing {

/** The result of compiling a kernel held in a string. */
struct Compiled {
  std::shared_ptr<const SourceFile> source;
  DiagnosticSink diagnostics;
  std::unique_ptr<Program> program;

  /** Every diagnostic rendered with its source line and caret. */
  std::string rendered() const {
    std::ostringstream out;
    diagnostics.print(out, *source);
    return out.str();
  }
  /** Only the first line of each diagnostic (`path:line:col: error: message`). */
  std::string messages() const {
    std::string out;
    for (const Diagnostic& d : diagnostics.diagnostics()) {
      const std::string text = render_diagnostic(d, *source);
      out += text.substr(0, text.find('\n') + 1);
    }
    return out;
  }
};

inline std::unique_ptr<Compiled> compile_text(const std::string& text, const std::string& path = "k.cu",
                                              const CompileOptions& options = {}) {
  auto result = std::make_unique<Compiled>();
  result->source = std::make_shared<SourceFile>(path, text);
  result->program = compile_program(result->source, result->diagnostics, options);
  return result;
}

inline const FunctionDecl* find_function(const Program& program, const std::string& name) {
  for (const FunctionDeclPtr& function : program.unit.functions)
    if (function->name == name) return function.get();
  return nullptr;
}

} // namespace fencelab::testing
