#include "fencelab/checkers/checkers.h"

#include "race_detector.h"
#include "thread_groups.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace fencelab {

DiagnosticKind diagnostic_kind_of(RuntimeErrorKind kind) {
  switch (kind) {
  case RuntimeErrorKind::OutOfBounds: return DiagnosticKind::OutOfBounds;
  case RuntimeErrorKind::Misaligned: return DiagnosticKind::Misaligned;
  case RuntimeErrorKind::InvalidWarpMask: return DiagnosticKind::InvalidWarpMask;
  case RuntimeErrorKind::InactiveLaneShuffle: return DiagnosticKind::InactiveLaneShuffle;
  case RuntimeErrorKind::WarpMismatch: return DiagnosticKind::WarpMismatch;
  case RuntimeErrorKind::AssertionFailed: return DiagnosticKind::AssertionFailed;
  case RuntimeErrorKind::PrintfClamped: return DiagnosticKind::PrintfClamped;
  case RuntimeErrorKind::NullPointer:
  case RuntimeErrorKind::Arithmetic:
  case RuntimeErrorKind::Unsupported:
  case RuntimeErrorKind::Other: return DiagnosticKind::RuntimeError;
  }
  return DiagnosticKind::RuntimeError;
}

std::optional<DiagnosticKind> execution_error_kind(ExecutionStatus status, const std::optional<RuntimeErrorReport>& error) {
  switch (status) {
  case ExecutionStatus::Completed:
  case ExecutionStatus::StepLimit: return std::nullopt;
  case ExecutionStatus::Deadlock: return DiagnosticKind::Deadlock;
  case ExecutionStatus::Livelock: return DiagnosticKind::Livelock;
  case ExecutionStatus::RuntimeError: return error ? diagnostic_kind_of(error->kind) : DiagnosticKind::RuntimeError;
  }
  return DiagnosticKind::RuntimeError;
}

Checkers::Checkers(const Program& program, CheckerOptions options)
    : m_program(program), m_races(std::make_unique<RaceDetector>(program, options.track_read_only_buffers)) {}
Checkers::~Checkers() = default;

bool Checkers::races_checked() const { return m_races->enabled(); }

void Checkers::start_search() {
  m_catalogue.clear();
  m_races->forget_findings_from(0);
}

void Checkers::discard_execution() { m_races->forget_findings_from(m_catalogue.discard_execution()); }

std::vector<CheckReport> Checkers::execution_reports() const {
  std::vector<CheckReport> out;
  for (uint32_t index : m_catalogue.found()) out.push_back(m_catalogue.report(index));
  return out;
}

void Checkers::begin_execution() {
  m_catalogue.begin_execution();
  m_races->begin_execution();
}

void Checkers::prefetch_thread(const ThreadId& thread) { m_races->prefetch_thread(thread); }

void Checkers::prefetch_location(Location location) { m_races->prefetch_location(location); }

void Checkers::on_event(const Event& event) {
  m_races->on_event(event, m_catalogue);
  // Warp-level synchronizations (warp_mask set) are not __syncthreads: no block divergence.
  if (event.kind == EventKind::BarrierRelease && event.warp_mask == 0) check_barrier(event);
}

// "__syncthreads() is allowed in conditional code but only if the conditional evaluates
// identically across the entire thread block" (Programming Guide 10.6): threads waiting at
// different call sites, or some exited while others wait, are barrier divergence.
void Checkers::check_barrier(const Event& event) {
  const auto same_site = [&event](const std::pair<ThreadId, SourceRange>& waiter) {
    return waiter.second.begin == event.waiting.front().second.begin;
  };
  if (event.exited.empty() && (event.waiting.empty() || std::all_of(event.waiting.begin(), event.waiting.end(), same_site)))
    return; // the common case, decided without building the groups below
  std::map<uint32_t, std::pair<SourceRange, std::vector<ThreadId>>> by_site;
  for (const auto& [thread, range] : event.waiting) {
    auto& entry = by_site[range.begin];
    entry.first = range;
    entry.second.push_back(thread);
  }
  if (by_site.size() <= 1 && event.exited.empty()) return;
  const uint32_t block = event.waiting.empty() ? 0 : event.waiting.front().first.block;
  CheckReport r;
  r.kind = DiagnosticKind::BarrierDivergence;
  r.message = by_site.size() > 1
                  ? fmt::format("barrier divergence in block {}: its threads wait at {} different __syncthreads",
                                block, by_site.size())
                  : fmt::format("barrier divergence in block {}: threads exited while others waited at __syncthreads",
                                block);
  for (const auto& [begin, entry] : by_site) r.sites.push_back({"waits", entry.first, describe_threads(entry.second)});
  if (!event.exited.empty()) r.sites.push_back({"exited", SourceRange{}, describe_threads(event.exited)});
  m_catalogue.add(std::move(r));
}

