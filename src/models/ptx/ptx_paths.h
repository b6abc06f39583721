// The paths of a thread with branches: each a straight line of instructions in which every
// branch taken or not is an `assume` (checked against the values, ptx_values.cpp).
#pragma once

#include "fencelab/litmus/ptx_litmus.h"

#include <vector>

namespace fencelab::ptx {

/** Loops are unrolled: a path runs each branch and goto at most this often. An execution that
 *  needs more (a spin loop still spinning) is not explored (docs/ptx-litmus.md). */
inline constexpr int kBranchBound = 3;

/** Every path of every thread (per thread, a list of paths); empty for a thread none of whose
 *  paths ends within the bound. Labels and gotos are dropped, branches become assumes. */
std::vector<std::vector<std::vector<litmus::PtxInstruction>>> thread_paths(const litmus::PtxTest& test);

/** Whether any thread has a branch or a goto. */
bool has_control_flow(const litmus::PtxTest& test);

} // namespace fencelab::ptx
