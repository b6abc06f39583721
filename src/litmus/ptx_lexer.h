// Tokens of herd7's PTX litmus format (the part after the header line).
#pragma once

#include "fencelab/litmus/ptx_litmus.h"

#include <string>
#include <string_view>
#include <vector>

namespace fencelab::litmus {

enum class PtxTokenKind {
  word,         ///< a name: letters, digits, '_' and '.' (ld.acquire.gpu, x, P0, r1, LC00)
  number,       ///< decimal digits
  string,       ///< "..." (a comment of the test)
  punctuation,  ///< { } ; | , : @ = ( ) ~ [ ] & - and the two-character == != /\ \/
  end,
};

struct PtxToken {
  PtxTokenKind kind = PtxTokenKind::end;
  std::string text;
  SourcePosition position;
};

/** Splits `text` into tokens; (* ... *) comments are skipped. A character that starts no token
 *  is a diagnostic (and skipped). The list always ends with an `end` token. */
std::vector<PtxToken> lex_ptx_litmus(std::string_view text, std::vector<PtxDiagnostic>& diagnostics);

} // namespace fencelab::litmus
