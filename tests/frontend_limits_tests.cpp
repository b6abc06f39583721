// Inputs that once exhausted memory, time or the stack, or printed without bound: the front
// end stops them with one clean diagnostic, and the printed diagnostics stay small.
#include "frontend_helpers.h"

#include "fencelab/frontend/preprocessor.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** `levels` macros A, B, C...: A is `leaf` 16 times, each next one the previous 16 times. */
std::string macro_bomb(int levels, const std::string& leaf) {
  std::string text;
  std::string previous = leaf;
  for (int level = 0; level < levels; ++level) {
    const std::string name(1, char('A' + level));
    text += "#define " + name;
    for (int i = 0; i < 16; ++i)
      text += " " + previous;
    text += "\n";
    previous = name;
  }
  return text;
}

/** The number of lines of `text` that contain `part`. */
size_t count_lines_with(const std::string& text, const std::string& part) {
  size_t count = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    if (text.substr(begin, end - begin).find(part) != std::string::npos) ++count;
    begin = end + 1;
  }
  return count;
}

/** The last line of `text`, without its newline. */
std::string last_line(const std::string& text) {
  const size_t end = text.size() - (text.ends_with('\n') ? 1 : 0);
  const size_t begin = text.rfind('\n', end - 1) + 1;
  return text.substr(begin, end - begin);
}

std::vector<Token> preprocess(const SourceFile& file, DiagnosticSink& sink) {
  Preprocessor preprocessor(sink);
  return preprocessor.run(lex(file, {0, uint32_t(file.text().size())}, sink).tokens);
}

const std::string kLimitMessage = "macro expansion produces more than 1000000 tokens (limit of the preprocessor)";

} // namespace

TEST_CASE("limits: a macro bomb stops at the expansion limit with one error at the use",
          "[frontend][preprocessor][limits]") {
  // 16^7 tokens: before, the recursive expansion allocated until std::bad_alloc (exit 3), or
  // past 6 GB for over a minute where memory allowed; 12 levels (16^12) hung.
  for (const int levels : {7, 12}) {
    const std::string text =
        macro_bomb(levels, "x") + "__global__ void k() { int y = " + std::string(1, char('A' + levels - 1)) + "; }\n";
    auto c = compile_text(text);
    CHECK_FALSE(c->program);
    REQUIRE(c->diagnostics.error_count() == 1);
    const std::string line = std::to_string(levels + 1);
    const std::string name(1, char('A' + levels - 1));
    CHECK(c->rendered() == "k.cu:" + line + ":31: error: " + kLimitMessage + "; stopped expanding '" + name +
                               "' here\n" + std::string(5 - line.size(), ' ') + line +
                               " | __global__ void k() { int y = " + name + "; }\n" +
                               "      |                               ^\n");
  }
}

TEST_CASE("limits: tokens are counted where they are rescanned, empty bodies included",
          "[frontend][preprocessor][limits]") {
  // A is empty: nothing is produced, but 16^10 macro names are rescanned.
  auto empty = compile_text("#define EMPTY\n" + macro_bomb(10, "EMPTY") + "__global__ void k() { J }\n");
  REQUIRE(empty->diagnostics.error_count() == 1);
  CHECK(empty->diagnostics.diagnostics()[0].message.starts_with(kLimitMessage));

  // Four levels of 16 over a 3-token leaf (200,976 tokens rescanned) are within the limit, and compile.
  auto within = compile_text(macro_bomb(4, "++x;") + "__global__ void k() { int x = 0; D }\n");
  INFO(within->rendered());
  CHECK(within->program);
}

TEST_CASE("limits: the budget is the whole file's, directive comments included", "[frontend][preprocessor][limits]") {
  // Each use expands 69,904 tokens: the fifteenth crosses 1,000,000 and is the one reported.
  std::string text = macro_bomb(4, "1") + "//@ launch grid=1 block=1\n";
  for (int i = 0; i < 20; ++i)
    text += "//@ expect all: always D == 0\n";
  text += "__global__ void k() {}\n";
  auto c = compile_text(text);
  CHECK_FALSE(c->program);
  CHECK(c->messages() == "k.cu:20:24: error: " + kLimitMessage + "; stopped expanding 'D' here\n");
}

