// Lexer and preprocessor.
#include "fencelab/frontend/lexer.h"
#include "fencelab/frontend/parser.h"
#include "fencelab/frontend/preprocessor.h"
#include "frontend_helpers.h"

#include <catch2/catch.hpp>

using namespace fencelab;

namespace {

std::vector<Token> lex_all(const SourceFile& file, DiagnosticSink& sink) {
  return lex(file, {0, uint32_t(file.text().size())}, sink).tokens;
}

std::string spellings(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& token : tokens) {
    if (token.kind == TokenKind::EndOfFile) break;
    if (!out.empty()) out += ' ';
    out += token.text;
  }
  return out;
}

/** Every error the preprocessor reports on `text`, in order. */
std::vector<std::string> preprocessor_errors(const char* text) {
  SourceFile file("k.cu", text);
  DiagnosticSink sink;
  Preprocessor preprocessor(sink);
  preprocessor.run(lex_all(file, sink));
  std::vector<std::string> messages;
  for (const Diagnostic& d : sink.diagnostics()) messages.push_back(d.message);
  return messages;
}

/** The spellings of `text` after preprocessing; the test fails if it has an error. */
std::string preprocessed(const char* text) {
  SourceFile file("k.cu", text);
  DiagnosticSink sink;
  Preprocessor preprocessor(sink);
  const auto tokens = preprocessor.run(lex_all(file, sink));
  CHECK_FALSE(sink.has_errors());
  return spellings(tokens);
}

} // namespace

TEST_CASE("lexer: tokens, longest punctuators and ranges", "[frontend][lexer]") {
  SourceFile file("k.cu", "x <<= a->b >> 1; // comment\n/* block */ y++");
  DiagnosticSink sink;
  auto tokens = lex_all(file, sink);
  REQUIRE_FALSE(sink.has_errors());
  REQUIRE(spellings(tokens) == "x <<= a -> b >> 1 ; y ++");
  CHECK(tokens[1].kind == TokenKind::LessLessEqual);
  CHECK(tokens[3].kind == TokenKind::Arrow);
  CHECK(tokens[8].range == SourceRange{40, 41}); // y
  CHECK(tokens[8].at_line_start);               // first token of its line, after a comment
  CHECK_FALSE(tokens[9].at_line_start);
  CHECK(tokens.back().kind == TokenKind::EndOfFile);
}

TEST_CASE("lexer: keywords and CUDA qualifiers", "[frontend][lexer]") {
  SourceFile file("k.cu", "__global__ void __shared__ unsigned threadIdx");
  DiagnosticSink sink;
  auto tokens = lex_all(file, sink);
  CHECK(tokens[0].kind == TokenKind::KwGlobal);
  CHECK(tokens[1].kind == TokenKind::KwVoid);
  CHECK(tokens[2].kind == TokenKind::KwShared);
  CHECK(tokens[3].kind == TokenKind::KwUnsigned);
  CHECK(tokens[4].kind == TokenKind::Identifier);
}

TEST_CASE("lexer: //@ lines are collected with their ranges", "[frontend][lexer]") {
  SourceFile file("k.cu", "//@ launch grid=1\nint x; // plain\n  //@observe X\n");
  DiagnosticSink sink;
  LexResult result = lex(file, {0, uint32_t(file.text().size())}, sink);
  REQUIRE(result.directive_lines.size() == 2);
  CHECK(file.slice(result.directive_lines[0]) == " launch grid=1");
  CHECK(file.slice(result.directive_lines[1]) == "observe X");
  CHECK(spellings(result.tokens) == "int x ;");
}

