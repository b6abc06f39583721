// Random exploration: `runs` executions whose decisions are drawn from a seeded generator, on
// one core or on several (--jobs).
//
// Runs are dealt out in chunks of kRunsPerChunk, and chunk c draws from a generator of its own:
// chunk 0 from --seed itself (so a search of at most kRunsPerChunk runs is exactly the one
// fencelab made before --jobs existed), chunk c > 0 from a seed derived from --seed and c. The
// chunks' tables are merged in chunk order, so the histogram, the counts and every witness are
// the same whatever the number of jobs: --jobs changes how fast, never what. Each job has its
// own Machine, model and checkers (nothing of an execution is shared between OS threads; the
// Program is only read), and takes the next chunk when it has finished one.
#include "fencelab/explore/exploration.h"

#include "fencelab/explore/search_control.h"
#include "fencelab/support/huge_pages.h"
#include "outcome_table.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace fencelab {

namespace {

constexpr uint64_t kRunsPerChunk = 4096;

uint64_t chunk_seed(uint64_t seed, uint64_t chunk) {
  if (chunk == 0) return seed;
  SplitMix64 mix(seed ^ (chunk * 0xd1b54a32d192ed03ull));
  return mix.next();
}

/** The decisions of an execution, in pieces kept from one execution to the next: an execution
 *  of millions of decisions (a large grid) grows them without copying what it has (a vector
 *  doubling its way to 21 MB for the 2^20-thread reduction cost a tenth of the run). The first
 *  piece is small, for the many short executions of a litmus test; the later ones are large
 *  enough to lie on huge pages (huge_pages.h): on 4 KiB pages, faulting in the 2^20-thread
 *  reduction's 21 MB of decisions took some 5,000 page faults, 3% of its run on the 2-core
 *  development machine (perf). */
class Decisions {
public:
  void push_back(uint32_t decision) {
    if (m_last == nullptr || m_last->size() == m_last->capacity()) next_piece();
    m_last->push_back(decision);
  }
  size_t size() const { return m_last == nullptr ? 0 : m_in_full + m_last->size(); }
  bool empty() const { return size() == 0; }
  /** Empty, keeping the pieces' memory. */
  void clear() {
    for (size_t i = 0; i <= m_full && i < m_pieces.size(); ++i) m_pieces[i].clear();
    m_full = 0;
    m_in_full = 0;
    m_last = nullptr;
  }
  /** All of them in one vector (a witness's), itself on huge pages where it is large. */
  std::vector<uint32_t> joined() const {
    std::vector<uint32_t> all;
    all.reserve(size());
    advise_huge_pages(all.data(), all.capacity() * sizeof(uint32_t));
    if (m_last != nullptr)
      for (size_t i = 0; i <= m_full; ++i) all.insert(all.end(), m_pieces[i].begin(), m_pieces[i].end());
    return all;
  }

private:
  using Piece = std::vector<uint32_t, HugePageAllocator<uint32_t>>;
  static constexpr size_t kFirstPiece = size_t(1) << 16;                     ///< 256 KiB
  static constexpr size_t kLaterPiece = (size_t(4) << 20) / sizeof(uint32_t); ///< 4 MiB, two huge pages
  static_assert(kLaterPiece * sizeof(uint32_t) >= kHugePageThreshold);
  void next_piece() {
    if (m_last != nullptr) {
      ++m_full;
      m_in_full += m_last->size();
    }
    if (m_full == m_pieces.size()) m_pieces.emplace_back().reserve(m_full == 0 ? kFirstPiece : kLaterPiece);
    m_last = &m_pieces[m_full];
  }
  std::vector<Piece> m_pieces;
  size_t m_full = 0;       ///< pieces before the last in use, all full
  size_t m_in_full = 0;    ///< the decisions they hold (the first piece is smaller than the rest)
  Piece* m_last = nullptr; ///< the piece in use (none: no decision yet)
};

class RandomChoices final : public InterruptibleChoices {
public:
  RandomChoices(uint64_t seed, double bias) : m_random(seed), m_bias(bias) {}
  uint32_t choose(uint32_t options, ChoiceKind, uint32_t common) override {
    const uint32_t c = draw(m_random, options, common);
    m_taken.push_back(c);
    return c;
  }
  bool predict(uint32_t options, uint32_t common, std::span<uint32_t> ahead) const override {
    SplitMix64 copy = m_random; // the generator's state is one word: drawing from a copy
    for (uint32_t& c : ahead) c = draw(copy, options, common);
    return true;
  }
  Decisions& taken() { return m_taken; }

private:
  uint32_t draw(SplitMix64& random, uint32_t options, uint32_t common) const {
    const bool take_common = common > 0 && m_bias > 0 && random.unit() < m_bias;
    return take_common ? random.below(common) : random.below(options);
  }

