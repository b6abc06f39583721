// A checker's finding: kind, severity, the accesses or threads involved, and the execution
// that shows it (DESIGN "Diagnostics").
#pragma once

#include "fencelab/explore/replay_token.h"
#include "fencelab/machine/ids.h"
#include "fencelab/support/source.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

enum class DiagnosticKind : uint8_t {
#define DIAGNOSTIC(name, spelling, severity) name,
#include "fencelab/checkers/diagnostic_kinds.def"
};

const char* diagnostic_kind_name(DiagnosticKind kind);
Severity diagnostic_kind_severity(DiagnosticKind kind);
/** Looks a kind up by its name ("data-race"); nullopt when there is none. */
std::optional<DiagnosticKind> find_diagnostic_kind(std::string_view name);
/** The name of every kind an `//@ expect ... diagnostic` may name (all but step-limit),
 *  comma-separated, for messages about an unknown one. */
std::string diagnostic_kind_names();

/** One place a report points at: an access or a waiting point, and who was there. */
struct ReportSite {
  std::string role;  ///< "write", "read", "atomic", "waits", "exited", ...
  SourceRange range; ///< empty when there is no source (a thread that exited)
  std::string threads; ///< "(0,0,3)" or a grouped range "(0,0,0)-(0,0,15), even lanes"
};

struct CheckReport {
  DiagnosticKind kind = DiagnosticKind::DataRace;
  std::string message;           ///< one line: "data race (RAW) on shared_data[17]"
  std::vector<ReportSite> sites; ///< in order of occurrence
  ReplayToken witness;           ///< filled by the explorer: the execution that showed it

  /** What makes two reports the same finding (kind, message, site roles and ranges). */
  std::string identity() const;
};

} // namespace fencelab