TEST_CASE("limits: macro expansion is iterative and keeps C11 6.10.3.4", "[frontend][preprocessor][limits]") {
  SECTION("a chain of 100,000 macros (before: a stack overflow)") {
    std::string text = "#define M0 7\n";
    for (int i = 1; i < 100000; ++i)
      text += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + "\n";
    SourceFile file("k.cu", text + "M99999");
    DiagnosticSink sink;
    const std::vector<Token> tokens = preprocess(file, sink);
    CHECK_FALSE(sink.has_errors());
    REQUIRE(tokens.size() == 2);
    CHECK(tokens[0].text == "7");
    CHECK(file.slice(tokens[0].range) == "M99999");
  }
  SECTION("a macro's own name is not replaced again inside it, however deep") {
    SourceFile file("k.cu", "#define A x B A\n#define B A y B\n#define C A C\nA | B | C");
    DiagnosticSink sink;
    std::string spelled;
    for (const Token& token : preprocess(file, sink))
      spelled += std::string(token.text) + " ";
    CHECK_FALSE(sink.has_errors());
    // A -> x B A, B -> A y B (A inside B is not replaced again: A is being expanded).
    CHECK(spelled == "x A y B A | x B A y B | x A y B A C  ");
  }
}

TEST_CASE("limits: 10,000 errors on a 20 KB line print at most 50, each with a window of the line",
          "[frontend][diagnostics][limits]") {
  // Before: 9,999 errors each reprinting the whole line, 300 MB.
  std::string observe = "//@ observe";
  for (int i = 0; i < 10000; ++i)
    observe += " x";
  auto c =
      compile_text("//@ launch grid=1 block=1\n" + observe + "\n__device__ int x;\n__global__ void k() { x = 1; }\n");
  CHECK(c->diagnostics.error_count() == 9999); // all collected; only printing is bounded
  const std::string out = c->rendered();
  CHECK(out.size() < 100 * 1024);
  CHECK(count_lines_with(out, ": error: 'x' is observed twice") == 50);
  CHECK(last_line(out) == "k.cu: 9949 more errors not shown (at most 50 errors are printed)");
  const std::string shown = observe.substr(0, 120);
  CHECK(out.starts_with("k.cu:2:15: error: 'x' is observed twice\n"
                        "    2 | " +
                        shown +
                        "...\n"
                        "      |               ^\n"));
}

TEST_CASE("limits: a long line is cut around the caret, which stays under its character",
          "[frontend][diagnostics][limits]") {
  std::string sum;
  for (int i = 0; i < 60; ++i)
    sum += " + 0";
  SECTION("in the middle: cut on both sides") {
    const std::string line = "__global__ void k() { int y = 0" + sum + " + fo" + sum + "; }";
    auto c = compile_text(line + "\n");
    const size_t caret = line.find("fo");
    const std::string expected = "k.cu:1:" + std::to_string(caret + 1) + ": error: unknown identifier 'fo'\n" +
                                 "    1 | ..." + line.substr(caret - 60, 120) + "...\n" + "      | " +
                                 std::string(3 + 60, ' ') + "^~\n";
    CHECK(c->rendered() == expected);
  }
  SECTION("near the end: cut before only") {
    const std::string line = "__global__ void k() { int y = 0" + sum + sum + " + fo; }";
    auto c = compile_text(line + "\n");
    const size_t caret = line.find("fo");
    const size_t begin = line.size() - 120;
    CHECK(c->rendered() == "k.cu:1:" + std::to_string(caret + 1) + ": error: unknown identifier 'fo'\n" +
                               "    1 | ..." + line.substr(begin) + "\n" + "      | " +
                               std::string(3 + caret - begin, ' ') + "^~\n");
  }
  SECTION("multi-byte characters are never split and take one column each") {
    std::string e_acute, u_umlaut;
    for (int i = 0; i < 100; ++i)
      e_acute += "\xc3\xa9", u_umlaut += "\xc3\xbc";
    auto c = compile_text("__global__ void k() { /* " + e_acute + " */ int y = fo; /* " + u_umlaut + " */ }\n");
    const std::string out = c->rendered();
    const size_t shown = out.find("    1 | ...") + 11;
    const size_t caret_line = out.find("      | ", shown) + 8;
    REQUIRE(caret_line > shown);
    const std::string source = out.substr(shown, out.find('\n', shown) - shown);
    CHECK(source.starts_with("\xc3\xa9"));
    CHECK(source.ends_with("\xc3\xbc..."));
    auto characters = [](const std::string& text) {
      return std::count_if(text.begin(), text.end(),
                           [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; });
    };
    CHECK(out.substr(caret_line) ==
          std::string(3 + size_t(characters(source.substr(0, source.find("fo")))), ' ') + "^~\n");
  }
  SECTION("a range longer than the window: the tildes stop at the cut, the message is cut too") {
    const std::string name(5000, 'a');
    auto c = compile_text("__global__ void k() { int y = " + name + "; }\n");
    const std::string out = c->rendered();
    CHECK(out.size() < 1500);
    CHECK(out.starts_with("k.cu:1:31: error: unknown identifier '" + std::string(980, 'a') +
                          "... (4021 more bytes not shown)\n"));
    CHECK(out.ends_with("    1 | __global__ void k() { int y = " + std::string(90, 'a') + "...\n" +
                        "      |                               ^" + std::string(89, '~') + "\n"));
  }
}

