// Source files, line positions and diagnostic rendering (see support/source.h).
#include "fencelab/support/source.h"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

namespace fencelab {

SourceFile::SourceFile(std::string path, std::string text)
    : m_path(std::move(path)), m_text(std::move(text)) {
  m_line_starts.push_back(0);
  for (uint32_t i = 0; i < m_text.size(); ++i) {
    if (m_text[i] == '\n') m_line_starts.push_back(i + 1);
  }
}

bool SourceFile::read(const std::string& path, SourceFile& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  out = SourceFile(path, buffer.str());
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
  return {line_index + 1, offset - m_line_starts[line_index] + 1};
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > m_line_starts.size()) return {};
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

void DiagnosticSink::warning(SourceRange range, std::string message) {
  m_diagnostics.push_back({Severity::Warning, range, std::move(message)});
}

void DiagnosticSink::note(SourceRange range, std::string message) {
  m_diagnostics.push_back({Severity::Note, range, std::move(message)});
}

void DiagnosticSink::print(std::ostream& out, const SourceFile& file) const {
  for (const Diagnostic& diagnostic : m_diagnostics) out << render_diagnostic(diagnostic, file);
}

namespace {

const char* severity_name(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

} // namespace

std::string render_diagnostic(const Diagnostic& diagnostic, const SourceFile& file) {
  const LineColumn start = file.position(diagnostic.range.begin);
  std::string out = file.path() + ":" + std::to_string(start.line) + ":" +
                    std::to_string(start.column) + ": " + severity_name(diagnostic.severity) +
                    ": " + diagnostic.message + "\n";

  // The source line, then a caret under the first character and tildes under the rest of the
  // range (clipped to this line). Tabs are repeated in the caret line so that columns agree.
  const std::string_view line = file.line_text(start.line);
  std::string number = std::to_string(start.line);
  const size_t width = std::max<size_t>(5, number.size());
  out += std::string(width - number.size(), ' ') + number + " | " + std::string(line) + "\n";
  out += std::string(width, ' ') + " | ";
  const size_t caret = std::min<size_t>(start.column - 1, line.size());
  for (size_t i = 0; i < caret; ++i) out += line[i] == '\t' ? '\t' : ' ';
  out += '^';
  const uint32_t end = std::max(diagnostic.range.end, diagnostic.range.begin);
  const size_t line_end_offset = diagnostic.range.begin - (start.column - 1) + line.size();
  const size_t range_end = std::min<size_t>(end, line_end_offset);
  if (range_end > diagnostic.range.begin + 1)
    out += std::string(range_end - diagnostic.range.begin - 1, '~');
  out += "\n";
  return out;
}

} // namespace fencelab
