// The half-precision builtins of builtins.def (cuda_fp16.h's intrinsics) on canonical words.
#pragma once

#include "fencelab/frontend/ast.h"

#include <optional>
#include <span>

namespace fencelab {

/** The result of half builtin `builtin` on arguments sema converted to its signature, or
 *  nullopt when `builtin` is no half builtin. */
std::optional<Word> half_builtin(Builtin builtin, std::span<const Word> args);

} // namespace fencelab
