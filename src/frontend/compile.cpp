// The front end's entry point: lex, preprocess, parse, read directives, check (see compile.h).
#include "fencelab/frontend/compile.h"

#include "fencelab/frontend/directives.h"

namespace fencelab {

std::unique_ptr<Program> compile_program(std::shared_ptr<const SourceFile> source,
                                         DiagnosticSink& diagnostics, const CompileOptions& options) {
  auto program = std::make_unique<Program>();
  program->source = source;
  const SourceRange whole{0, uint32_t(source->text().size())};
  LexResult lexed = lex(*source, whole, diagnostics);
  Preprocessor preprocessor(diagnostics);
  for (const std::string& definition : options.defines) preprocessor.define_from_command_line(definition);
  std::vector<Token> tokens = preprocessor.run(lexed.tokens);
  // Past the expansion limit the tokens are cut short: parsing them would only add errors
  // about the cut to the one that explains it.
  if (preprocessor.exhausted()) return nullptr;
  Parser parser(std::move(tokens), diagnostics);
  program->unit = parser.parse_translation_unit();

  Sema sema(*program, diagnostics);
  DirectiveReader directives(*program, sema, preprocessor, diagnostics);
  directives.set_kernel(options.kernel);
  directives.read(lexed.directive_lines); // `template` values are needed by sema
  if (preprocessor.exhausted()) return nullptr;
  sema.set_template_values(directives.template_values());
  sema.check_unit();
  directives.apply();
  sema.size_dynamic_shared(); // `extern __shared__` arrays take their size from the launch
  if (diagnostics.has_errors()) return nullptr;
  return program;
}

} // namespace fencelab
