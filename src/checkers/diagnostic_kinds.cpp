#include "fencelab/checkers/report.h"

#include <fmt/format.h>

namespace fencelab {

namespace {

struct KindInfo {
  const char* name;
  Severity severity;
};

constexpr KindInfo kKinds[] = {
#define DIAGNOSTIC(name, spelling, severity) {spelling, Severity::severity},
#include "fencelab/checkers/diagnostic_kinds.def"
};

} // namespace

const char* diagnostic_kind_name(DiagnosticKind kind) { return kKinds[size_t(kind)].name; }
Severity diagnostic_kind_severity(DiagnosticKind kind) { return kKinds[size_t(kind)].severity; }

std::optional<DiagnosticKind> find_diagnostic_kind(std::string_view name) {
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (name == kKinds[i].name) return static_cast<DiagnosticKind>(i);
  return std::nullopt;
}

std::string CheckReport::identity() const {
  // Threads and element indexes vary between executions of one bug; kind, message stem and
  // the source ranges involved do not.
  std::string id = fmt::format("{}|{}", diagnostic_kind_name(kind), message.substr(0, message.find('[')));
  for (const ReportSite& site : sites) id += fmt::format("|{}@{}-{}", site.role, site.range.begin, site.range.end);
  return id;
}

} // namespace fencelab
