#include "fencelab/machine/outcome.h"

#include <fmt/format.h>

namespace fencelab {

const char* execution_status_name(ExecutionStatus status) {
  switch (status) {
#define X(name, spelling)                                                                          \
  case ExecutionStatus::name: return spelling;
    FENCELAB_EXECUTION_STATUSES(X)
#undef X
  }
  return "?";
}

std::string Outcome::to_string(const Program& program) const {
  if (status != ExecutionStatus::Completed)
    return fmt::format("{}: {}", execution_status_name(status), message);
  std::string out;
  for (size_t i = 0; i < values.size() && i < program.observed.size(); ++i) {
    const ObservedItem& item = program.observed[i];
    if (!out.empty()) out += ' ';
    out += item.label;
    out += '=';
    out += present[i] ? format_word(values[i], item.type) : "?";
  }
  return out.empty() ? "(nothing observed)" : out;
}

bool Outcome::matches(const OutcomePattern& pattern) const {
  if (status != ExecutionStatus::Completed) return false;
  for (const auto& [item, value] : pattern.items)
    if (item >= values.size() || !present[item] || values[item] != value) return false;
  return true;
}

} // namespace fencelab
