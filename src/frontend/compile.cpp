// The front end's entry point: lex, preprocess, parse, read directives, check (see compile.h).
#include "fencelab/frontend/compile.h"

#include "fencelab/frontend/directives.h"

#include <fmt/format.h>

namespace fencelab {

namespace {

/** One compilation into `diagnostics`; `deduced` receives the types sema deduced for type
 *  template parameters that nothing bound (empty when none were needed). */
std::unique_ptr<Program> compile_once(std::shared_ptr<const SourceFile> source, DiagnosticSink& diagnostics,
                                      const CompileOptions& options,
                                      const std::unordered_map<std::string, Type>& deduced_before,
                                      std::unordered_map<std::string, Type>& deduced,
                                      std::optional<SourceRange>& cascade_from) {
  auto program = std::make_unique<Program>();
  program->source = source;
  // The file's own text: its headers' parts are lexed where they are included.
  LexResult lexed = lex(*source, source->parts().front().range, diagnostics);
  Preprocessor preprocessor(diagnostics, source.get());
  // What nvcc defines when it compiles device code (nvcc documentation, "Virtual Architecture
  // Macros"), for the GPU fencelab models, an H100 (compute capability 9.0): code under
  // `#if __CUDA_ARCH__ >= 700` is device code here too, not silently dropped. -D overrides.
  // `__managed__` is a macro in CUDA's own headers too (host_defines.h); a managed variable
  // lives in global memory (Programming Guide, "Unified Memory", __managed__), which is all
  // that device code sees of it.
  // Likewise the CUDA 12.4 toolkit's version macros (cuda_runtime_api.h, nvcc's
  // __CUDACC_VER_*__), C++17's __cplusplus (nvcc's default dialect) and __linux__, which sample
  // files test before their kernels. `__align__(n)`, `__launch_bounds__(...)` and `__restrict`
  // change nothing the models see (alignment of what fencelab lays out itself, occupancy,
  // aliasing promises to the optimizer): they are empty.
  for (const char* predefined :
       {"__CUDACC__", "__NVCC__", "__CUDA_ARCH__=900", "__managed__=__device__", "CUDART_VERSION=12040",
        "__CUDACC_VER_MAJOR__=12", "__CUDACC_VER_MINOR__=4", "__CUDACC_VER_BUILD__=0", "__cplusplus=201703L",
        "__linux__", "__align__(n)=", "__builtin_align__(n)=", "__launch_bounds__(...)=", "__restrict="})
    preprocessor.define_from_command_line(predefined);
  for (const std::string& definition : options.defines) preprocessor.define_from_command_line(definition);
  preprocessor.set_include_directories(options.include_directories);
  std::vector<Token> tokens = preprocessor.run(lexed.tokens);
  // Past the expansion limit the tokens are cut short: parsing them would only add errors
  // about the cut to the one that explains it.
  if (preprocessor.exhausted()) return nullptr;
  // The directives are lexed first: `template` gives the parser the types of type template
  // parameters and sema the values of the others.
  Sema sema(*program, diagnostics);
  DirectiveReader directives(*program, sema, preprocessor, diagnostics);
  directives.set_kernel(options.kernel);
  directives.read(lexed.directive_lines);
  if (preprocessor.exhausted()) return nullptr;
  Parser parser(std::move(tokens), diagnostics);
  TemplateTypeHints hints = directives.template_type_hints();
  for (const auto& [name, type] : deduced_before) hints.given.emplace(name, type);
  parser.set_template_type_hints(std::move(hints));
  program->unit = parser.parse_translation_unit();
  cascade_from = parser.first_unsupported_template();
  directives.set_struct_types(parser.struct_types());

  sema.set_template_values(directives.template_values());
  sema.check_unit();
  deduced = sema.deduced_template_types();
  if (!deduced.empty()) return nullptr;
  directives.apply();
  sema.size_dynamic_shared(); // `extern __shared__` arrays take their size from the launch
  if (diagnostics.has_errors()) return nullptr;
  return program;
}

/**
 * Copies `from`'s diagnostics into `to`. Past `cascade_from` (an unsupported struct template,
 * whose name and members stay unknown), errors mostly follow from it ("unknown identifier",
 * "expected '('", member access on a variable of its type): they are left out, with the notes
 * attached to them, and one note says how many.
 */
void forward(const DiagnosticSink& from, DiagnosticSink& to, std::optional<SourceRange> cascade_from) {
  size_t left_out = 0;
  bool leaving_notes_out = false;
  for (const Diagnostic& diagnostic : from.diagnostics()) {
    if (diagnostic.severity == Severity::Error) {
      leaving_notes_out = cascade_from && diagnostic.range.begin > cascade_from->begin;
      if (leaving_notes_out) ++left_out;
    }
    if (leaving_notes_out && diagnostic.severity != Severity::Warning) continue;
    switch (diagnostic.severity) {
    case Severity::Error: to.error(diagnostic.range, diagnostic.message); break;
    case Severity::Warning: to.warning(diagnostic.range, diagnostic.message); break;
    case Severity::Note: to.note(diagnostic.range, diagnostic.message); break;
    }
  }
  if (left_out > 0)
    to.note(*cascade_from, fmt::format("{} later error{} not shown: they may follow from this one (the code after the "
                                       "template uses it); rewrite the template as a plain struct first",
                                       left_out, left_out == 1 ? " is" : "s are"));
}

} // namespace

std::unique_ptr<Program> compile_program(std::shared_ptr<const SourceFile> source,
                                         DiagnosticSink& diagnostics, const CompileOptions& options) {
  // A type template parameter that neither `//@ template` nor the kernel's buffers bind is
  // deduced from the first call that fixes it; the parser has by then read the template with a
  // stand-in type, so the file is compiled a second time with the deduced types given. Only
  // the last compilation's diagnostics are kept.
  std::unordered_map<std::string, Type> deduced, deduced_before;
  DiagnosticSink first;
  std::optional<SourceRange> cascade_from;
  std::unique_ptr<Program> program = compile_once(source, first, options, deduced_before, deduced, cascade_from);
  if (deduced.empty()) {
    forward(first, diagnostics, cascade_from);
    return program;
  }
  deduced_before = std::move(deduced);
  DiagnosticSink second;
  program = compile_once(source, second, options, deduced_before, deduced, cascade_from);
  forward(second, diagnostics, cascade_from);
  if (!deduced.empty()) { // cannot happen: every parameter the first pass deduced is now given
    diagnostics.error(SourceRange{0, 0}, "internal: template deduction did not settle");
    return nullptr;
  }
  return program;
}

} // namespace fencelab
