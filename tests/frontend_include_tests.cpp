// Project headers: `#include "name"` read next to the including file, lexed where the line stands.
#include "fencelab/frontend/include_files.h"
#include "frontend_helpers.h"
#include "process_helpers.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** A directory of its own under /tmp for one test case's files, removed at the end. */
class TempDirectory {
public:
  explicit TempDirectory(const std::string& name)
      : m_path(std::filesystem::temp_directory_path() / ("fencelab_" + std::to_string(::getpid()) + "_" + name)) {
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~TempDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  /** Writes `text` to `relative` (its directories made) and returns the whole path. */
  std::string write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path path = m_path / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

private:
  std::filesystem::path m_path;
};

/** Reads the kernel file at `path` with its headers (looked for in `include_directories` too,
 *  as `-I` does) and compiles it. */
std::unique_ptr<Compiled> compile_file(const std::string& path, const std::vector<std::string>& include_directories = {}) {
  SourceFile file("", "");
  std::string error;
  REQUIRE(SourceFile::read(path, file, error));
  read_included_files(file, include_directories);
  auto result = std::make_unique<Compiled>();
  result->source = std::make_shared<const SourceFile>(std::move(file));
  CompileOptions options;
  options.include_directories = include_directories;
  result->program = compile_program(result->source, result->diagnostics, options);
  return result;
}

} // namespace

TEST_CASE("include: a source file's parts keep their own paths and line numbers", "[frontend][include]") {
  SourceFile file("k.cu", "line one\nline two");
  const uint32_t header = file.add_part("h.h", "first\nsecond\n");
  REQUIRE(header == 1);
  CHECK(file.line_count() == 2);
  CHECK(file.line_text(2) == "line two");
  CHECK(file.line_text(3).empty()); // part 0 has two lines
  CHECK(file.line_text(2, header) == "second");
  const uint32_t second = uint32_t(file.text().find("second"));
  const LineColumn at = file.position(second + 2);
  CHECK(at.file == header);
  CHECK(at.line == 2);
  CHECK(at.column == 3);
  CHECK(file.path_of(at.file) == "h.h");
  CHECK(file.position(3).file == 0);
  CHECK(file.position(3).line == 1);
  // The end of a part (where its end-of-file token stands) is still in it, also when the file
  // ends with a newline.
  SourceFile ended("k.cu", "int x;\n");
  ended.add_part("h.h", "int y;\n");
  CHECK(ended.position(7).file == 0);
  CHECK(ended.position(7).line == 2);
  CHECK(ended.position(uint32_t(ended.text().find('y'))).file == 1);
  CHECK(ended.position(uint32_t(ended.text().find('y'))).line == 1);
}

TEST_CASE("include: project headers provide macros, functions and variables, nested and guarded",
          "[frontend][include]") {
  const TempDirectory dir("include_nested");
  dir.write("common.h", "#pragma once\n#include \"sub/more.h\"\n#define N 2\n__device__ int flag;\n");
  dir.write("sub/more.h", "#ifndef MORE_H\n#define MORE_H\n#include \"../common.h\"\n"
                          "__device__ int twice(int x) { return 2 * x; }\n#endif\n");
  const std::string kernel = dir.write("k.cu", "//@ launch grid=1 block=N\n#include \"cuda_runtime.h\"\n"
                                               "#include <stdio.h>\n#include \"common.h\"\n#include \"common.h\"\n"
                                               "__device__ int out[N];\n"
                                               "__global__ void k() { out[threadIdx.x] = twice(N) + flag; }\n");
  const auto compiled = compile_file(kernel);
  INFO(compiled->rendered());
  REQUIRE(compiled->program != nullptr);
  CHECK(compiled->diagnostics.diagnostics().empty());
  CHECK(compiled->program->launch.block.x == 2);
  CHECK(find_function(*compiled->program, "twice") != nullptr);
  CHECK(compiled->source->parts().size() == 3);
}

TEST_CASE("include: an error in a header names the header and its own line, one at the end of the kernel file "
          "names the kernel file", "[frontend][include]") {
  const TempDirectory dir("include_error");
  dir.write("bad.h", "// a comment\n__device__ int f() { return undeclared_name; }\n");
  const std::string kernel = dir.write("k.cu", "#include \"bad.h\"\n__global__ void k() { f(); }\n");
  const auto compiled = compile_file(kernel);
  CHECK(compiled->program == nullptr);
  const std::string messages = compiled->messages();
  CHECK(messages.find("bad.h:2:") != std::string::npos);
  CHECK(messages.find("undeclared_name") != std::string::npos);
  CHECK(compiled->rendered().find("return undeclared_name;") != std::string::npos);

  dir.write("fine.h", "__device__ int f() { return 1; }\n");
  const auto unclosed = compile_file(dir.write("k2.cu", "#include \"fine.h\"\n__global__ void k() { f();\n"));
  CHECK(unclosed->program == nullptr);
  INFO(unclosed->messages());
  CHECK(unclosed->messages().find("k2.cu:3:1: error:") != std::string::npos);
}

