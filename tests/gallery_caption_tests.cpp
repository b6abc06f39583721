// The captions of README.md and docs/gallery.md are what `explain` says. tools/gallery writes
// them: after each line "<!-- caption: fencelab explain FILE TOKEN ... -->", one quoted line
// ("> ...") per sentence. Here each caption is compared with the sentences the in-process
// explanation gives for the same token (the command prints exactly those, indented).
#include "fencelab/draw/witness_pictures.h"
#include "machine_helpers.h"

#include <fstream>
#include <regex>
#include <sstream>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

} // namespace

TEST_CASE("the gallery's captions are what explain says of their witness (tools/gallery rewrites them)",
          "[explain][gallery]") {
  const std::regex marker(R"(<!-- caption: fencelab explain (\S+) (\S+) .*-->)");
  size_t captions = 0;
  for (const char* document : {"README.md", "docs/gallery.md"}) {
    const std::vector<std::string> lines = lines_of(std::string(FENCELAB_SOURCE_DIR) + "/" + document);
    REQUIRE(!lines.empty());
    for (size_t i = 0; i < lines.size(); ++i) {
      std::smatch found;
      if (!std::regex_match(lines[i], found, marker)) continue;
      ++captions;
      const std::string file = found[1], text = found[2];
      INFO(document << " line " << i + 1 << ": " << file << " " << text);
      std::vector<std::string> quoted;
      for (size_t j = i + 1; j < lines.size() && lines[j].starts_with("> "); ++j) quoted.push_back(lines[j].substr(2));
      std::string error;
      const auto token = ReplayToken::decode(text, error);
      REQUIRE(token);
      Kernel k = kernel_from_file(std::string(FENCELAB_SOURCE_DIR) + "/" + file);
      const auto witness = record_witness(k.program(), MachineOptions{}, *token, error);
      INFO(error);
      REQUIRE(witness);
      const Explanation explanation = explain_witness(k.program(), MachineOptions{}, *witness, std::nullopt);
      CHECK(quoted == explanation.sentences);
    }
  }
  // README's write_read_xy caption, the gallery's and its IRIW caption.
  CHECK(captions >= 3);
}
