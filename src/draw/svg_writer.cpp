// SvgWriter (svg_writer.h). Every string that reaches the document goes through
// escape_markup, so kernel text (`a < b && c`) cannot break it (XML 1.0, section 2.4).
#include "svg_writer.h"

#include "fencelab/draw/pictures.h"

#include <fmt/format.h>
#include <vector>

namespace fencelab {

std::string escape_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default:
      // Control characters other than tab and newline are not allowed in XML 1.0 (section 2.2).
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
      else out += c;
    }
  }
  return out;
}

SvgWriter::SvgWriter(double width, double height, std::string_view title) {
  m_out = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
                      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
                      "font-size=\"12\">\n<title>{2}</title>\n",
                      width, height, escape_markup(title));
  m_out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, height);
}

void SvgWriter::arrow_marker(std::string_view id, std::string_view colour) {
  if (!m_defs_open) {
    m_out += "<defs>\n";
    m_defs_open = true;
  }
  m_out += fmt::format("<marker id=\"{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
                       "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" "
                       "fill=\"{}\"/></marker>\n",
                       escape_markup(id), escape_markup(colour));
}

void SvgWriter::close_defs() {
  if (!m_defs_open) return;
  m_out += "</defs>\n";
  m_defs_open = false;
}

void SvgWriter::rect(double x, double y, double width, double height, std::string_view style, double radius) {
  close_defs();
  m_out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"{:.1f}\" style=\"{}\"/>\n",
                       x, y, width, height, radius, escape_markup(style));
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view style) {
  close_defs();
  m_out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" style=\"{}\"/>\n", x1, y1, x2,
                       y2, escape_markup(style));
}

void SvgWriter::circle(double cx, double cy, double r, std::string_view style) {
  close_defs();
  m_out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" style=\"{}\"/>\n", cx, cy, r,
                       escape_markup(style));
}

void SvgWriter::path(std::string_view d, std::string_view style) {
  close_defs();
  m_out += fmt::format("<path d=\"{}\" style=\"{}\"/>\n", escape_markup(d), escape_markup(style));
}

void SvgWriter::text(double x, double y, std::string_view content, std::string_view style, std::string_view anchor) {
  close_defs();
  m_out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\" style=\"{}\">{}</text>\n", x, y,
                       escape_markup(anchor), escape_markup(style), escape_markup(content));
}

void SvgWriter::begin_group(std::string_view tooltip) {
  close_defs();
  m_out += fmt::format("<g><title>{}</title>\n", escape_markup(tooltip));
}

void SvgWriter::end_group() { m_out += "</g>\n"; }

std::string SvgWriter::finish() {
  close_defs();
  m_out += "</svg>\n";
  return std::move(m_out);
}

std::vector<std::string> wrap_text(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string current;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!current.empty() && current.size() + 1 + word.size() > width) {
      lines.push_back(std::move(current));
      current.clear();
    }
    if (!current.empty()) current += ' ';
    current += word;
    start = end + 1;
  }
  if (!current.empty()) lines.push_back(std::move(current));
  return lines;
}

} // namespace fencelab