void Checkers::end_execution(const ExecutionResult& result) {
  if (result.outcome.status == ExecutionStatus::Completed && result.warnings.empty()) return; // most executions
  CheckReport r;
  switch (result.outcome.status) {
  case ExecutionStatus::Completed: break;
  case ExecutionStatus::Deadlock: {
    r.kind = DiagnosticKind::Deadlock;
    r.message = "deadlock: no thread can make progress";
    // One site per group of threads blocked at the same place for the same reason.
    std::map<std::pair<uint32_t, std::string>, std::pair<SourceRange, std::vector<ThreadId>>> groups;
    for (const BlockedThread& b : result.blocked) {
      auto& g = groups[{b.range.begin, b.waits_for}];
      g.first = b.range;
      g.second.push_back(b.thread);
    }
    for (const auto& [key, g] : groups) r.sites.push_back({key.second, g.first, describe_threads(g.second)});
    // A warp operation's lanes that never arrive are not blocked threads: the Machine's
    // message names them (exited, or waiting elsewhere).
    const bool at_warp = std::any_of(result.blocked.begin(), result.blocked.end(),
                                     [](const BlockedThread& b) { return b.at_warp_operation; });
    if (groups.empty() || at_warp) r.message += ": " + result.outcome.message;
    if (result.never_resident != 0) {
      // Forward progress between blocks (machine.cpp deadlock_message): the waiting blocks need
      // a resident block to finish first.
      r.message += fmt::format("; the resident blocks wait for blocks that can never become resident "
                               "(at most {} resident at once)",
                               result.resident_limit);
      // this_grid().sync() needs the whole grid resident (Programming Guide, "Grid Synchronization").
      if (m_program.unit.uses_grid_sync)
        r.message += "; the grid is not co-resident, so its grid sync can never complete "
                     "(cudaLaunchCooperativeKernel would refuse this launch)";
      r.sites.push_back({"never resident", SourceRange{},
                         describe_blocks(result.first_never_resident, result.never_resident)});
    }
    m_catalogue.add(std::move(r));
    break;
  }
  case ExecutionStatus::Livelock:
    // A loop whose state came back unchanged (Machine::Impl::check_local_loop, a barrier round
    // that repeats the one before): it can never end.
    r.kind = DiagnosticKind::Livelock;
    r.message = "livelock: " + result.outcome.message;
    if (result.error) r.sites.push_back({"loops", result.error->diagnostic.range, result.error->thread.to_string()});
    m_catalogue.add(std::move(r));
    break;
  case ExecutionStatus::StepLimit:
    // A limit of the search, not a finding: the execution might have finished with more room.
    r.kind = DiagnosticKind::StepLimit;
    r.message = "step limit: " + result.outcome.message;
    m_catalogue.add(std::move(r));
    break;
  case ExecutionStatus::RuntimeError: {
    if (!result.error) break;
    const RuntimeErrorReport& e = *result.error;
    r.kind = diagnostic_kind_of(e.kind);
    r.message = result.outcome.message;
    r.sites.push_back({"reached", e.diagnostic.range, e.thread.to_string()});
    m_catalogue.add(std::move(r));
    break;
  }
  }
  for (const RuntimeErrorReport& w : result.warnings) {
    CheckReport warning;
    warning.kind = diagnostic_kind_of(w.kind);
    warning.message = w.diagnostic.message;
    warning.sites.push_back({"reached", w.diagnostic.range, w.thread.to_string()});
    m_catalogue.add(std::move(warning));
  }
}

} // namespace fencelab
