// Project headers: the files a kernel file names in `#include "name"`, and in `#include <name>`
// where an `-I` directory has them.
//
// They are read before lexing, as parts of the kernel's SourceFile (support/source.h), and the
// preprocessor lexes a part where its `#include` line stands (C11 6.10.2). Names are looked up
// as nvcc and GCC do (GCC manual, "Search Path"): a quoted name next to the file that includes
// it, then in the `-I` directories in their order; an angled name in the `-I` directories only.
// An angled name in none of them is a system or CUDA header (`<cstdio>`, `<cuda_runtime.h>`) and
// is not read: what device code needs of CUDA's headers is built into the language here.
#pragma once

#include "fencelab/support/source.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

/** At most this many headers are read for one kernel file, and at most this many bytes of
 *  them in all; past either, the rest are not read (and reported where they are included). */
inline constexpr uint32_t kMaxIncludedFiles = 256;
inline constexpr uint32_t kMaxIncludedBytes = 16u << 20;

/** The file that `#include "name"` (`quoted`) or `#include <name>` in the file at `from_path`
 *  names. Quoted: next to that file if it is there, else in the first of `include_directories`
 *  that has it, else (found nowhere) next to that file. Angled: in the first of
 *  `include_directories` that has it, never next to that file; none if none has it (a system
 *  header). The reader and the preprocessor both look names up here, so they agree. */
std::optional<std::string> resolve_include(const std::string& from_path, std::string_view name, bool quoted,
                                           const std::vector<std::string>& include_directories);

/** Reads the headers that `file` includes (resolve_include: every quoted name, and the angled
 *  names found in `include_directories`), and the ones they include, as parts of `file`. A
 *  header that cannot be read is left out (the preprocessor reports it). */
void read_included_files(SourceFile& file, const std::vector<std::string>& include_directories = {});

/** The part that `#include "name"` (`quoted`) or `#include <name>` in part `from` of `file`
 *  refers to, if it was read (looked up as read_included_files did, with the same
 *  directories). */
std::optional<uint32_t> included_part(const SourceFile& file, uint32_t from, std::string_view name, bool quoted,
                                      const std::vector<std::string>& include_directories = {});

/** CUDA's and C's own headers that kernel files name in quotes (`#include "cuda_runtime.h"`):
 *  not an error when absent, as their device-side content is built in. */
bool is_cuda_or_system_header(std::string_view name);

} // namespace fencelab
