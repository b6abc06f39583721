// Directories the commands write into (--witness-dir, --svg DIR): an existing directory, or a
// new one whose parent exists. Only the last component is ever created: `--witness-dir
// /a/b/c/d` made the whole path anywhere (hardening issue 68 F).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace fencelab::cli {

/** Why `directory` is not one to write into, or "" when it is (it exists, or only its last
 *  component is missing). */
std::string output_directory_problem(const std::string& directory);

/** The CLI11 check of a directory option: output_directory_problem, a usage error (exit 2). */
CLI::Validator output_directory();

/** Makes `directory` exist (creating its last component only); prints why not and returns
 *  false. */
bool prepare_directory(const std::string& directory);

} // namespace fencelab::cli
