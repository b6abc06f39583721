// Source text, source ranges and collected diagnostics.
//
// Every token and AST node carries a SourceRange (byte offsets into one SourceFile). Errors are
// collected in a DiagnosticSink, never thrown at the first one, and rendered the way editors
// parse them:
//
//   kernel.cu:12:5: error: unknown identifier 'fo'
//      12 |     fo = 1;
//         |     ^~
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

/** A half-open byte range [begin, end) in the one source file being compiled. */
struct SourceRange {
  uint32_t begin = 0;
  uint32_t end = 0;

  /** The smallest range covering both. */
  static SourceRange join(SourceRange a, SourceRange b) {
    return {a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
  }
  friend bool operator==(SourceRange, SourceRange) = default;
};

/** A 1-based line and column. */
struct LineColumn {
  uint32_t line = 1;
  uint32_t column = 1;
};

/** One source file held in memory, with a line index for positions. */
class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  /** Reads a file; returns false (and leaves *error set) when it cannot be read. */
  static bool read(const std::string& path, SourceFile& out, std::string& error);

  const std::string& path() const { return m_path; }
  const std::string& text() const { return m_text; }
  std::string_view slice(SourceRange range) const;
  LineColumn position(uint32_t offset) const;
  /** The text of a 1-based line, without its newline. */
  std::string_view line_text(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(m_line_starts.size()); }

private:
  std::string m_path;
  std::string m_text;
  std::vector<uint32_t> m_line_starts;
};

enum class Severity { Error, Warning, Note };

/** One message tied to a place in the source. */
struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
};

/** Collects diagnostics in the order they were found and renders them with a caret. */
class DiagnosticSink {
public:
  void error(SourceRange range, std::string message);
  void warning(SourceRange range, std::string message);
  void note(SourceRange range, std::string message);

  /** Adds a diagnostic made before (one taken out with take_from). */
  void add(Diagnostic diagnostic);
  /** Removes and returns the diagnostics from index `mark` of diagnostics() on. */
  std::vector<Diagnostic> take_from(size_t mark);

  bool has_errors() const { return m_error_count > 0; }
  size_t error_count() const { return m_error_count; }
  const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }

  /** Errors printed before the rest are summed up in one line (a broken 20 KB line may
   *  give thousands). */
  static constexpr size_t kMaxPrintedErrors = 50;

  /** Prints each diagnostic as `file:line:col: severity: message`, the line and a caret; after
   *  `max_errors` errors, one line `file: N more errors not shown (...)` instead of the rest. */
  void print(std::ostream& out, const SourceFile& file, size_t max_errors = kMaxPrintedErrors) const;

private:
  std::vector<Diagnostic> m_diagnostics;
  size_t m_error_count = 0;
};

/** Renders one diagnostic (shared by the front end and the runtime reports). A source line
 *  longer than 120 bytes is shown as 120 bytes around the caret, "..." marking the cuts; a
 *  message longer than 1,000 bytes is cut the same way. */
std::string render_diagnostic(const Diagnostic& diagnostic, const SourceFile& file);

} // namespace fencelab
