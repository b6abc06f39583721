#include "fencelab/checkers/report_catalogue.h"

namespace fencelab {

void ReportCatalogue::clear() {
  m_entries.clear();
  m_by_identity.clear();
  m_found.clear();
  m_size_at_begin = 0;
}

void ReportCatalogue::begin_execution() {
  ++m_execution;
  m_found.clear();
  m_size_at_begin = size();
}

uint32_t ReportCatalogue::discard_execution() {
  for (uint32_t i = m_size_at_begin; i < size(); ++i) m_by_identity.erase(m_entries[i].identity);
  m_entries.resize(m_size_at_begin);
  m_found.clear();
  return m_size_at_begin;
}

uint32_t ReportCatalogue::add(CheckReport report) {
  std::string identity = report.identity();
  const auto [it, inserted] = m_by_identity.try_emplace(identity, size());
  if (inserted) m_entries.push_back(Entry{std::move(report), std::move(identity), 0});
  note(it->second);
  return it->second;
}

void ReportCatalogue::note(uint32_t index) {
  Entry& e = m_entries[index];
  if (e.last_execution == m_execution) return;
  e.last_execution = m_execution;
  m_found.push_back(index);
}

} // namespace fencelab