  SplitMix64 m_random;
  double m_bias;
  Decisions m_taken;
};

/** What one chunk's executions collected. */
struct ChunkResult {
  OutcomeTable table;
  uint64_t executions = 0;
  uint64_t events = 0;
  /** Why an execution was cut off inside (a time limit, a signal): the chunk ended there. */
  std::string interrupted_because;
};

/** What one job searches with. */
struct Searcher {
  Machine& machine;
  MemoryModel& model;
  Checkers* checkers;
  const std::string& model_name; ///< as tokens name it: "gpu", "gpu.lockstep"
  const RandomOptions& options;
  /** What may interrupt an execution inside: the SearchControl on one job, the watcher's stop
   *  flag on several (InterruptibleChoices). */
  const std::atomic<bool>* stop_flag = nullptr;
};

/** Runs chunk `chunk` into `out`. `stop(depth)` is asked before each execution (`depth`: the
 *  decisions of the one before) and ends the chunk early when true. */
template <class Stop>
void run_chunk(const Searcher& s, uint64_t chunk, ChunkResult& out, Stop&& stop) {
  RandomChoices choices(chunk_seed(s.options.seed, chunk), s.options.bias);
  if (s.stop_flag) choices.interrupt_on(s.stop_flag);
  else choices.interrupt_on(s.options.control);
  const uint64_t first = chunk * kRunsPerChunk;
  const uint64_t end = std::min(s.options.runs, first + kRunsPerChunk);
  for (uint64_t run = first; run < end; ++run) {
    if (stop(choices.taken().size())) return;
    choices.taken().clear();
    const ExecutionResult& execution = s.machine.run(s.model, choices, s.checkers);
    if (!choices.interrupted_because().empty()) { // unfinished: not counted
      if (s.checkers) s.checkers->discard_execution();
      out.interrupted_because = choices.interrupted_because();
      return;
    }
    // An execution that asked no decision is the only one there is: every further run would
    // repeat it exactly, so it counts for all of them (a million-block grid runs once).
    const uint64_t times = choices.taken().empty() ? s.options.runs - run : 1;
    const auto witness = [&] { return ReplayToken{s.model_name, choices.taken().joined()}; };
    out.table.add(execution, witness, times);
    if (s.checkers) out.table.add_reports(s.checkers->catalogue(), witness, times);
    out.events += execution.events * times;
    out.executions += times;
    if (times > 1) return;
  }
}

uint64_t chunk_count(uint64_t runs) { return (runs + kRunsPerChunk - 1) / kRunsPerChunk; }

/** Every chunk in turn, on this thread. */
void search_serially(const Searcher& s, OutcomeTable& table, ExplorationResult& result) {
  for (uint64_t chunk = 0; chunk < chunk_count(s.options.runs) && result.executions < s.options.runs; ++chunk) {
    const uint64_t before = result.executions;
    ChunkResult part;
    bool stopped = false;
    run_chunk(s, chunk, part, [&](size_t depth) {
      if (!s.options.control) return false;
      result.executions = before + part.executions; // what the progress line shows
      return stopped = s.options.control->should_stop(result, depth);
    });
    table.merge(std::move(part.table));
    result.executions = before + part.executions;
    result.events += part.events;
    if (!part.interrupted_because.empty()) result.stopped_because = part.interrupted_because;
    if (stopped || !part.interrupted_because.empty()) return;
  }
}

/** One job's running count, on a cache line of its own (jobs bump it once an execution). */
struct alignas(64) JobProgress {
  std::atomic<uint64_t> executions{0};
  std::atomic<size_t> depth{0};
};

/**
 * `jobs` threads take chunks in turn; this thread watches `control` (time limit, signals,
 * progress line) and tells them to stop. A job that throws stops the others, and its exception
 * is rethrown here once all have ended.
 */
void search_in_parallel(const Searcher& s, uint32_t jobs, OutcomeTable& table, ExplorationResult& result) {
  const uint64_t chunks = chunk_count(s.options.runs);
  std::vector<ChunkResult> parts(chunks);
  std::vector<JobProgress> progress(jobs);
  std::atomic<uint64_t> next_chunk{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable job_ended;
  uint32_t running = jobs;
  std::exception_ptr failure;

  auto job = [&](uint32_t index) {
    try {
      Machine machine(s.machine.program(), s.machine.options());
      const auto model = create_model(s.model.name());
      std::optional<Checkers> checkers;
      if (s.checkers) {
        checkers.emplace(s.machine.program());
        checkers->start_search();
      }
      const Searcher mine{machine, *model, checkers ? &*checkers : nullptr, s.model_name, s.options, &stop};
      JobProgress& counts = progress[index];
      for (uint64_t chunk; (chunk = next_chunk.fetch_add(1)) < chunks && !stop.load(std::memory_order_relaxed);) {
        // Collected apart and moved into `parts` when done: the jobs run neighbouring chunks at
        // once, and in `parts` the counts an execution bumps would share cache lines with the
        // next chunk's table, which another job reads at every execution.
        ChunkResult collected;
        run_chunk(mine, chunk, collected, [&](size_t depth) {
          counts.depth.store(depth, std::memory_order_relaxed);
          counts.executions.store(counts.executions.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
          return stop.load(std::memory_order_relaxed);
        });
        parts[chunk] = std::move(collected);
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
    std::lock_guard lock(mutex);
    --running;
    job_ended.notify_all();
  };

  std::vector<std::thread> threads;
  threads.reserve(jobs);
  for (uint32_t j = 0; j < jobs; ++j) threads.emplace_back(job, j);
  {
    std::unique_lock lock(mutex);
    while (running > 0) {
      job_ended.wait_for(lock, std::chrono::milliseconds(10));
      if (!s.options.control || stop) continue;
      result.executions = 0;
      size_t depth = 0;
      for (const JobProgress& p : progress) {
        result.executions += p.executions.load(std::memory_order_relaxed);
        depth = std::max(depth, p.depth.load(std::memory_order_relaxed));
      }
      if (s.options.control->should_stop(result, depth)) stop = true;
    }
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  result.executions = 0;
  for (ChunkResult& part : parts) {
    table.merge(std::move(part.table));
    result.executions += part.executions;
    result.events += part.events;
  }
}

/** Whether the search's first execution asks a decision (run without checkers). An
 *  interrupted probe says no: the serial search then stops at once for the same reason. */
bool asks_decisions(Machine& machine, MemoryModel& model, const RandomOptions& options) {
  RandomChoices choices(chunk_seed(options.seed, 0), options.bias);
  choices.interrupt_on(options.control);
  machine.run(model, choices, nullptr);
  return !choices.taken().empty() && choices.interrupted_because().empty();
}

} // namespace

ExplorationResult explore_random(Machine& machine, MemoryModel& model, const RandomOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ExplorationResult result;
  result.mode = ExplorationMode::Random;
  result.model = mode_name(model.name(), machine.options().warp); // "gpu", "gpu.lockstep"
  result.seed = options.seed;
  if (options.checkers) options.checkers->start_search();
  const Searcher searcher{machine, model, options.checkers, result.model, options};
  OutcomeTable table;
  // Each job's machine holds a fiber stack per resident thread (unless they run stackless), and
  // the process can map only so many (fiber_stack_capacity): a large grid runs on fewer jobs
  // rather than failing in one.
  const uint64_t job_fit = std::max<uint64_t>(1, fiber_stack_capacity() / std::max<uint64_t>(1, machine.fiber_stacks_needed()));
  const uint32_t jobs = uint32_t(
      std::min({std::max<uint64_t>(options.jobs, 1), chunk_count(options.runs), job_fit}));
  // An execution that asks no decision is the only one there is, and runs once (run_chunk):
  // jobs are started only when the first execution asks one.
  if (jobs > 1 && asks_decisions(machine, model, options)) {
    machine.release_fiber_stacks(); // the probe's: each job's Machine maps its own (job_fit)
    search_in_parallel(searcher, jobs, table, result);
  } else {
    search_serially(searcher, table, result);
  }
  machine.release_fiber_stacks(); // the next search (another model's) maps its own
  result.outcomes = table.take();
  result.reports = table.take_reports();
  result.checked = options.checkers != nullptr;
  result.seconds = seconds_since(start);
  return result;
}

} // namespace fencelab
