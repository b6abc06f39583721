// Writing sets of threads compactly: "(0,0,0)-(0,0,15)", "(0,0,0)-(0,0,14) even lanes".
#pragma once

#include "fencelab/machine/ids.h"

#include <string>
#include <vector>

namespace fencelab {

/** Threads grouped into runs of consecutive (or evenly strided) lanes of one warp. */
std::string describe_threads(std::vector<ThreadId> threads);

} // namespace fencelab
