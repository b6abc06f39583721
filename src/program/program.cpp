// The checked kernel and its harness (see program/program.h).
#include "fencelab/program/program.h"

namespace fencelab {

namespace {

// Messages list this many labels at most (as many as observed by default of one buffer).
constexpr size_t kListedLabels = 16;

} // namespace

bool Program::add_observed(ObservedItem item) {
  if (!m_observed_by_label.emplace(item.label, uint32_t(observed.size())).second) return false;
  observed.push_back(std::move(item));
  return true;
}

const ObservedItem* Program::find_observed(std::string_view label) const {
  const auto it = m_observed_by_label.find(std::string(label));
  return it == m_observed_by_label.end() ? nullptr : &observed[it->second];
}

std::string Program::observed_labels() const {
  if (observed.empty()) return "nothing";
  std::string labels;
  for (size_t i = 0; i < observed.size() && i < kListedLabels; ++i) labels += (i ? ", " : "") + observed[i].label;
  if (observed.size() > kListedLabels) labels += " and " + std::to_string(observed.size() - kListedLabels) + " more";
  return labels;
}

} // namespace fencelab
