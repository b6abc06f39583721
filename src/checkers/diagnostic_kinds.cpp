#include "fencelab/checkers/report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

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

std::string diagnostic_kind_names() {
  std::string list;
  for (const KindInfo& kind : kKinds) {
    if (kind.name == std::string_view("step-limit")) continue; // no expectation may name it
    if (!list.empty()) list += ", ";
    list += kind.name;
  }
  return list;
}

namespace {

/** The message without what varies between executions of one bug: the hazard "(RAW)" (it
 *  depends on which access came first) and element indexes "[17]". */
std::string message_stem(const std::string& message) {
  std::string stem;
  for (size_t i = 0; i < message.size(); ++i) {
    const char open = message[i];
    if (message.compare(i, 5, "(RAW)") == 0 || message.compare(i, 5, "(WAR)") == 0 ||
        message.compare(i, 5, "(WAW)") == 0)
      i += 4;
    else if (open == '[') {
      const size_t close = message.find(']', i);
      if (close == std::string::npos) break;
      stem += "[]";
      i = close;
    } else stem += open;
  }
  return stem;
}

} // namespace

std::string CheckReport::identity() const {
  // One bug shows up with different threads, element indexes and orders of its accesses from
  // one execution to the next (`x += 1` by two threads is a read or a write first); its kind,
  // message stem and the set of source sites do not.
  std::vector<std::string> places;
  for (const ReportSite& site : sites) places.push_back(fmt::format("{}-{}", site.range.begin, site.range.end));
  std::sort(places.begin(), places.end());
  return fmt::format("{}|{}|{}", diagnostic_kind_name(kind), message_stem(message), fmt::join(places, "|"));
}

} // namespace fencelab
