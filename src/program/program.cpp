// The checked kernel and its harness (see program/program.h).
#include "fencelab/program/program.h"

namespace fencelab {

const ObservedItem* Program::find_observed(std::string_view label) const {
  for (const ObservedItem& item : observed) {
    if (item.label == label) return &item;
  }
  return nullptr;
}

} // namespace fencelab
