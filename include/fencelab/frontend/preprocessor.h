// The preprocessor: `#` lines and object-like macro expansion (front-end private).
#pragma once

#include "fencelab/frontend/lexer.h"

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/**
 * Handles `#define NAME tokens` and `#define NAME(params) tokens` (function-like, with `...`
 * and `#param`; `##` is not supported), `#undef`, `#ifdef`/`#ifndef`/`#if EXPR`/`#elif EXPR`/
 * `#else`/`#endif`, `#include "name"` of a project header read with the file, and
 * `#include <name>` of one found in an `-I` directory (include_files.h; `#pragma once` is
 * honoured), and ignores other `#include <name>`s (system headers) and `#pragma`s. Expanded
 * tokens keep their definition's
 * spelling and take the range of the macro's use; a macro's arguments keep their own.
 *
 * Expansion follows C11 6.10.3: arguments are fully expanded before substitution, and the
 * result is rescanned with the macro's name hidden (each token carries the names it may no
 * longer expand, Prosser's hide sets). It is iterative (a work stack) except for argument
 * pre-expansion, whose nesting is bounded (kMaxArgumentNesting), and bounded in size: the
 * tokens taken from macro bodies and arguments, counted over the whole file (directive
 * comments included), may not exceed kMaxExpandedTokens. Past either limit the use gets one
 * error, and `exhausted()` tells the caller to stop rather than parse a truncated file.
 */
class Preprocessor {
public:
  /** Far above any real kernel (whose macros are constants and short expressions), far below
   *  what exhausts memory or time (about 0.1 s to reach): a chain of macros each using the
   *  previous one 16 times reaches it at the fifth level. */
  static constexpr size_t kMaxExpandedTokens = 1'000'000;
  /** Macro calls nested in a macro's arguments, `F(F(F(x)))`: far above real code. */
  static constexpr int kMaxArgumentNesting = 64;

  /** Headers nested deeper than this are an error (a header that includes itself). */
  static constexpr int kMaxIncludeDepth = 64;

  /** `source`: the file whose tokens run() gets, with its headers as parts (none: `#include`
   *  lines are ignored). */
  explicit Preprocessor(DiagnosticSink& diagnostics, const SourceFile* source = nullptr)
      : m_diagnostics(diagnostics), m_source(source) {}

  /** Runs the `#` lines of a whole file and expands macros; the result ends with EndOfFile. */
  std::vector<Token> run(const std::vector<Token>& tokens);
  /** `-D NAME` (defined as 1) or `-D NAME=VALUE`, as if `#define NAME VALUE` began the file.
   *  NAME must be an identifier (the command line checks it). */
  void define_from_command_line(const std::string& definition);
  /** `-I` directories: where the headers were looked for (read_included_files), so that
   *  `#include` finds the same part. */
  void set_include_directories(std::vector<std::string> directories) { m_include_directories = std::move(directories); }
  /** Expands macros in tokens without `#` lines (directive comments). */
  std::vector<Token> expand(const std::vector<Token>& tokens);

  bool is_defined(std::string_view name) const { return m_macros.find(name) != m_macros.end(); }
  /** The expansion limit was reached (and reported): the tokens returned are incomplete. */
  bool exhausted() const { return m_exhausted; }

private:
  struct Conditional {
    SourceRange range;  ///< the opening `#if...` line
    bool parent_active; ///< the enclosing region is being kept
    bool taking;        ///< this branch is being kept
    bool seen_else = false;
    bool taken = false; ///< some branch so far was kept (#elif and #else then are not)
  };

