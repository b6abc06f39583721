// Device printf (src/machine/printf_format.h): each conversion's text, '*' widths and
// precisions, and what the campaign of issue 68 F found: a '*' without its argument, %n and huge
// widths, which crashed or took seconds a call.
#include "fencelab/machine/memory_model.h"
#include "machine/printf_format.h"
#include "machine_helpers.h"

#include <numeric>

using namespace fencelab;
using namespace fencelab::testing;

namespace {

/** The one execution of a one-thread kernel whose body is `body` (no decisions to make). */
ExecutionResult run_body(const std::string& body, const std::string& declarations = "") {
  Kernel k = kernel_from_text(declarations + "__global__ void k() { " + body + " }\n");
  const auto model = create_model("sc");
  ReplayError error;
  const auto result = replay(*k.machine, *model, ReplayToken{"sc", {}}, nullptr, error);
  INFO(error.message);
  REQUIRE(result.has_value());
  return *result;
}

std::string printed(const std::string& body) {
  const ExecutionResult r = run_body(body);
  INFO(r.outcome.message);
  REQUIRE(r.outcome.status == ExecutionStatus::Completed);
  return std::accumulate(r.output.begin(), r.output.end(), std::string());
}

/** The runtime error a call ends in: its message, checked to be of `kind`. */
std::string error_of(const std::string& body, RuntimeErrorKind kind, const std::string& declarations = "") {
  const ExecutionResult r = run_body(body, declarations);
  REQUIRE(r.outcome.status == ExecutionStatus::RuntimeError);
  REQUIRE(r.error.has_value());
  CHECK(r.error->kind == kind);
  return r.outcome.message;
}

} // namespace

TEST_CASE("printf formats each conversion with its flags, width and precision", "[printf]") {
  CHECK(printed(R"(printf("%d %i %5d|%-5d|%05d %+d\n", -3, 4, 42, 42, 42, 7);)") == "-3 4    42|42   |00042 +7\n");
  CHECK(printed(R"(printf("%u %x %X %o %#x\n", 7u, 255, 255, 8, 255);)") == "7 ff FF 10 0xff\n");
  CHECK(printed(R"(printf("%c%c %s %.2s|%4s\n", 'o', 'k', "text", "text", "ab");)") == "ok text te|  ab\n");
  CHECK(printed(R"(printf("%.3f %e %g %G\n", 1.5, 250.0, 0.0001, 1e20);)") == "1.500 2.500000e+02 0.0001 1E+20\n");
  CHECK(printed(R"(printf("%lld %ld %hhd 100%%\n", 5ll, 6l, 7);)") == "5 6 7 100%\n");
}

TEST_CASE("printf's '*' takes an int argument for the width or the precision (C11 7.21.6.1p5)", "[printf]") {
  CHECK(printed(R"(printf("[%*d][%.*f][%*.*s]", 4, 7, 2, 3.14159, 5, 2, "xyz");)") == "[   7][3.14][   xy]");
  // A negative width is the '-' flag; a negative precision is none at all.
  CHECK(printed(R"(printf("[%*d][%.*s]", -4, 7, -1, "xyz");)") == "[7   ][xyz]");
}

TEST_CASE("printf without an argument for a conversion or its '*' is the call's runtime error", "[printf]") {
  // The campaign's input: the 7 is the width, and %s has nothing left. Was a SIGSEGV.
  CHECK(error_of(R"(printf("%*s", 7);)", RuntimeErrorKind::Other) ==
        "printf: format needs an argument for '*': '%*s' takes 2 (an int for each '*', then its value), and 1 is left");
  CHECK(error_of(R"(printf("%.*s");)", RuntimeErrorKind::Other) ==
        "printf: format needs an argument for '*': '%.*s' takes 2 (an int for each '*', then its value), and 0 are "
        "left");
  CHECK(error_of(R"(printf("%d %d", 1);)", RuntimeErrorKind::Other) == "printf: format needs an argument for '%d'");
}

TEST_CASE("printf's %n and unknown conversions are unsupported, not passed on", "[printf]") {
  CHECK(error_of(R"(printf("%*n", 1, x);)", RuntimeErrorKind::Unsupported, "__device__ int x;\n")
            .starts_with("printf: '%*n' is not supported: %n stores a count through its argument"));
  CHECK(error_of(R"(printf("%S", 1);)", RuntimeErrorKind::Unsupported)
            .starts_with("printf: '%S' has no conversion type that the device printf knows"));
}

TEST_CASE("printf clamps a huge width or precision, with a warning, at once", "[printf]") {
  // `%*d` with 2147483647 padded 2 GB, for six seconds a call.
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult r = run_body(R"(printf("%*d|", 2147483647, 1); printf("%.99999999999f|", 2.0);)");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  REQUIRE(r.outcome.status == ExecutionStatus::Completed);
  REQUIRE(r.output.size() == 2);
  CHECK(r.output[0] == std::string(kMaxPrintfField - 1, ' ') + "1|");
  CHECK(r.output[1] == "2." + std::string(kMaxPrintfField, '0') + "|");
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0].kind == RuntimeErrorKind::PrintfClamped);
  CHECK(r.warnings[0].diagnostic.message == "printf: a field width of 2147483647 is more than fencelab formats: "
                                            "clamped to 4096");
  CHECK(r.warnings[1].diagnostic.message == "printf: a field precision of 99999999999 is more than fencelab "
                                            "formats: clamped to 4096");
}

TEST_CASE("printf output past the GPU's 1 MB buffer is left out, said once", "[printf]") {
  // 300 calls of 4 KB: 1.2 MB.
  const ExecutionResult r = run_body(R"(for (int i = 0; i < 300; ++i) printf("%4095d\n", i);)");
  REQUIRE(r.outcome.status == ExecutionStatus::Completed);
  size_t bytes = 0;
  for (const std::string& line : r.output) bytes += line.size();
  CHECK(r.output.size() == 256 + 1); // 256 calls of 4,096 bytes fill the megabyte
  CHECK(bytes <= (1u << 20) + 200);
  CHECK(r.output.back().starts_with("[fencelab: printf output past 1048576 bytes is left out"));
}
