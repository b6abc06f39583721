// Helpers the vector-type lowering's files share (parse_vector_types.cpp defines them).
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/frontend/lexer.h"

namespace fencelab::vector_lowering {

/** An integer literal of `scalar` type. */
ExprPtr integer(SourceRange range, uint64_t value, ScalarType scalar);
/** `=`, a compound assignment, `++` or `--`. */
bool is_assignment_token(TokenKind kind);

} // namespace fencelab::vector_lowering
