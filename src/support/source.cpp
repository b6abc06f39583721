// Source files, line positions and diagnostic rendering (see support/source.h).
#include "fencelab/support/source.h"

#include "fencelab/support/file_text.h"

#include <algorithm>
#include <ostream>

namespace fencelab {

SourceFile::SourceFile(std::string path, std::string text) : m_text(std::move(text)) {
  m_line_starts.push_back(0);
  for (uint32_t i = 0; i < m_text.size(); ++i) {
    if (m_text[i] == '\n') m_line_starts.push_back(i + 1);
  }
  m_parts.push_back(Part{std::move(path), {0, uint32_t(m_text.size())}, 0, uint32_t(m_line_starts.size())});
}

uint32_t SourceFile::add_part(std::string path, std::string_view text) {
  // The text so far ends its last line, then one empty line stands between it and the new part:
  // an offset at the end of a part (its end-of-file token) is then never the next part's start.
  if (!m_text.empty() && m_text.back() != '\n') {
    m_text += '\n';
    m_line_starts.push_back(uint32_t(m_text.size()));
  }
  m_text += '\n';
  m_line_starts.push_back(uint32_t(m_text.size()));
  const uint32_t begin = uint32_t(m_text.size());
  const uint32_t first_line = uint32_t(m_line_starts.size()) - 1;
  m_parts.back().line_count = first_line - 1 - m_parts.back().first_line; // less the empty line
  m_text.append(text);
  for (uint32_t i = begin; i < m_text.size(); ++i)
    if (m_text[i] == '\n') m_line_starts.push_back(i + 1);
  m_parts.push_back(Part{std::move(path), {begin, uint32_t(m_text.size())}, first_line,
                         uint32_t(m_line_starts.size()) - first_line});
  return uint32_t(m_parts.size() - 1);
}

uint32_t SourceFile::part_of(uint32_t offset) const {
  // Parts are in order with a byte between them: the first that does not end before `offset`.
  for (uint32_t k = 0; k + 1 < m_parts.size(); ++k)
    if (offset <= m_parts[k].range.end) return k;
  return uint32_t(m_parts.size() - 1);
}

bool SourceFile::read(const std::string& path, SourceFile& out, std::string& error) {
  std::string text;
  if (!read_file_text(path, text, error)) return false;
  out = SourceFile(path, std::move(text));
  return true;
}

std::string_view SourceFile::slice(SourceRange range) const {
  const uint32_t size = static_cast<uint32_t>(m_text.size());
  const uint32_t begin = std::min(range.begin, size);
  const uint32_t end = std::clamp(range.end, begin, size);
  return std::string_view(m_text).substr(begin, end - begin);
}

LineColumn SourceFile::position(uint32_t offset) const {
  offset = std::min(offset, static_cast<uint32_t>(m_text.size()));
  // The last line start at or before `offset`.
  auto it = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), offset);
  const uint32_t line_index = static_cast<uint32_t>(it - m_line_starts.begin()) - 1;
  const uint32_t file = part_of(offset);
  return {line_index - m_parts[file].first_line + 1, offset - m_line_starts[line_index] + 1, file};
}

std::string_view SourceFile::line_text(uint32_t line, uint32_t file) const {
  if (file >= m_parts.size()) return {};
  const Part& part = m_parts[file];
  if (line == 0 || line > part.line_count) return {};
  line += part.first_line; // among all parts' lines, 1-based
  const uint32_t begin = m_line_starts[line - 1];
  uint32_t end = line < m_line_starts.size() ? m_line_starts[line] - 1
                                              : static_cast<uint32_t>(m_text.size());
  if (end > begin && m_text[end - 1] == '\r') --end;
  return std::string_view(m_text).substr(begin, end - begin);
}

void DiagnosticSink::error(SourceRange range, std::string message) {
  m_diagnostics.push_back({Severity::Error, range, std::move(message)});
  ++m_error_count;
}

void DiagnosticSink::add(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::Error) ++m_error_count;
  m_diagnostics.push_back(std::move(diagnostic));
}

std::vector<Diagnostic> DiagnosticSink::take_from(size_t mark) {
  std::vector<Diagnostic> taken;
  if (mark >= m_diagnostics.size()) return taken;
  taken.assign(std::make_move_iterator(m_diagnostics.begin() + ptrdiff_t(mark)),
               std::make_move_iterator(m_diagnostics.end()));
  m_diagnostics.resize(mark);
  for (const Diagnostic& d : taken)
    if (d.severity == Severity::Error) --m_error_count;
  return taken;
}

void DiagnosticSink::warning(SourceRange range, std::string message) {
  m_diagnostics.push_back({Severity::Warning, range, std::move(message)});
}

void DiagnosticSink::note(SourceRange range, std::string message) {
  m_diagnostics.push_back({Severity::Note, range, std::move(message)});
}

