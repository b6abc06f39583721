// Reading a whole file as text: the kernel file (SourceFile::read) and its headers.
#pragma once

#include <cstdint>
#include <string>

namespace fencelab {

/** Reads the file at `path` into `text`. False, with `error` saying why, when it cannot be
 *  opened or read, or when it is not a regular file of at most `limit` bytes. */
bool read_file_text(const std::string& path, std::string& text, std::string& error, uint64_t limit = UINT64_MAX);

} // namespace fencelab
