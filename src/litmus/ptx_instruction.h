// One cell of a PTX litmus test's thread table: an instruction and its operands.
#pragma once

#include "fencelab/litmus/ptx_litmus.h"

#include "ptx_lexer.h"

#include <vector>

namespace fencelab::litmus {

/** Reads the tokens of one non-empty cell. On a problem it appends one diagnostic (an
 *  "unsupported: ..." one for a known form fencelab does not model) and returns an unspecified
 *  instruction. */
PtxInstruction parse_ptx_instruction(const std::vector<PtxToken>& cell, std::vector<PtxDiagnostic>& diagnostics);

} // namespace fencelab::litmus