TEST_CASE("include: a header that cannot be read is a warning, CUDA's own headers are not",
          "[frontend][include]") {
  const TempDirectory dir("include_missing");
  const std::string kernel =
      dir.write("k.cu", "#include \"missing.h\"\n#include \"cuda_runtime.h\"\n#include \"device_launch_parameters.h\"\n"
                        "__global__ void k() {}\n");
  const auto compiled = compile_file(kernel);
  REQUIRE(compiled->program != nullptr);
  REQUIRE(compiled->diagnostics.diagnostics().size() == 1);
  const Diagnostic& d = compiled->diagnostics.diagnostics().front();
  CHECK(d.severity == Severity::Warning);
  CHECK(d.message.find("cannot read the included file 'missing.h'") != std::string::npos);
  CHECK(compiled->messages().find("k.cu:1:10:") != std::string::npos);
}

TEST_CASE("include: a header including itself unguarded stops with one error, a header's #if ends in it",
          "[frontend][include]") {
  const TempDirectory dir("include_self");
  dir.write("self.h", "#include \"self.h\"\n__device__ int y;\n");
  const auto self = compile_file(dir.write("k.cu", "#include \"self.h\"\n__global__ void k() {}\n"));
  CHECK(self->program == nullptr);
  CHECK(self->diagnostics.error_count() == 1);
  CHECK(self->messages().find("nested more than 64 levels deep") != std::string::npos);

  dir.write("open.h", "#if 1\n__device__ int z;\n");
  const auto open = compile_file(dir.write("k2.cu", "#include \"open.h\"\n__global__ void k() {}\n"));
  CHECK(open->program == nullptr);
  CHECK(open->messages().find("open.h:1:1: error: unterminated conditional directive") != std::string::npos);
}

TEST_CASE("include: check reports a site in a header by the header's path", "[frontend][include][cli]") {
  const TempDirectory dir("include_check");
  dir.write("publish.h", "__device__ int flag;\n__device__ void publish() { flag = 1; }\n");
  const std::string kernel = dir.write("k.cu", "//@ launch grid=1 block=2\n#include \"publish.h\"\n"
                                               "__global__ void k() { if (threadIdx.x == 0) publish(); "
                                               "else { int r = flag; } }\n");
  const ProcessResult result = run_process(std::string(FENCELAB_BINARY) + " check --model sc " + kernel);
  INFO(result.output);
  CHECK(result.exit_code == 1);
  CHECK(result.output.find("publish.h:2:29: note: write by (0,0,0)") != std::string::npos);
  CHECK(result.output.find("__device__ void publish() { flag = 1; }") != std::string::npos);
}

TEST_CASE("include: a header's extern declaration and the file's definition are one variable",
          "[frontend][include]") {
  // As the CUDA samples' scan_common.h declares what scan.cu defines ([basic.def]p2, [dcl.link]p7).
  const TempDirectory dir("include_extern");
  dir.write("common.h", "extern \"C\" const unsigned int BATCH;\nextern __device__ int total;\n");
  const std::string kernel = dir.write("k.cu", "#include \"common.h\"\nextern \"C\" const unsigned int BATCH = 4;\n"
                                               "__device__ int total;\n__device__ int out;\n"
                                               "__global__ void k() { out = BATCH + total; }\n");
  const auto compiled = compile_file(kernel);
  INFO(compiled->rendered());
  REQUIRE(compiled->program != nullptr);
  CHECK(compiled->diagnostics.diagnostics().empty());

  // Declared only: defined in a file fencelab does not see.
  const auto only_declared = compile_text("extern __device__ int elsewhere;\n__device__ int out;\n"
                                          "__global__ void k() { out = 1; }\n");
  CHECK(only_declared->program == nullptr);
  CHECK(only_declared->messages().find("k.cu:1:23: error: not supported: extern variable 'elsewhere' defined in another "
                                       "file") != std::string::npos);
}

TEST_CASE("include: -I directories are searched after the including file's own, in order",
          "[frontend][include][cli]") {
  const TempDirectory dir("include_dirs");
  dir.write("inc/flag.h", "#define VALUE 7\n#include \"deeper.h\"\n");
  dir.write("inc/deeper.h", "__device__ int out;\n");
  dir.write("other/flag.h", "#define VALUE 9\n"); // a later -I directory: not used
  dir.write("src/local.h", "#define LOCAL 1\n");
  dir.write("inc/local.h", "#define LOCAL 2\n"); // the including file's own directory wins
  const std::string kernel = dir.write("src/k.cu", "//@ launch grid=1 block=1\n//@ observe out\n"
                                                   "#include \"flag.h\"\n#include \"local.h\"\n"
                                                   "__global__ void k() { out = VALUE * 10 + LOCAL; }\n");
  const std::string inc = kernel.substr(0, kernel.rfind("/src/")) + "/inc";
  const std::string other = kernel.substr(0, kernel.rfind("/src/")) + "/other";
  const ProcessResult found =
      run_process(std::string(FENCELAB_BINARY) + " run --runs 1 -I " + inc + " -I " + other + " " + kernel);
  INFO(found.output);
  CHECK(found.exit_code == 0);
  CHECK(found.output.find("out=71") != std::string::npos);

  // Without -I the header is missing, and the warning says how to give its directory.
  const ProcessResult missing = run_process(std::string(FENCELAB_BINARY) + " run --runs 1 " + kernel);
  INFO(missing.output);
  CHECK(missing.exit_code != 0);
  CHECK(missing.output.find("give its directory with -I DIR") != std::string::npos);

  // A directory that does not exist is a usage error.
  const ProcessResult bad = run_process(std::string(FENCELAB_BINARY) + " run -I " + inc + "/nowhere " + kernel);
  CHECK(bad.exit_code == 2);
}

