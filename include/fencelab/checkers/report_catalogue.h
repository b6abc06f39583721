// The distinct findings of one search, each rendered once (issue 12: checkers that cost little).
//
// One bug shows up in execution after execution. A checker that meets a finding asks the
// catalogue for it by a compact key first and renders its text (message, sites, identity) only
// the first time; each execution then lists the findings it showed as indexes. The first
// rendering comes from the first execution that showed the finding: its witness.
#pragma once

#include "fencelab/checkers/report.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

class ReportCatalogue {
public:
  /** Forgets every finding: a new search starts (its witnesses must render their own). */
  void clear();
  void begin_execution();
  /** Drops what the execution just ended added: it repeated explored ones and was abandoned,
   *  so it must not be the rendering a later witness shows. Returns the size to keep. */
  uint32_t discard_execution();

  /** Records `report` as found in this execution; returns its index. */
  uint32_t add(CheckReport report);
  /** Records an already catalogued finding as found in this execution. */
  void note(uint32_t index);

  /** This execution's findings, each once, in the order found. */
  const std::vector<uint32_t>& found() const { return m_found; }
  const CheckReport& report(uint32_t index) const { return m_entries[index].report; }
  uint32_t size() const { return uint32_t(m_entries.size()); }

private:
  struct Entry {
    CheckReport report;
    std::string identity;
    uint64_t last_execution = 0; ///< the execution that last listed it in found()
  };
  std::vector<Entry> m_entries;
  std::unordered_map<std::string, uint32_t> m_by_identity;
  std::vector<uint32_t> m_found;
  uint64_t m_execution = 0;
  uint32_t m_size_at_begin = 0;
};

} // namespace fencelab
