// The barrier timeline of one execution: one lane per thread, time across, each thread's
// visible events as marks, and each barrier as its threads arriving at different times and
// leaving together (the textbook picture: seed 001, section 4.3, figure 4.3; Programming
// Guide 10.6 for __syncthreads, 10.7 for __syncwarp).
#pragma once

#include "fencelab/machine/events.h"
#include "fencelab/machine/machine.h"
#include "fencelab/program/program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fencelab {

enum class TimelineMarkKind : uint8_t { Load, Store, Atomic, Fence, Arrive, Warp, Exit, Error, Print };

struct TimelineMark {
  TimelineMarkKind kind = TimelineMarkKind::Load;
  uint32_t time = 0;
  uint32_t line = 0;   ///< source line, 0 when none
  std::string label;   ///< "W X=1", "arrive", "__syncwarp"
  bool diverged = false; ///< an arrival at a barrier the rest of the block did not reach
  bool flagged = false;  ///< at a source line a diagnostic points at (TimelineOptions::flagged_lines)
};

/** One thread's lane. */
struct TimelineLane {
  ThreadId thread;
  std::string title;      ///< "(0, 3)": block, thread in block
  uint32_t start = 0;     ///< time of its first event
  uint32_t end = 0;       ///< time of its exit or its last event
  bool exited = false;
  std::vector<TimelineMark> marks;
  /** Set when the execution ended with the thread still waiting (deadlock, divergence). */
  bool stuck = false;
  std::string stuck_reason; ///< "waits at __syncthreads (line 30)"
  uint32_t stuck_line = 0;
};

struct BarrierWait {
  ThreadId thread;
  uint32_t arrive_time = 0;
  uint32_t line = 0;
};

/** One barrier completing: who waited, from when, and where. */
struct BarrierEpisode {
  uint32_t release_time = 0;
  uint32_t block = 0;
  bool warp_level = false;  ///< __syncwarp (no per-lane arrival events: arrive_time = release)
  std::vector<BarrierWait> waits;
  std::vector<ThreadId> exited; ///< the block's threads that had exited instead of arriving
  /** Its waiters stood at different source lines, or some of the block had exited. */
  bool diverged = false;
  std::string divergence; ///< the sentence saying who waited where
};

struct BarrierTimeline {
  std::vector<TimelineLane> lanes;
  std::vector<BarrierEpisode> episodes;
  uint32_t length = 0;             ///< number of time steps
  std::vector<ThreadId> left_out;  ///< threads not drawn
  std::string title;
  std::vector<std::string> notes;  ///< the diagnostic, lines about divergence
};

struct TimelineOptions {
  uint32_t max_threads = 8; ///< more: keep the threads in a divergence or stuck, then the first
  /** Source lines a diagnostic points at (a race's accesses): their marks are drawn in the
   *  diagnostic's colour, and with many threads the threads with such marks are kept first. */
  std::vector<uint32_t> flagged_lines;
};

/** Time is the position of each thread-visible event in the execution (model drains and
 *  block starts take none). */
BarrierTimeline build_barrier_timeline(const Program& program, const std::vector<Event>& events,
                                       const ExecutionResult& execution, const TimelineOptions& options = {});

} // namespace fencelab