TEST_CASE("include: <name> is looked for in the -I directories in order, never next to the including file",
          "[frontend][include][cli]") {
  // As nvcc and GCC do (GCC manual, "Search Path"): -I directories, then the system ones.
  const TempDirectory dir("include_angled");
  dir.write("inc/flag.h", "#pragma once\n#define VALUE 7\n#include <deeper.h>\n");
  dir.write("inc/deeper.h", "__device__ int out;\n");
  dir.write("other/flag.h", "#define VALUE 9\n"); // a later -I directory: not used
  dir.write("src/flag.h", "#define VALUE 5\n");   // next to the kernel: never used for <flag.h>
  const std::string kernel = dir.write("src/k.cu", "//@ launch grid=1 block=1\n//@ observe out\n"
                                                   "#include <flag.h>\n#include <flag.h>\n"
                                                   "__global__ void k() { out = VALUE * 10 + 1; }\n");
  const std::string root = kernel.substr(0, kernel.rfind("/src/"));
  const ProcessResult found =
      run_process(std::string(FENCELAB_BINARY) + " run --runs 1 -I " + root + "/inc -I " + root + "/other " + kernel);
  INFO(found.output);
  CHECK(found.exit_code == 0);
  CHECK(found.output.find("out=71") != std::string::npos);
  CHECK(found.output.find("warning") == std::string::npos);

  // The reader and the preprocessor look names up with one function: quoted names next to the
  // file first, angled ones only in the -I directories.
  CHECK(resolve_include(kernel, "flag.h", true, {root + "/inc"}) == root + "/src/flag.h");
  CHECK(resolve_include(kernel, "flag.h", false, {root + "/inc"}) == root + "/inc/flag.h");
  CHECK(resolve_include(kernel, "flag.h", false, {}) == std::nullopt);

  // Found in an -I directory but not read (as past read_included_files' limits): a warning, as
  // for a quoted name.
  CompileOptions options;
  options.include_directories = {root + "/inc"};
  const auto unread = compile_text("#include <flag.h>\n__global__ void k() {}\n", kernel, options);
  CHECK(unread->messages().find("k.cu:1:10: warning: cannot read the included file 'flag.h' (found in the -I directories as " +
                                root + "/inc/flag.h)") != std::string::npos);
}

TEST_CASE("include: <name> in no -I directory is not read, even next to the including file, and a CUDA or C header "
          "is built in (no warning), any other is said to be missing", "[frontend][include][cli]") {
  const TempDirectory dir("include_angled_system");
  dir.write("src/flag.h", "#define VALUE 5\n"); // next to the kernel only
  dir.write("inc/unrelated.h", "#define VALUE 6\n");
  const std::string kernel = dir.write("src/k.cu", "//@ launch grid=1 block=1\n//@ observe out\n"
                                                   "#include <cstdio>\n#include <cuda_runtime.h>\n#include <flag.h>\n#include <vector>\n"
                                                   "#ifndef VALUE\n#define VALUE 3\n#endif\n__device__ int out;\n"
                                                   "__global__ void k() { out = VALUE * 10 + 1; }\n");
  const std::string inc = kernel.substr(0, kernel.rfind("/src/")) + "/inc";
  for (const std::string& options : {std::string(), " -I " + inc}) {
    const ProcessResult result = run_process(std::string(FENCELAB_BINARY) + " run --runs 1" + options + " " + kernel);
    INFO(options << "\n" << result.output);
    CHECK(result.exit_code == 0);
    CHECK(result.output.find("out=31") != std::string::npos);
    // One warning, for <flag.h> (line 5, column 10), none for <cstdio>, <cuda_runtime.h> or the
    // C++ library's <vector> (host code's).
    const std::string warning = "k.cu:5:10: warning: cannot find the included file 'flag.h' (not a CUDA or C header "
                                "fencelab has built in, " +
                                std::string(options.empty() ? "and no -I DIR was given to look in"
                                                            : "and in none of the -I directories") +
                                "): what it declares is missing";
    CHECK(result.output.find(warning) != std::string::npos);
    CHECK(result.output.find("warning") == result.output.rfind("warning"));
  }
  for (const std::vector<std::string>& directories : {std::vector<std::string>{}, std::vector<std::string>{inc}}) {
    const auto compiled = compile_file(kernel, directories);
    INFO(compiled->messages());
    REQUIRE(compiled->program != nullptr);
    CHECK(compiled->diagnostics.diagnostics().size() == 1); // the warning for <flag.h>
    CHECK(compiled->source->parts().size() == 1); // src/flag.h was not read
  }
}
