// The `//@` harness directives (front-end private); grammar in docs/kernel-language.md.
#pragma once

#include "fencelab/frontend/parser.h"
#include "fencelab/frontend/preprocessor.h"
#include "fencelab/frontend/sema.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/** One directive: its `//@` lines joined (a line ending in `\` continues on the next). */
struct DirectiveLine {
  SourceRange range;         ///< from the first token to the end of the last line
  std::vector<Token> tokens; ///< macro-expanded, ending with EndOfFile
  std::string text;          ///< the directive as written, lines joined with a space
};

class DirectiveReader {
public:
  DirectiveReader(Program& program, Sema& sema, Preprocessor& preprocessor,
                  DiagnosticSink& diagnostics)
      : m_program(program), m_sema(sema), m_preprocessor(preprocessor), m_diagnostics(diagnostics) {}
  /** The kernel named on the command line (--kernel), chosen over //@ kernel; empty: none. */
  void set_kernel(std::string name) { m_kernel_override = std::move(name); }

  /** Lexes the `//@` lines and reads `template` (needed before sema folds template parameters). */
  void read(const std::vector<SourceRange>& lines);
  const std::unordered_map<std::string, int64_t>& template_values() const { return m_template_values; }
  /** What `read` found for type template parameters: the parser needs it (parse_templates.cpp). */
  TemplateTypeHints template_type_hints() const;
  /** The kernel file's structs: a buffer may hold them (`//@ arg p: Particle[4]`). */
  void set_struct_types(StructTypes types) { m_struct_types = std::move(types); }
  /** After sema: chooses the kernel, then reads launch, arg, init, observe and expect. */
  void apply();

private:
  struct Pending {
    const DirectiveLine* line;
    std::string keyword;
  };

  // directives.cpp
  void read_template(Parser& parser);
  void note_buffer_element_type(const DirectiveLine& line);
  void choose_kernel();
  void read_launch(Parser& parser);
  bool read_dim(Parser& parser, Dim3& dim);
  void read_arg(Parser& parser, const DirectiveLine& line);
  void read_buffer(Parser& parser, const DirectiveLine& line, const VarDecl& param, size_t index);
  void finish_arguments();
  void read_init(Parser& parser);
  /** A constant integer (or any arithmetic constant when `type` is non-null). */
  std::optional<int64_t> integer_constant(Parser& parser, const std::string& what);
  std::optional<Word> value_constant(Parser& parser, const Type& type, const std::string& what,
                                     bool unary_only = false);

  // directive_outcomes.cpp
  void read_observe(Parser& parser);
  /** Observes each field of the __device__ struct or vector variable `name`; false if none. */
  bool observe_fields(const std::string& name, SourceRange range);
  void default_observed();
  void observe_object(uint32_t object_id, const std::string& name, uint32_t begin, uint32_t end,
                      SourceRange range);
  /** Observes `item`; reports a label observed twice and returns false. */
  bool add_observed(ObservedItem item);
  void read_expect(Parser& parser, const DirectiveLine& line);
  bool read_pattern(Parser& parser, OutcomePattern& pattern);

  /** Finishes a directive: reports tokens left over. */
  void finish(Parser& parser);
  std::optional<uint32_t> buffer_object(const std::string& name) const;

  Program& m_program;
  Sema& m_sema;
  Preprocessor& m_preprocessor;
  DiagnosticSink& m_diagnostics;
  std::vector<DirectiveLine> m_lines;
  std::vector<Pending> m_pending;
  std::unordered_map<std::string, int64_t> m_template_values;
  TemplateTypeHints m_template_type_hints; ///< given types and buffer element types; kernel unset
  const DirectiveLine* m_kernel_line = nullptr;
  std::string m_kernel_override; ///< --kernel NAME
  bool m_has_launch = false;
  /** Per kernel parameter index: the argument read, and the buffer object awaiting an id. */
  std::vector<std::optional<KernelArgument>> m_arguments;
  std::vector<std::optional<MemoryObject>> m_buffers;
  StructTypes m_struct_types;
};

/** splitmix64 (Steele, Lea, Flood 2014): the generator behind `random(SEED, MIN, MAX)`. */
uint64_t splitmix64_next(uint64_t& state);

} // namespace fencelab
