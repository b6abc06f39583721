// The README's example outputs are the program's, byte for byte. An example is a fenced code
// block whose first line is `$ fencelab ARGUMENTS`; the rest of the block is what
// `fencelab ARGUMENTS` prints on standard output, run by bash from the repository's root (as
// tools/update-readme runs it to rewrite the blocks). A block that differs fails here.
#include "process_helpers.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

using namespace fencelab::testing;

namespace {

struct Example {
  size_t line = 0;      ///< 1-based line of the `$ fencelab` command
  std::string command;  ///< what follows `$ fencelab`
  std::string expected; ///< the block's other lines, each ending in a newline
};

/** The examples of a Markdown text, by the rule above. A fence is three or more backticks; the
 *  block ends at the next line that starts with the same run of backticks. */
std::vector<Example> examples_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<Example> examples;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("```")) continue;
    const std::string fence = lines[i].substr(0, lines[i].find_first_not_of('`'));
    size_t end = i + 1;
    while (end < lines.size() && !lines[end].starts_with(fence)) ++end;
    if (i + 1 < end && lines[i + 1].starts_with("$ fencelab ")) {
      Example example{i + 2, lines[i + 1].substr(std::string("$ fencelab").size()), ""};
      for (size_t j = i + 2; j < end; ++j) example.expected += lines[j] + "\n";
      examples.push_back(example);
    }
    i = end;
  }
  return examples;
}

} // namespace

TEST_CASE("examples are found in fenced blocks that start with $ fencelab, and only there", "[readme]") {
  const std::string text = "intro\n"
                           "```sh\n"
                           "fencelab run k.cu\n"
                           "```\n"
                           "```console\n"
                           "$ fencelab list kernels/fences\n"
                           "a\n"
                           "\n"
                           "b\n"
                           "```\n"
                           "$ fencelab outside a block\n"
                           "````\n"
                           "$ fencelab explore 'k.cu' 2>&1\n"
                           "```\n"
                           "````\n";
  const std::vector<Example> found = examples_of(text);
  REQUIRE(found.size() == 2);
  CHECK(found[0].line == 6);
  CHECK(found[0].command == " list kernels/fences");
  CHECK(found[0].expected == "a\n\nb\n");
  CHECK(found[1].line == 13);
  CHECK(found[1].command == " explore 'k.cu' 2>&1");
  CHECK(found[1].expected == "```\n");
}

TEST_CASE("every README example output is what the program prints (tools/update-readme rewrites them)",
          "[readme]") {
  const std::string readme = file_text(std::string(FENCELAB_SOURCE_DIR) + "/README.md");
  REQUIRE(!readme.empty());
  const std::vector<Example> examples = examples_of(readme);
  // The first five minutes' explore, explain, replay, check and list at least.
  CHECK(examples.size() >= 5);
  for (const Example& example : examples) {
    INFO("README.md line " << example.line << ": $ fencelab" << example.command);
    const ProcessResult run = run_process(
        "cd '" + std::string(FENCELAB_SOURCE_DIR) + "' && '" + FENCELAB_BINARY + "'" + example.command, false);
    CHECK(run.exit_code >= 0);
    CHECK(run.output == example.expected);
  }
}

TEST_CASE("the README stays under 400 lines and names only options that exist", "[readme]") {
  const std::string source = FENCELAB_SOURCE_DIR;
  const std::string readme = file_text(source + "/README.md");
  CHECK(std::count(readme.begin(), readme.end(), '\n') < 400);
  // What the program's help says, for the program and each command.
  std::string help = run_process(std::string("'") + FENCELAB_BINARY + "' --help", false).output;
  for (const char* command : {"run", "explore", "replay", "list", "explain", "check", "gpu", "compare", "draw", "report"})
    help += run_process(std::string("'") + FENCELAB_BINARY + "' " + command + " --help", false).output;
  // The tools' options are in their scripts; cmake's and ctest's are theirs.
  std::string tools;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source + "/tools"))
    if (entry.is_regular_file()) tools += file_text(entry.path().string());
  const std::vector<std::string> build_tools = {"--build", "--test-dir", "--output-on-failure"};
  size_t named = 0;
  for (size_t at = readme.find("--"); at != std::string::npos; at = readme.find("--", at + 2)) {
    if (at + 2 >= readme.size() || !std::islower(static_cast<unsigned char>(readme[at + 2]))) continue;
    if (at > 0 && readme[at - 1] == '-') continue; // inside "---", a table's rule
    size_t end = at + 2;
    while (end < readme.size() && (std::islower(static_cast<unsigned char>(readme[end])) || readme[end] == '-' ||
                                   std::isdigit(static_cast<unsigned char>(readme[end]))))
      ++end;
    const std::string option = readme.substr(at, end - at);
    ++named;
    INFO(option);
    const auto whole_in = [&option](const std::string& text) {
      for (size_t found = text.find(option); found != std::string::npos; found = text.find(option, found + 1)) {
        const size_t after = found + option.size();
        if (after == text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '-'))
          return true;
      }
      return false;
    };
    CHECK((whole_in(help) || whole_in(tools) ||
           std::find(build_tools.begin(), build_tools.end(), option) != build_tools.end()));
  }
  CHECK(named >= 10);
}
