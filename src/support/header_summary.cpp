// The description `fencelab list` prints for a kernel (include/fencelab/support/header_summary.h).
#include "fencelab/support/header_summary.h"

#include <cctype>
#include <sstream>

namespace fencelab {

namespace {

/** The first paragraph of the opening comment, lines joined. */
std::string first_paragraph(const std::string& text) {
  std::istringstream in(text);
  std::string joined;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with("//@")) continue;
    if (!line.starts_with("//")) {
      if (line.find_first_not_of(" \t") == std::string::npos && joined.empty()) continue;
      break;
    }
    const size_t start = line.find_first_not_of(" \t", 2);
    if (start == std::string::npos) { // an empty comment line ends the paragraph
      if (joined.empty()) continue;
      break;
    }
    std::string words = line.substr(start);
    while (!words.empty() && (words.back() == ' ' || words.back() == '\t')) words.pop_back();
    const bool hyphenated = joined.size() >= 2 && joined.back() == '-' &&
                            std::isalpha(static_cast<unsigned char>(joined[joined.size() - 2]));
    if (!joined.empty() && !hyphenated) joined += ' ';
    joined += words;
  }
  return joined;
}

} // namespace

std::string header_summary(const std::string& text, const std::string& stem, size_t width) {
  std::string summary = first_paragraph(text);
  const std::string repeated = stem + ": ";
  if (!stem.empty() && summary.starts_with(repeated)) summary.erase(0, repeated.size());
  const std::string ellipsis = " ...";
  if (summary.size() <= width || width <= ellipsis.size()) return summary;
  // The longest run of whole words that leaves room for the ellipsis.
  const size_t room = width - ellipsis.size();
  size_t cut = summary.rfind(' ', room);
  if (cut == std::string::npos || cut == 0) cut = room; // one word longer than the room
  std::string shortened = summary.substr(0, cut);
  while (!shortened.empty() && shortened.back() == ' ') shortened.pop_back();
  return shortened + ellipsis;
}

} // namespace fencelab
