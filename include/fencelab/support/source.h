// Source text, source ranges and collected diagnostics.
//
// Every token and AST node carries a SourceRange (byte offsets into one SourceFile). A file's
// project headers (`#include "name.h"`) are read with it and kept after its own text, each as a
// part of its own (SourceFile::Part), so a range still names one place and a position names
// the header it is in. Errors are
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

/** A 1-based line and column, in part `file` of the SourceFile (0: the file itself, else one of
 *  the headers it includes). */
struct LineColumn {
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t file = 0;
};

/** One source file held in memory, with a line index for positions. */
class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  /** Reads a file; returns false (and leaves *error set) when it cannot be read. */
  static bool read(const std::string& path, SourceFile& out, std::string& error);

  /** The file's own path (part 0). */
  const std::string& path() const { return m_parts.front().path; }
  /** The text of every part, one after another. */
  const std::string& text() const { return m_text; }
  std::string_view slice(SourceRange range) const;
  /** The line and column of `offset` in the part it falls in. */
  LineColumn position(uint32_t offset) const;
  /** The text of a 1-based line of part `file`, without its newline. */
  std::string_view line_text(uint32_t line, uint32_t file = 0) const;
  /** Lines of the file itself (part 0). */
  uint32_t line_count() const { return m_parts.front().line_count; }

  /** A file read with this one (a header it includes), kept after the text so far. */
  struct Part {
    std::string path;
    SourceRange range;       ///< its bytes in text()
    uint32_t first_line = 0; ///< index of its first line among all parts' lines
    uint32_t line_count = 0;
  };
  const std::vector<Part>& parts() const { return m_parts; }
  const std::string& path_of(uint32_t file) const { return m_parts.at(file).path; }
  /** Appends a header's text as a new part; its index. */
  uint32_t add_part(std::string path, std::string_view text);
  /** The part that `offset` falls in. */
  uint32_t part_of(uint32_t offset) const;

private:
  std::string m_text;
  std::vector<uint32_t> m_line_starts; ///< over all parts
  std::vector<Part> m_parts;
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