TEST_CASE("lexer: literals", "[frontend][lexer]") {
  SourceFile file("k.cu", "42 0x10u 7ll 1.5f 2.0 1e3 'a' \"s\\n\"");
  DiagnosticSink sink;
  auto tokens = lex_all(file, sink);
  CHECK(tokens[0].kind == TokenKind::IntegerLiteral);
  CHECK(tokens[1].kind == TokenKind::IntegerLiteral);
  CHECK(tokens[3].kind == TokenKind::FloatLiteral);
  CHECK(tokens[5].kind == TokenKind::FloatLiteral);
  CHECK(tokens[6].kind == TokenKind::CharLiteral);
  CHECK(tokens[7].kind == TokenKind::StringLiteral);

  auto hex = decode_integer_literal("0x10u");
  CHECK(hex.bits == 16);
  CHECK(hex.type.scalar == ScalarType::UInt);
  CHECK(decode_integer_literal("7ll").type.scalar == ScalarType::LongLong);
  CHECK(decode_integer_literal("4000000000").type.scalar == ScalarType::Long);
  CHECK(decode_integer_literal("0xFFFFFFFF").type.scalar == ScalarType::UInt);
  CHECK(decode_integer_literal("1ull").type.scalar == ScalarType::ULongLong);
  CHECK(decode_integer_literal("017").bits == 15);
  CHECK_FALSE(decode_integer_literal("99999999999999999999").error.empty());
  CHECK_FALSE(decode_integer_literal("12x").error.empty());
  auto f = decode_float_literal("1.5f");
  CHECK(f.type.scalar == ScalarType::Float);
  CHECK(word_to_double(f.bits, f.type) == 1.5);
  CHECK(decode_float_literal("1e3").type.scalar == ScalarType::Double);
  CHECK(decode_char_literal("'\\n'").bits == '\n');
  std::string error;
  CHECK(decode_string_literal("\"a\\tb\\x41\"", error) == "a\tbA");
  CHECK(error.empty());
}

TEST_CASE("lexer: unterminated comment and string are errors, not hangs", "[frontend][lexer]") {
  SourceFile file("k.cu", "int x = \"abc\n/* never closed");
  DiagnosticSink sink;
  auto tokens = lex_all(file, sink);
  REQUIRE(sink.error_count() == 2);
  CHECK(sink.diagnostics()[0].message == "unterminated string literal");
  CHECK(sink.diagnostics()[1].message == "unterminated comment");
  CHECK(tokens.back().kind == TokenKind::EndOfFile);
}

TEST_CASE("preprocessor: object-like macros expand at the use", "[frontend][preprocessor]") {
  SourceFile file("k.cu", "#include <cstdio>\n#define N 4\n#define M (N + 1)\nint a[M];\n#undef N\nN");
  DiagnosticSink sink;
  Preprocessor preprocessor(sink);
  auto tokens = preprocessor.run(lex_all(file, sink));
  REQUIRE_FALSE(sink.has_errors());
  CHECK(spellings(tokens) == "int a [ ( 4 + 1 ) ] ; N");
  // The expanded tokens point at the use of M.
  const SourceRange use = tokens[3].range;
  CHECK(file.slice(use) == "M");
  CHECK(tokens[5].range == use);
}

TEST_CASE("preprocessor: conditionals", "[frontend][preprocessor]") {
  CHECK(preprocessed("#define A\n#ifdef A\na\n#else\nb\n#endif\n#ifndef A\nc\n#endif\n#if 0\nd\n#else\ne\n#endif\n"
                     "#if defined(B)\nf\n#endif\n#if 1\ng\n#endif\n") ==
        "a e g");
}

TEST_CASE("preprocessor: bad conditionals are reported", "[frontend][preprocessor]") {
  SourceFile file("k.cu", "#define SQ(x) ((x)*(x))\n#define SPACED (x)\n#ifdef A\n#elif B\n#endif\n#if 1\n");
  DiagnosticSink sink;
  Preprocessor preprocessor(sink);
  auto tokens = preprocessor.run(lex_all(file, sink));
  REQUIRE(sink.error_count() == 1);
  CHECK(sink.diagnostics()[0].message == "unterminated conditional directive (missing #endif)");
  CHECK(preprocessor.is_defined("SQ"));
  CHECK(preprocessor.is_defined("SPACED"));
}