namespace {

// A long source line is shown as a window of this many bytes around the caret, "..." marking
// each cut, so that a diagnostic's size does not grow with its line (a 20 KB `//@ observe`
// line with 10,000 errors printed 300 MB).
constexpr size_t kMaxShownLineBytes = 120;
// Messages quote source text (names, labels), which may be as long as a line.
constexpr size_t kMaxMessageBytes = 1000;
constexpr std::string_view kCut = "...";

const char* severity_name(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/** The characters of UTF-8 text: its bytes less the continuation bytes. */
size_t character_count(std::string_view text) {
  return size_t(std::count_if(text.begin(), text.end(), [](char c) { return !is_utf8_continuation(c); }));
}

/** Blanks as wide as `text`: a tab for each tab, a space for each other character. */
std::string blanks_under(std::string_view text) {
  std::string out;
  for (const char c : text)
    if (!is_utf8_continuation(c)) out += c == '\t' ? '\t' : ' ';
  return out;
}

/** The bytes [begin, end) of a source line that are shown. */
struct LineWindow {
  size_t begin = 0;
  size_t end = 0;
};

// All of a short line; of a long one, kMaxShownLineBytes around the caret (centred, or
// against the line's start or end), widened so that no UTF-8 character is split.
LineWindow line_window(std::string_view line, size_t caret) {
  if (line.size() <= kMaxShownLineBytes) return {0, line.size()};
  size_t begin = caret > kMaxShownLineBytes / 2 ? caret - kMaxShownLineBytes / 2 : 0;
  begin = std::min(begin, line.size() - kMaxShownLineBytes);
  size_t end = begin + kMaxShownLineBytes;
  while (begin > 0 && is_utf8_continuation(line[begin])) --begin;
  while (end < line.size() && is_utf8_continuation(line[end])) ++end;
  return {begin, end};
}

std::string shown_message(const std::string& message) {
  if (message.size() <= kMaxMessageBytes) return message;
  size_t cut = kMaxMessageBytes;
  while (cut > 0 && is_utf8_continuation(message[cut])) --cut;
  return message.substr(0, cut) + std::string(kCut) + " (" + std::to_string(message.size() - cut) +
         " more bytes not shown)";
}

} // namespace

void DiagnosticSink::print(std::ostream& out, const SourceFile& file, size_t max_errors) const {
  size_t shown = 0;
  size_t errors_shown = 0;
  for (; shown < m_diagnostics.size(); ++shown) {
    const bool error = m_diagnostics[shown].severity == Severity::Error;
    // Stop at the first error past the limit; the notes and warnings after it go with it.
    if (error && errors_shown == max_errors) break;
    errors_shown += error ? 1 : 0;
    out << render_diagnostic(m_diagnostics[shown], file);
  }
  if (shown == m_diagnostics.size()) return;
  const size_t hidden_errors = m_error_count - errors_shown;
  const size_t hidden_others = m_diagnostics.size() - shown - hidden_errors;
  out << file.path() << ": " << hidden_errors << " more error" << (hidden_errors == 1 ? "" : "s");
  if (hidden_others > 0)
    out << " and " << hidden_others << (hidden_others == 1 ? " warning or note" : " warnings or notes");
  out << " not shown (at most " << max_errors << " errors are printed)\n";
}

std::string render_diagnostic(const Diagnostic& diagnostic, const SourceFile& file) {
  const LineColumn start = file.position(diagnostic.range.begin);
  std::string out = file.path_of(start.file) + ":" + std::to_string(start.line) + ":" +
                    std::to_string(start.column) + ": " + severity_name(diagnostic.severity) +
                    ": " + shown_message(diagnostic.message) + "\n";

  // The source line (or its window around the caret), then a caret under the first character
  // and tildes under the rest of the range (clipped to what is shown of this line). Tabs are
  // repeated in the caret line and a multi-byte character takes one blank, so that columns
  // agree.
  const std::string_view line = file.line_text(start.line, start.file);
  const size_t caret = std::min<size_t>(start.column - 1, line.size());
  const LineWindow window = line_window(line, caret);
  const std::string_view cut_before = window.begin > 0 ? kCut : "";
  const std::string_view cut_after = window.end < line.size() ? kCut : "";
  std::string number = std::to_string(start.line);
  const size_t width = std::max<size_t>(5, number.size());
  out += std::string(width - number.size(), ' ') + number + " | ";
  out.append(cut_before).append(line.substr(window.begin, window.end - window.begin)).append(cut_after) += '\n';
  out += std::string(width, ' ') + " | " + std::string(cut_before.size(), ' ');
  out += blanks_under(line.substr(window.begin, caret - window.begin)) + '^';
  const uint32_t end = std::max(diagnostic.range.end, diagnostic.range.begin);
  const size_t line_start_offset = diagnostic.range.begin - (start.column - 1);
  const size_t tildes_end = std::min<size_t>(end, line_start_offset + window.end) - line_start_offset;
  if (tildes_end > start.column)
    out += std::string(character_count(line.substr(start.column, tildes_end - start.column)), '~');
  out += "\n";
  return out;
}

} // namespace fencelab
