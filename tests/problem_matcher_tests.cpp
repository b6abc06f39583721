// docs/problem-matcher.json, the GitHub Actions problem matcher for `fencelab check` (issue 71):
// its regex matches every primary diagnostic line of the golden reports (tests/golden/), with
// the file, line, column, severity and kind, and no note line under them.
#include "process_helpers.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using fencelab::testing::file_text;

namespace {

/** The value of the first `"regexp": "..."` of the matcher file, its JSON escapes undone
 *  (`\\` and `\"`: the only ones the file uses). */
std::string matcher_regexp(const std::string& json) {
  const std::string key = "\"regexp\": \"";
  const size_t at = json.find(key);
  REQUIRE(at != std::string::npos);
  std::string value;
  for (size_t i = at + key.size(); i < json.size() && json[i] != '"'; ++i) {
    if (json[i] == '\\' && i + 1 < json.size()) ++i;
    value += json[i];
  }
  return value;
}

/** A primary diagnostic line of a check report: not indented, with `error: ` or `warning: `
 *  (the summary line says "1 error, 0 warnings", the result line "error diagnostic"). */
bool is_primary(const std::string& line) {
  return !line.empty() && line.front() != ' ' &&
         (line.find("error: ") != std::string::npos || line.find("warning: ") != std::string::npos);
}

} // namespace

TEST_CASE("the problem matcher's regex matches every primary line of the golden reports and no note",
          "[cli][matcher][golden]") {
  const std::string root = FENCELAB_SOURCE_DIR;
  const std::regex pattern(matcher_regexp(file_text(root + "/docs/problem-matcher.json")), std::regex::ECMAScript);
  const std::regex summary("^summary: (\\d+) errors?, (\\d+) warnings?");
  size_t files = 0, primaries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root + "/tests/golden")) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    std::istringstream lines(file_text(entry.path().string()));
    std::string line;
    size_t errors = 0, warnings = 0, summary_errors = SIZE_MAX, summary_warnings = SIZE_MAX;
    while (std::getline(lines, line)) {
      INFO(entry.path().filename().string() << ": " << line);
      std::smatch match;
      const bool matched = std::regex_match(line, match, pattern);
      std::smatch counts;
      if (std::regex_search(line, counts, summary)) {
        summary_errors = std::stoul(counts[1].str());
        summary_warnings = std::stoul(counts[2].str());
      }
      if (!is_primary(line)) {
        CHECK(!matched); // notes, sites, expectations: not problems of their own
        continue;
      }
      REQUIRE(matched);
      ++primaries;
      // The file opens from the repository's root, and the line has that many lines.
      const std::string file = match[1].str();
      const int line_number = std::stoi(match[2].str());
      CHECK(std::stoi(match[3].str()) >= 1);
      const std::string source = file_text(root + "/" + file);
      CHECK(!source.empty());
      CHECK(line_number >= 1);
      CHECK(line_number <= static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1);
      CHECK(match[5].length() > 0);
      CHECK(match[6].matched); // the kind, as `[data-race]`
      (match[4].str() == "error" ? errors : warnings) += 1;
    }
    INFO(entry.path().filename().string());
    // "summary: 1 error, 0 warnings": every counted finding has a matched line.
    CHECK(errors == summary_errors);
    CHECK(warnings == summary_warnings);
  }
  CHECK(files == 24);
  CHECK(primaries > 0);
}

TEST_CASE("the problem matcher reads the front end's diagnostics too", "[cli][matcher]") {
  const std::regex pattern(matcher_regexp(file_text(std::string(FENCELAB_SOURCE_DIR) + "/docs/problem-matcher.json")),
                           std::regex::ECMAScript);
  std::smatch match;
  const std::string line = "kernels/k.cu:12:5: error: use of undeclared identifier 'x'";
  REQUIRE(std::regex_match(line, match, pattern));
  CHECK(match[1].str() == "kernels/k.cu");
  CHECK(match[2].str() == "12");
  CHECK(match[3].str() == "5");
  CHECK(match[4].str() == "error");
  CHECK(match[5].str() == "use of undeclared identifier 'x'");
  CHECK(!match[6].matched);
  const std::string indented_note = "  kernels/k.cu:12:5: note: waits by (0,0,0)";
  const std::string note = "kernels/k.cu:12:5: note: declared here";
  CHECK(!std::regex_match(indented_note, match, pattern));
  CHECK(!std::regex_match(note, match, pattern));
}
