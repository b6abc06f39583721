// What a search collects as it runs: each distinct outcome and checker report with its count
// and its first witness. Shared by the exhaustive and random explorers; the random one merges
// the tables of its chunks (random_search.cpp).
#pragma once

#include "fencelab/explore/exploration.h"

#include <chrono>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/** Collects outcomes with their counts and first witnesses. */
class OutcomeTable {
public:
  /** Adds an execution. Its replay token is made by `witness()`, called only where the
   *  outcome is new: an execution of a long search allocates nothing here. */
  template <class MakeWitness>
  void add(const ExecutionResult& result, MakeWitness&& witness, uint64_t times = 1) {
    auto [it, inserted] = m_counts.try_emplace(result.outcome);
    OutcomeCount& entry = it->second;
    if (inserted) {
      entry.outcome = result.outcome;
      entry.witness = witness();
      entry.error = result.error;
    }
    entry.executions += times;
  }
  /** Adds the checker reports of the execution just run; the first execution showing one is
   *  its witness. The catalogue (one per search: Checkers::start_search) holds each finding
   *  once, rendered once; the table keeps its own copy, with the witness, in order found. */
  template <class MakeWitness>
  void add_reports(const ReportCatalogue& catalogue, MakeWitness&& witness, uint64_t times = 1) {
    for (uint32_t index : catalogue.found()) {
      if (index >= m_by_catalogue.size()) m_by_catalogue.resize(index + 1, kUnseen);
      size_t& mine = m_by_catalogue[index];
      if (mine == kUnseen) {
        mine = m_reports.size();
        CheckReport report = catalogue.report(index);
        report.witness = witness();
        m_reports.push_back(ReportCount{std::move(report), 0});
      }
      m_reports[mine].executions += times;
    }
  }

  /** Adds what `later` collected from executions that come after this table's: counts add up,
   *  and a finding or outcome keeps this table's witness when it has one. Reports are matched by
   *  identity (the two tables may come from different checkers' catalogues). */
  void merge(OutcomeTable&& later) {
    for (auto& [outcome, count] : later.m_counts) {
      auto [it, inserted] = m_counts.try_emplace(outcome);
      if (inserted) it->second = std::move(count);
      else it->second.executions += count.executions;
    }
    if (m_by_identity.size() != m_reports.size())
      for (size_t i = 0; i < m_reports.size(); ++i) m_by_identity.try_emplace(m_reports[i].report.identity(), i);
    for (ReportCount& r : later.m_reports) {
      const auto [it, inserted] = m_by_identity.try_emplace(r.report.identity(), m_reports.size());
      if (inserted) m_reports.push_back(std::move(r));
      else m_reports[it->second].executions += r.executions;
    }
  }

  std::vector<ReportCount> take_reports() { return std::move(m_reports); }
  std::vector<OutcomeCount> take() {
    std::vector<OutcomeCount> out;
    out.reserve(m_counts.size());
    for (auto& [outcome, count] : m_counts) out.push_back(std::move(count));
    return out;
  }

private:
  std::map<Outcome, OutcomeCount> m_counts;
  static constexpr size_t kUnseen = SIZE_MAX;
  std::vector<size_t> m_by_catalogue; ///< catalogue index -> index into m_reports
  std::vector<ReportCount> m_reports;
  std::unordered_map<std::string, size_t> m_by_identity; ///< for merge: identity -> index into m_reports
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace fencelab