// C11 6.10.1: `defined`, then macros, then unknown names as 0; the C operators; #elif.
TEST_CASE("preprocessor: #if and #elif evaluate integer constant expressions", "[frontend][preprocessor]") {
  SourceFile file("k.cu", "#define BLOCK 256\n#define TWICE(x) ((x) * 2)\n"
                          "#if BLOCK > 128 && (TWICE(3) == 6 || defined(FORCE))\na\n#elif 1\nb\n#else\nc\n#endif\n"
                          "#if BLOCK == 64\nd\n#elif !defined BLOCK\ne\n#elif UNKNOWN == 0 && -7 / 2 == -3 && (1 << 4) % 5 == 1\nf\n"
                          "#else\ng\n#endif\n#if 0 ? 1 : 'a' == 97\nh\n#endif\n#if 0\n#if 1/0\n#endif\n#endif\n");
  DiagnosticSink sink;
  Preprocessor preprocessor(sink);
  auto tokens = preprocessor.run(lex_all(file, sink));
  REQUIRE_FALSE(sink.has_errors()); // the inner #if of a skipped region is not evaluated
  CHECK(spellings(tokens) == "a f h");

  auto first_error = [](const char* text) {
    const std::vector<std::string> errors = preprocessor_errors(text);
    REQUIRE_FALSE(errors.empty());
    return errors[0];
  };
  CHECK(first_error("#if 1 +\n#endif\n") == "#if expression ends early");
  CHECK(first_error("#if (1\n#endif\n") == "expected ')' in #if");
  CHECK(first_error("#if 1 / 0\n#endif\n") == "division by zero in #if");
  CHECK(first_error("#if defined(\n#endif\n") == "'defined' needs a macro name, as defined(NAME) or defined NAME");
  CHECK(first_error("#if 1\n#else\n#elif 1\n#endif\n") == "#elif after #else");
  std::string deep = "#if ";
  deep += std::string(300, '(') + "1" + std::string(300, ')') + "\n#endif\n";
  CHECK(first_error(deep.c_str()) == "#if expression nested too deeply");
}

// C11 6.10.3: arguments expanded before substitution, `#` spells one, `...` takes the rest,
// the result rescanned with the macro's name hidden; a name without arguments stays a name.
TEST_CASE("preprocessor: function-like macros", "[frontend][preprocessor]") {
  CHECK(preprocessed("#define N 4\n#define SQ(x) ((x)*(x))\n#define IDX(i, j) ((i) * N + (j))\n"
                     "#define STR(x) #x\n#define LOG(f, ...) printf(f, __VA_ARGS__)\n#define F(x) F(x + 1)\n"
                     "#define NONE() 7\n"
                     "SQ(SQ(2)) IDX(1, SQ(3)) STR(a + \"b\") LOG(\"%d\", 1, 2) F(0) SQ NONE()\n"
                     "SQ(\n  5)\n") ==
        "( ( ( ( 2 ) * ( 2 ) ) ) * ( ( ( 2 ) * ( 2 ) ) ) ) ( ( 1 ) * 4 + ( ( ( 3 ) * ( 3 ) ) ) ) "
        "\"a + \\\"b\\\"\" printf ( \"%d\" , 1 , 2 ) F ( 0 + 1 ) SQ 7 ( ( 5 ) * ( 5 ) )");
}

TEST_CASE("preprocessor: a bad call of a function-like macro is reported at the call", "[frontend][preprocessor]") {
  auto count = [](const char* text) {
    const std::vector<std::string> errors = preprocessor_errors(text);
    REQUIRE(errors.size() == 1);
    return errors[0];
  };
  CHECK(count("#define F(a, b) a\nF(1)") == "macro 'F' takes 2 arguments, given 1");
  CHECK(count("#define F(a) a\nF(1") == "unterminated argument list of macro 'F'");
  CHECK(count("#define P(a, b) a##b\nP(1, 2)") == "not supported: '##' in macro 'P'");
  CHECK(count("#define F(a, a+) a\n") == "malformed parameter list of macro 'F'");
  std::string deep = "#define F(a) a\n";
  for (int i = 0; i < 100; ++i) deep += "F(";
  deep += "1" + std::string(100, ')');
  CHECK(count(deep.c_str()) == "macro calls nested more than 64 deep in arguments (limit of the preprocessor)");
}

TEST_CASE("preprocessor: a self-referencing macro does not loop", "[frontend][preprocessor]") {
  CHECK(preprocessed("#define A B\n#define B A\nA") == "A");
}

// C11 6.10.3.4p2: a name met while its own macro's replacement is rescanned is never replaced
// again, even where it is later rescanned outside it (here, as an argument). A call that takes
// its arguments from past the end of a replacement (6.10.3.4p4, unspecified) expands as in GCC
// and Clang. Each expected line is what `cpp -P` (GCC 12) prints for the same text.
TEST_CASE("preprocessor: a name left unreplaced inside its own macro stays unreplaced", "[frontend][preprocessor]") {
  CHECK(preprocessed("#define A x A\n#define f(a) a\n#define F(a) a*G\n#define G(a) F(a)\n#define H F(2)(9)\n"
                     "#define P(x) x P\n#define Q Q R\n#define R Q\n"
                     "f(A) ; H ; P(P)(1) ; Q | R\n") == "x A ; 2 * 9 * G ; P P ( 1 ) ; Q Q | Q R");
}
