// The front end's one entry point: a kernel file in, a checked Program out.
#pragma once

#include "fencelab/program/program.h"
#include "fencelab/support/source.h"

#include <memory>
#include <string>
#include <vector>

namespace fencelab {

/** What the command line adds to a file: the kernel to launch and macro definitions. */
struct CompileOptions {
  std::string kernel;               ///< `--kernel NAME`: the __global__ function, over //@ kernel
  std::vector<std::string> defines; ///< `-D NAME` or `-D NAME=VALUE`, defined before the file
  /** `-I DIR`: where `#include "name"` looks after the including file's directory, and
   *  `#include <name>` looks, in order (the headers themselves are read with the file:
   *  read_included_files, include_files.h). */
  std::vector<std::string> include_directories;
};

/**
 * Lexes, preprocesses, parses and checks one kernel file, then reads its `//@` directives
 * into the Program's harness. Every problem found is reported to `diagnostics` (all of them,
 * not only the first); returns null when any error was reported.
 */
std::unique_ptr<Program> compile_program(std::shared_ptr<const SourceFile> source,
                                         DiagnosticSink& diagnostics, const CompileOptions& options = {});

} // namespace fencelab