  /** Appends the tokens of one file (the kernel's or a header's), its `#` lines run, to `out`. */
  void process(const std::vector<Token>& tokens, std::vector<Token>& out);
  /** Processes one `#` line, tokens [begin, end). */
  void directive(const std::vector<Token>& tokens, size_t begin, size_t end);
  /** The header an `#include` line names: `"name"` or `<name>`, and the range of either. */
  struct HeaderName {
    std::string_view name;
    SourceRange range;
    bool quoted = false; ///< `"name"`; else `<name>`
  };
  /** The header name that tokens [begin, end) of an `#include` line start with, if any. */
  std::optional<HeaderName> header_name(const std::vector<Token>& tokens, size_t begin, size_t end) const;
  /** `#include "name"`, or `<name>` found in an `-I` directory: the header's tokens, processed,
   *  where the line stands (C11 6.10.2p3). */
  void include(const std::vector<Token>& tokens, size_t begin, size_t end);
  /** Warns that the header of an `#include` line was not read, unless it is a system or CUDA
   *  header: an angled name in no `-I` directory, or one of CUDA's own names in quotes. */
  void report_unread(const HeaderName& header, uint32_t from);
  void define(const std::vector<Token>& tokens, size_t begin, size_t end);
  /** Evaluates the condition of `#if`/`#elif` (preprocessor_if.cpp); false (reported) if
   *  malformed. */
  bool if_condition(const std::vector<Token>& tokens, size_t begin, size_t end);
  bool active() const { return m_conditionals.empty() || m_conditionals.back().taking; }
  struct Macro {
    bool function_like = false;
    bool variadic = false;            ///< its last parameter is `...` (__VA_ARGS__)
    std::vector<std::string> params;
    std::vector<Token> body;
    /** Its replacement is being rescanned: its name is not replaced there (C11 6.10.3.4p2). */
    bool expanding = false;
  };
  using MacroEntry = std::pair<const std::string, Macro>;
  /** An item of the rescan: a token, or (when `closes` is set) the end of that macro's
   *  replacement, where the macro may be replaced again. */
  struct Pending {
    Token token;
    /** Met while its macro was expanding: never replaced again, wherever it goes (6.10.3.4p2). */
    bool painted = false;
    MacroEntry* closes = nullptr;
  };
  /** Appends `input`, fully macro-expanded, to `out`; false once a limit is reached. */
  bool expand_into(const std::vector<Pending>& input, std::vector<Token>& out, int nesting);
  /** expand_into, keeping each token's painted mark (for arguments, which are rescanned again). */
  bool rescan(const std::vector<Pending>& input, std::vector<Pending>& out, int nesting);
  /** Starts and ends the rescan of `entry`'s replacement. */
  void begin_expansion(MacroEntry& entry);
  void end_expansion(MacroEntry& entry);
  /** Whether the next token in `work` (a stack whose back comes first), past end markers, is `(`. */
  static bool call_follows(const std::vector<Pending>& work);
  /** Paints `item` if it names a macro whose replacement is being rescanned. */
  void paint_if_expanding(Pending& item) const;
  /** Takes the arguments of a call of `macro` from the top of `work` (a stack whose back is
   *  the next token); false (reported) where they are malformed. */
  bool take_arguments(const Token& use, const Macro& macro, std::vector<Pending>& work,
                      std::vector<std::vector<Pending>>& arguments);
  /** `#param`: the argument's spelling as a string literal token. */
  Token stringized(const std::vector<Pending>& argument, SourceRange range);
  /** Counts one token taken from a macro body; reports the limit (once) at `use`. */
  bool take_expanded_token(SourceRange use, std::string_view macro);

  /** Hashes std::string and std::string_view alike, so lookups by a token's text allocate nothing. */
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  using MacroTable = std::unordered_map<std::string, Macro, NameHash, std::equal_to<>>;

  DiagnosticSink& m_diagnostics;
  const SourceFile* m_source = nullptr;
  std::vector<std::string> m_include_directories;
  std::vector<Token>* m_out = nullptr; ///< where run() puts tokens (a header's go there too)
  int m_include_depth = 0;
  std::vector<uint32_t> m_once;        ///< parts that said `#pragma once`
  MacroTable m_macros;
  std::vector<Conditional> m_conditionals;
  size_t m_expanded_tokens = 0; ///< tokens taken from macro bodies so far, the whole file
  std::deque<std::string> m_spellings; ///< the text of stringized arguments (tokens view it)
  std::deque<SourceFile> m_command_line; ///< -D definitions' text (their tokens view it)
  std::vector<MacroEntry*> m_expanding; ///< the macros being rescanned, outermost first
  bool m_exhausted = false;
};

} // namespace fencelab
