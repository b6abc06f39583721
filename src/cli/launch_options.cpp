// --grid and --block: the launch shape from the command line (program/launch_shape.h); --kernel
// and -D, which the front end takes (frontend/compile.h).
#include "commands.h"

#include "fencelab/program/launch_shape.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace fencelab::cli {

namespace {

/** CLI11 validator: an empty string when `text` is a valid shape, else why not. */
CLI::Validator launch_dim_validator(bool for_block) {
  return CLI::Validator(
      [for_block](std::string& text) {
        std::string error;
        return parse_launch_dim(text, for_block, error) ? std::string() : error;
      },
      "X|X,Y,Z");
}

/** The option's shape, or nothing when it was not given. */
std::optional<Dim3> given_dim(const std::string& text, bool for_block, const char* option, bool& ok) {
  if (text.empty()) return std::nullopt;
  std::string error;
  std::optional<Dim3> dim = parse_launch_dim(text, for_block, error);
  if (!dim) {
    fmt::print(stderr, "fencelab: error: {}: {}\n", option, error);
    ok = false;
  }
  return dim;
}

} // namespace

void add_launch_options(CLI::App& command, LaunchOptions& options) {
  command.add_option("--grid", options.grid, "launch this many blocks instead of //@ launch's grid (X or X,Y,Z)")
      ->check(launch_dim_validator(false));
  command.add_option("--block", options.block, "threads per block instead of //@ launch's block (X or X,Y,Z)")
      ->check(launch_dim_validator(true));
  command.add_option("--kernel", options.compile.kernel,
                     "the __global__ function to launch, where the file has several (instead of //@ kernel)");
  command
      .add_option("-D,--define", options.compile.defines,
                  "define a macro before the file, as #define NAME VALUE (NAME alone: 1); repeatable")
      ->check(CLI::Validator(
          [](std::string& text) {
            const std::string name = text.substr(0, text.find('='));
            const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                                    std::all_of(name.begin(), name.end(), [](char c) {
                                      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                                    });
            return identifier ? std::string() : "'" + name + "' is not a macro name";
          },
          "NAME[=VALUE]"))
      ->allow_extra_args(false); // one macro per -D: never the kernel file after it
  command
      .add_option("-I,--include-directory", options.compile.include_directories,
                  "look for #include \"name\" headers here too, after the including file's directory, and for "
                  "#include <name> headers; repeatable")
      ->check(CLI::ExistingDirectory)
      ->allow_extra_args(false);
}

bool apply_launch_options(Program& program, const LaunchOptions& options) {
  bool ok = true;
  const std::optional<Dim3> grid = given_dim(options.grid, false, "--grid", ok);
  const std::optional<Dim3> block = given_dim(options.block, true, "--block", ok);
  if (ok) override_launch_shape(program, grid, block);
  return ok;
}

} // namespace fencelab::cli
