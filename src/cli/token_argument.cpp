// The witness a `replay` or `explain` command follows: a token on the command line, or in a file
// (--token-file; `--witness-dir` writes long ones there, search_session.cpp).
#include "commands.h"

#include <fmt/format.h>
#include <fstream>

namespace fencelab::cli {

void add_token_arguments(CLI::App& command, TokenArgument& argument, const char* example) {
  CLI::Option* text = command.add_option("token", argument.text, std::string("replay token, e.g. ") + example);
  CLI::Option* file = command.add_option("--token-file", argument.file,
                                         "read the token from FILE (as --witness-dir writes long ones)");
  text->excludes(file);
  file->excludes(text);
}

namespace {

/** The token file's text, at most ReplayToken::kMaxTextSize characters (`--token-file /dev/zero`
 *  read without bound); prints why not and returns nullopt. */
std::optional<std::string> read_token_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text;
  if (in) {
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      text.append(buffer, size_t(in.gcount()));
      if (text.size() > ReplayToken::kMaxTextSize) {
        fmt::print(stderr, "fencelab: error: bad replay token file '{}': token too long: more than {} bytes\n", path,
                   ReplayToken::kMaxTextSize);
        return std::nullopt;
      }
    }
  }
  if (!in.eof()) {
    fmt::print(stderr, "fencelab: error: cannot read the token file '{}'\n", path);
    return std::nullopt;
  }
  return text;
}

} // namespace

std::optional<SelectedWitness> load_token(const TokenArgument& argument, MachineOptions& machine, const Program& program) {
  std::string text = argument.text;
  if (!argument.file.empty()) {
    std::optional<std::string> contents = read_token_file(argument.file);
    if (!contents) return std::nullopt;
    text = std::move(*contents);
    // The file is the token and, as written, a newline; surrounding space is not part of it.
    const size_t begin = text.find_first_not_of(" \t\r\n");
    const size_t end = text.find_last_not_of(" \t\r\n");
    text = begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
  } else if (text.empty()) {
    fmt::print(stderr, "fencelab: error: no replay token: give one, or --token-file FILE\n");
    return std::nullopt;
  }
  const std::string source = argument.file.empty() ? "" : fmt::format(" (from {})", argument.file);
  std::string error;
  auto token = ReplayToken::decode(text, error, max_decisions(program, machine));
  if (!token) {
    const std::string shown = text.size() <= ReplayToken::kDisplayLimit ? text : text.substr(0, 40) + "...";
    fmt::print(stderr, "fencelab: error: bad replay token '{}'{}: {}\n", shown, source, error);
    return std::nullopt;
  }
  SelectedWitness witness{std::move(*token), {}, {}};
  witness.shown = witness.token.display() + source;
  // "gpu.lockstep:..." names the warp mode too; the token's mode wins over --warp.
  if (!split_mode_name(witness.token.model, witness.model, machine.warp)) {
    fmt::print(stderr, "fencelab: error: bad replay token '{}': unknown warp mode in '{}' (its or lockstep)\n",
               witness.shown, witness.token.model);
    return std::nullopt;
  }
  if (!check_models({witness.model})) return std::nullopt;
  return witness;
}

} // namespace fencelab::cli
