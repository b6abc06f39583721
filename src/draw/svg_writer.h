// A small writer of SVG 1.1 documents: shapes, text (escaped) and arrow markers. Coordinates
// are user units (1 unit = 1 CSS pixel at 100%).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

class SvgWriter {
public:
  /** Opens the document; `title` becomes its <title> (shown as a tooltip, read by screen readers). */
  SvgWriter(double width, double height, std::string_view title);

  /** An arrowhead marker filled with `colour`, referred to as url(#id). */
  void arrow_marker(std::string_view id, std::string_view colour);
  void rect(double x, double y, double width, double height, std::string_view style, double radius = 0);
  void line(double x1, double y1, double x2, double y2, std::string_view style);
  void circle(double cx, double cy, double r, std::string_view style);
  void path(std::string_view d, std::string_view style);
  /** `anchor`: start, middle or end. */
  void text(double x, double y, std::string_view content, std::string_view style, std::string_view anchor = "start");
  /** A tooltip for the next shapes: opens a <g> with a <title>; close with end_group(). */
  void begin_group(std::string_view tooltip);
  void end_group();

  /** Closes the document and returns it. */
  std::string finish();

private:
  std::string m_out;
  bool m_defs_open = false;
  void close_defs();
};

/** Breaks `text` into lines of at most `width` characters at spaces. */
std::vector<std::string> wrap_text(std::string_view text, size_t width);

} // namespace fencelab
