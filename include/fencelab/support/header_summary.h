// The one-line description `fencelab list` prints for a kernel: its header comment's first
// paragraph, joined into one line and shortened at a word boundary.
#pragma once

#include <cstddef>
#include <string>

namespace fencelab {

/** Descriptions longer than this many characters are shortened (`kListSummaryWidth` less the
 *  " ..." that marks the cut). */
inline constexpr size_t kListSummaryWidth = 100;

/** The summary of a kernel file's `text`: the first paragraph of the comment it opens with
 *  (`//` lines up to an empty `//` line or the first line that is not a comment; `//@`
 *  directives skipped), its lines joined with one space (a line that ends in a hyphen after a
 *  letter joins the next without one: "Producer-" + "Consumer"), without a leading "NAME: "
 *  that repeats `stem`, the file's name. Longer than `width`, it is cut at the last space that
 *  leaves room for " ..." and ends so; a word longer than that is cut where it must be. */
std::string header_summary(const std::string& text, const std::string& stem, size_t width = kListSummaryWidth);

} // namespace fencelab
