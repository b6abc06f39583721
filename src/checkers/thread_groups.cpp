#include "thread_groups.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

std::string describe_threads(std::vector<ThreadId> threads) {
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  std::vector<std::string> parts;
  for (size_t i = 0; i < threads.size();) {
    // The longest run from i in one warp with a constant lane stride.
    size_t j = i + 1;
    uint32_t stride = 0;
    if (j < threads.size() && threads[j].block == threads[i].block && threads[j].warp == threads[i].warp) {
      stride = threads[j].lane - threads[i].lane;
      while (j + 1 < threads.size() && threads[j + 1].block == threads[i].block &&
             threads[j + 1].warp == threads[i].warp && threads[j + 1].lane - threads[j].lane == stride)
        ++j;
      ++j;
    }
    const size_t run = j - i;
    if (run == 1) parts.push_back(threads[i].to_string());
    else if (run == 2 && stride != 1) {
      parts.push_back(threads[i].to_string());
      parts.push_back(threads[i + 1].to_string());
    } else {
      const char* which = stride == 1 ? "" : stride == 2 ? (threads[i].lane % 2 == 0 ? " even lanes" : " odd lanes") : "";
      std::string part = fmt::format("{}-{}{}", threads[i].to_string(), threads[j - 1].to_string(), which);
      if (stride > 2) part += fmt::format(" every {} lanes", stride);
      parts.push_back(part);
    }
    i = j;
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

} // namespace fencelab
