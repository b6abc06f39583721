// Helpers for tests that run kernels: compile from text or from the catalogue, explore, replay.
#pragma once

#include "fencelab/explore/expectations.h"
#include "fencelab/explore/exploration.h"
#include "fencelab/machine/machine.h"
#include "frontend_helpers.h"
#include "process_helpers.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <sys/wait.h>

namespace fencelab::testing {

/** A compiled kernel with a Machine to run it; fails the test if it does not compile. */
struct Kernel {
  std::unique_ptr<Compiled> compiled;
  std::unique_ptr<Machine> machine;

  const Program& program() const { return *compiled->program; }
};

inline Kernel kernel_from_text(const std::string& text, MachineOptions options = {}) {
  Kernel k;
  k.compiled = compile_text(text);
  INFO(k.compiled->rendered());
  REQUIRE(k.compiled->program != nullptr);
  k.machine = std::make_unique<Machine>(*k.compiled->program, options);
  return k;
}

inline std::string catalogue_path(const std::string& relative) {
  return std::string(FENCELAB_SOURCE_DIR) + "/kernels/" + relative;
}

inline Kernel kernel_from_file(const std::string& path, MachineOptions options = {}) {
  SourceFile file("", "");
  std::string error;
  INFO(path);
  REQUIRE(SourceFile::read(path, file, error));
  return kernel_from_text(file.text(), options);
}

/** The text of the file at `path` ("" if it cannot be read). */
inline std::string read_source_text(const std::string& path) {
  SourceFile file("", "");
  std::string error;
  SourceFile::read(path, file, error);
  return file.text();
}

/** The outcomes of an exploration as printed strings, e.g. {"A=1 B=2", ...}. */
inline std::set<std::string> outcome_strings(const Program& program, const ExplorationResult& result) {
  std::set<std::string> out;
  for (const OutcomeCount& o : result.outcomes) out.insert(o.outcome.to_string(program));
  return out;
}

/** The execution budget of an exhaustive search in a catalogue sweep: `executions` for a kernel
 *  of up to 8 threads, scaled down by the thread count above that (one execution of a 64-thread
 *  kernel costs about 8 times one of 8 threads), never under 100. A sweep proves what the small
 *  kernels allow; a large kernel's own test gives its search the budget it needs. */
inline uint64_t sweep_budget(const Program& program, uint64_t executions) {
  const uint64_t threads = program.launch.grid.total() * program.launch.block.total();
  return std::max<uint64_t>(100, executions * 8 / std::max<uint64_t>(8, threads));
}

/** True in the sanitizer build (tools/test's second pass), where an execution costs 10-30 times
 *  more. Differential tests over generated kernels take a smaller sample there; the first pass
 *  runs the full one and tools/reduction-soak runs larger ones. */
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

/** Every catalogue kernel file, sorted. */
inline std::vector<std::string> catalogue_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(catalogue_path("")))
    if (entry.path().extension() == ".cu") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace fencelab::testing
