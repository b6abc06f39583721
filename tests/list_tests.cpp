// `fencelab list` (issue 71): every path it prints opens when pasted (relative to the current
// directory, or absolute), and a description is the header's first paragraph, shortened only at
// a word boundary.
#include "fencelab/support/header_summary.h"
#include "process_helpers.h"

#include <cctype>
#include <filesystem>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

struct Listed {
  std::string path;
  std::string description;
};

/** The kernel lines of `list`'s output (all but the closing "N kernels"): the path, two or
 *  more spaces, the description. */
std::vector<Listed> listed(const std::string& output) {
  std::vector<Listed> rows;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const size_t gap = line.find("  ");
    if (gap == std::string::npos) continue;
    const size_t description = line.find_first_not_of(' ', gap);
    rows.push_back({line.substr(0, gap), description == std::string::npos ? "" : line.substr(description)});
  }
  return rows;
}

} // namespace

TEST_CASE("header_summary joins the first paragraph and drops the repeated name", "[list]") {
  const std::string text = "// mp_inter: MP (message passing).\n"
                           "// Placement: threads in different blocks.\n"
                           "//\n"
                           "// The writer stores data x then flag y.\n"
                           "//@ launch grid=2 block=1\n";
  CHECK(header_summary(text, "mp_inter") == "MP (message passing). Placement: threads in different blocks.");
  // Another file's name is not dropped.
  CHECK(header_summary(text, "sb_inter") == "mp_inter: MP (message passing). Placement: threads in different blocks.");
  // Blank lines before the comment, trailing spaces, a CR and a directive inside it.
  CHECK(header_summary("\n// one  \r\n//@ kernel k\n// two\n__global__ void k() {}\n", "k") == "one two");
  // A word broken with a hyphen at the end of a line is joined again; a dash is not a hyphen.
  CHECK(header_summary("// the Producer-\n// Consumer pattern -\n// done\n", "x") == "the Producer-Consumer pattern - done");
  CHECK(header_summary("__global__ void k() {}\n// late comment\n", "k") == "");
}

TEST_CASE("header_summary shortens a long paragraph at a word boundary, never inside a word", "[list]") {
  const std::string text = "// alpha beta gamma delta epsilon\n";
  CHECK(header_summary(text, "k", 40) == "alpha beta gamma delta epsilon");
  CHECK(header_summary(text, "k", 30) == "alpha beta gamma delta epsilon");
  CHECK(header_summary(text, "k", 29) == "alpha beta gamma delta ...");
  CHECK(header_summary(text, "k", 26) == "alpha beta gamma delta ...");
  CHECK(header_summary(text, "k", 25) == "alpha beta gamma ...");
  // One word longer than the room is cut where it must be.
  CHECK(header_summary("// abcdefghijklmnop qr\n", "k", 10) == "abcdef ...");
}

TEST_CASE("list prints paths that open from the current directory, and absolute ones for an absolute directory",
          "[list][cli]") {
  const std::string source = FENCELAB_SOURCE_DIR;
  const std::string binary = FENCELAB_BINARY;
  struct Case {
    std::string command;
    std::string directory; ///< where the command runs, against which a relative path resolves
  };
  const std::vector<Case> cases = {
      {"cd '" + source + "' && '" + binary + "' list kernels", source},
      {"cd '" + source + "/kernels' && '" + binary + "' list ../kernels/litmus", source + "/kernels"},
      {"cd '" + source + "' && '" + binary + "' list '" + source + "/kernels/fences'", source},
      // Without a directory, outside the source tree: the source tree's catalogue, absolute.
      {"cd / && '" + binary + "' list", "/"},
  };
  for (const Case& c : cases) {
    INFO(c.command);
    const ProcessResult run = run_process(c.command, false);
    CHECK(run.exit_code == 0);
    const std::vector<Listed> rows = listed(run.output);
    REQUIRE(rows.size() >= 2);
    const bool absolute = c.command.ends_with("list") || c.command.ends_with("fences'");
    for (const Listed& row : rows) {
      INFO(row.path);
      CHECK(std::filesystem::path(row.path).is_absolute() == absolute);
      const std::filesystem::path opened =
          absolute ? std::filesystem::path(row.path) : std::filesystem::path(c.directory) / row.path;
      CHECK(std::filesystem::is_regular_file(opened));
      CHECK(opened.extension() == ".cu");
    }
  }
}

TEST_CASE("list's descriptions end at a word of the header, within the width", "[list][cli]") {
  const std::string source = FENCELAB_SOURCE_DIR;
  const ProcessResult run = run_process("cd '" + source + "' && '" + FENCELAB_BINARY + "' list kernels", false);
  REQUIRE(run.exit_code == 0);
  const std::vector<Listed> rows = listed(run.output);
  REQUIRE(rows.size() >= 100);
  size_t shortened = 0;
  for (const Listed& row : rows) {
    INFO(row.path << ": " << row.description);
    CHECK(!row.description.empty());
    CHECK(row.description.size() <= kListSummaryWidth);
    std::string kept = row.description;
    if (kept.ends_with(" ...")) {
      kept.resize(kept.size() - 4);
      ++shortened;
    }
    // The last word kept is whole: in the header it is followed by a space, a line break or
    // punctuation, not by more letters.
    // (A word the summary joined across a line's hyphen is in the header as its last part.)
    std::string last = kept.substr(kept.rfind(' ') + 1);
    if (last.find('-') != std::string::npos && last.back() != '-') last = last.substr(last.rfind('-') + 1);
    const std::string header = file_text(source + "/" + row.path);
    bool whole = false;
    for (size_t at = header.find(last); at != std::string::npos && !whole; at = header.find(last, at + 1)) {
      const size_t after = at + last.size();
      whole = after == header.size() || !std::isalnum(static_cast<unsigned char>(header[after]));
    }
    CHECK(whole);
  }
  // Some headers open with a paragraph longer than the width (the catalogue's have up to 4 lines).
  CHECK(shortened > 0);
}