TEST_CASE("limits: the error limit hides the notes and warnings after it, and says so",
          "[frontend][diagnostics][limits]") {
  SourceFile file("k.cu", "a b c\n");
  DiagnosticSink sink;
  sink.error({0, 1}, "first");
  sink.warning({0, 1}, "a warning");
  sink.error({2, 3}, "second");
  sink.error({4, 5}, "third");
  sink.note({4, 5}, "its note");
  std::ostringstream out;
  sink.print(out, file, 2);
  CHECK(out.str() == "k.cu:1:1: error: first\n"
                     "    1 | a b c\n"
                     "      | ^\n"
                     "k.cu:1:1: warning: a warning\n"
                     "    1 | a b c\n"
                     "      | ^\n"
                     "k.cu:1:3: error: second\n"
                     "    1 | a b c\n"
                     "      |   ^\n"
                     "k.cu: 1 more error and 1 warning or note not shown (at most 2 errors are printed)\n");
}

TEST_CASE("limits: observing a large buffer is linear, and messages list a few labels",
          "[frontend][directives][limits]") {
  // Before: 200,000 'observed twice' errors (one per element) found by a quadratic search
  // (95 s), and messages listing every label (2.4 MB each).
  auto c = compile_text("//@ launch grid=1 block=1\n//@ arg buf: int[200000] = zeros\n//@ observe buf buf\n"
                        "//@ expect all: reachable Z=1\n//@ expect all: always buf[199999] == 0 && W == 0\n"
                        "__global__ void k(int* buf) { buf[0] = 1; }\n");
  const std::string labels = "buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7], buf[8], buf[9], "
                             "buf[10], buf[11], buf[12], buf[13], buf[14], buf[15] and 199984 more";
  CHECK(c->messages() == "k.cu:3:17: error: 'buf[0]' is observed twice\n"
                         "k.cu:4:27: error: 'Z' is not an observed item (observed: " +
                             labels +
                             ")\n"
                             "k.cu:5:44: error: 'W' is not an observed item (observed: " +
                             labels + ")\n");

  // A pattern naming 30,000 labels (its duplicate check was quadratic too).
  std::string pattern;
  for (int i = 0; i < 30000; ++i)
    pattern += " buf[" + std::to_string(i) + "]=0";
  auto p = compile_text("//@ launch grid=1 block=1\n//@ arg buf: int[30000] = zeros\n//@ observe buf\n"
                        "//@ expect all: reachable" +
                        pattern + " buf[7]=0\n__global__ void k(int* buf) { buf[0] = 1; }\n");
  CHECK(p->messages() ==
        "k.cu:4:" + std::to_string(26 + pattern.size() + 1) + ": error: 'buf[7]' appears twice in the pattern\n");
}
