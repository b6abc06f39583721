// The reference explorer (reference_model.h). Each rule is stated above the code that applies
// it, with its source: DESIGN.md "Memory models" (D), docs/architecture.md "The memory models"
// (A), the CUDA Programming Guide (PG).
#include "reference_model.h"

#include <algorithm>
#include <unordered_set>

namespace fencelab::testing {

namespace {

struct BufferedStore {
  uint32_t location;
  int32_t value;
};

/** Everything a later step can depend on. */
struct State {
  std::vector<uint32_t> pc;     ///< per thread: its next op
  std::vector<uint8_t> arrived; ///< per thread: it waits at the barrier op at its pc
  std::vector<int32_t> registers;
  /** Per location. sc, tso: one entry, memory's value. gpu: the history in coherence order,
   *  entry 0 the initial value (D). */
  std::vector<std::vector<int32_t>> memory;
  std::vector<std::vector<BufferedStore>> buffers; ///< tso, gpu: per thread, in program order
  std::vector<std::vector<uint32_t>> views;        ///< gpu: per thread, per location: oldest readable entry
  std::vector<std::vector<uint32_t>> fence_views;  ///< gpu: one per block, then the device's, the system's
};

void put(std::string& key, uint32_t word) { key.append(reinterpret_cast<const char*>(&word), sizeof word); }

template <class T> void put_all(std::string& key, const std::vector<T>& items) {
  put(key, uint32_t(items.size()));
  for (const T& item : items) put(key, uint32_t(item));
}

std::string key_of(const State& s) {
  std::string key;
  put_all(key, s.pc);
  put_all(key, s.arrived);
  put_all(key, s.registers);
  for (const auto& entries : s.memory) put_all(key, entries);
  for (const auto& buffer : s.buffers) {
    put(key, uint32_t(buffer.size()));
    for (const BufferedStore& b : buffer) {
      put(key, b.location);
      put(key, uint32_t(b.value));
    }
  }
  for (const auto& view : s.views) put_all(key, view);
  for (const auto& view : s.fence_views) put_all(key, view);
  return key;
}

/** An atomic function's new value from the old one (PG 10.14.1): atomicInc and atomicDec
 *  compare as unsigned; atomicMin and atomicMax on int as signed; arithmetic wraps. */
int32_t apply_rmw(const LitmusOp& op, int32_t old) {
  const uint32_t o = uint32_t(old), v = uint32_t(op.value);
  switch (op.rmw) {
  case LitmusRmw::Add: return int32_t(o + v);
  case LitmusRmw::Sub: return int32_t(o - v);
  case LitmusRmw::Exch: return op.value;
  case LitmusRmw::Cas: return old == op.compare ? op.value : old; // a failing CAS stores `old` back
  case LitmusRmw::Min: return std::min(old, op.value);
  case LitmusRmw::Max: return std::max(old, op.value);
  case LitmusRmw::Inc: return o >= v ? 0 : int32_t(o + 1);
  case LitmusRmw::Dec: return (o == 0 || o > v) ? op.value : int32_t(o - 1);
  case LitmusRmw::And: return int32_t(o & v);
  case LitmusRmw::Or: return int32_t(o | v);
  case LitmusRmw::Xor: return int32_t(o ^ v);
  }
  return old;
}

class Explorer {
public:
  Explorer(const LitmusProgram& program, ReferenceModel model, uint64_t max_states)
      : m_program(program), m_model(model), m_max_states(max_states) {}

  ReferenceResult run() {
    const size_t threads = m_program.threads.size(), locations = m_program.initial.size();
    State s;
    s.pc.assign(threads, 0);
    s.arrived.assign(threads, 0);
    s.registers.assign(m_program.registers, 0);
    for (int32_t initial : m_program.initial) s.memory.push_back({initial});
    if (m_model != ReferenceModel::Sc) s.buffers.assign(threads, {});
    if (m_model == ReferenceModel::Gpu) {
      s.views.assign(threads, std::vector<uint32_t>(locations, 0));
      s.fence_views.assign(m_program.blocks + 2, std::vector<uint32_t>(locations, 0));
    }
    m_result.complete = true;
    visit(s);
    m_result.states = m_visited.size();
    return m_result;
  }

private:
  const LitmusProgram& m_program;
  const ReferenceModel m_model;
  const uint64_t m_max_states;
  std::unordered_set<std::string> m_visited;
  ReferenceResult m_result;

  bool gpu() const { return m_model == ReferenceModel::Gpu; }
  bool done(const State& s, uint32_t t) const { return s.pc[t] == m_program.threads[t].ops.size(); }
  const LitmusOp& op_at(const State& s, uint32_t t) const { return m_program.threads[t].ops[s.pc[t]]; }
  uint32_t thread_of(uint32_t block, uint32_t lane) const { return block * m_program.threads_per_block + lane; }

  void visit(const State& s) {
    if (m_visited.size() >= m_max_states) {
      m_result.complete = false;
      return;
    }
    if (!m_visited.insert(key_of(s)).second) return;
    bool stepped = false;
    const auto next = [&](const State& after) {
      stepped = true;
      visit(after);
    };
    for (uint32_t t = 0; t < s.pc.size(); ++t)
      if (!done(s, t) && !s.arrived[t]) perform(s, t, next);
    for (uint32_t t = 0; t < s.buffers.size(); ++t)
      for (uint32_t position : drainable(s.buffers[t])) {
        State after = s;
        drain(after, t, position);
        next(after);
      }
    for (uint32_t b = 0; b < m_program.blocks; ++b) release_syncthreads(s, b, next);
    for (uint32_t t = 0; t < s.pc.size(); ++t) release_syncwarp(s, t, next);
    if (stepped) return;
    bool finished = true;
    for (uint32_t t = 0; t < s.pc.size(); ++t) finished = finished && done(s, t);
    if (!finished) {
      m_result.outcomes.insert("deadlock");
      return;
    }
    // Kernel end: every buffer has drained (no step is left, so none holds anything); the
    // host reads the newest entry of each location's history (D).
    std::vector<int32_t> values;
    for (const auto& entries : s.memory) values.push_back(entries.back());
    values.insert(values.end(), s.registers.begin(), s.registers.end());
    m_result.outcomes.insert(outcome_text(m_program, values));
  }

  // ---- Memory ------------------------------------------------------------------------------

  /** A store reaching memory: sc and tso overwrite the one value; gpu appends to the history. */
  void write_memory(State& s, uint32_t location, int32_t value) const {
    if (gpu()) s.memory[location].push_back(value);
    else s.memory[location].back() = value;
  }

  /** The buffer positions that may drain next. tso: only the oldest entry (FIFO). gpu: the
   *  oldest entry of each location: different locations drain in any order, one location's
   *  entries in program order (D). */
  std::vector<uint32_t> drainable(const std::vector<BufferedStore>& buffer) const {
    std::vector<uint32_t> positions;
    for (uint32_t i = 0; i < buffer.size(); ++i) {
      bool oldest_of_location = true;
      for (uint32_t j = 0; j < i; ++j) oldest_of_location = oldest_of_location && buffer[j].location != buffer[i].location;
      if (oldest_of_location && (gpu() || i == 0)) positions.push_back(i);
    }
    return positions;
  }

  /** A buffered store drains to memory. gpu: it is appended to its location's history and
   *  raises the writer's own view of that location to it (A: else a thread could read older
   *  than its own write after the drain, CoWR). */
  void drain(State& s, uint32_t t, uint32_t position) const {
    const BufferedStore store = s.buffers[t][position];
    s.buffers[t].erase(s.buffers[t].begin() + position);
    write_memory(s, store.location, store.value);
    if (gpu()) s.views[t][store.location] = uint32_t(s.memory[store.location].size() - 1);
  }

  void drain_all(State& s, uint32_t t) const {
    while (!s.buffers[t].empty()) drain(s, t, 0);
  }

  /** gpu: an atomic drains the thread's own buffered stores to its location, in order (D). */
  void drain_location(State& s, uint32_t t, uint32_t location) const {
    for (uint32_t i = 0; i < s.buffers[t].size();)
      if (s.buffers[t][i].location == location) drain(s, t, i);
      else ++i;
  }

  /** The newest own buffered store to `location`, if any: tso and gpu loads read it (D). */
  static const BufferedStore* own_buffered(const State& s, uint32_t t, uint32_t location) {
    if (s.buffers.empty()) return nullptr;
    for (auto it = s.buffers[t].rbegin(); it != s.buffers[t].rend(); ++it)
      if (it->location == location) return &*it;
    return nullptr;
  }

  static void join_into(std::vector<uint32_t>& into, const std::vector<uint32_t>& view) {
    for (size_t l = 0; l < into.size(); ++l) into[l] = std::max(into[l], view[l]);
  }

  // ---- A thread's next operation -----------------------------------------------------------

  template <class Next> void perform(const State& s, uint32_t t, Next&& next) const {
    const LitmusOp& op = op_at(s, t);
    State after = s;
    switch (op.kind) {
    case LitmusOpKind::Syncthreads:
    case LitmusOpKind::Syncwarp:
      // Arriving: the thread waits; the release is a step of its own (release_*).
      after.arrived[t] = 1;
      return next(after);
    case LitmusOpKind::Store:
      // sc: straight to memory. tso, gpu: into the thread's store buffer (D).
      if (m_model == ReferenceModel::Sc) write_memory(after, op.location, op.value);
      else after.buffers[t].push_back({op.location, op.value});
      ++after.pc[t];
      return next(after);
    case LitmusOpKind::Load: {
      ++after.pc[t];
      // sc: memory. tso: the newest own buffered store to the location, else memory. gpu: the
      // same own store (view unchanged), else any history entry from the thread's view to the
      // newest, and the view moves up to the entry read (D).
      if (const BufferedStore* own = own_buffered(s, t, op.location)) {
        after.registers[op.result] = own->value;
        return next(after);
      }
      const std::vector<int32_t>& entries = s.memory[op.location];
      const uint32_t oldest = gpu() ? s.views[t][op.location] : uint32_t(entries.size() - 1);
      for (uint32_t index = oldest; index < entries.size(); ++index) {
        State read = after;
        read.registers[op.result] = entries[index];
        if (gpu()) read.views[t][op.location] = index;
        next(read);
      }
      return;
    }
    case LitmusOpKind::Atomic: {
      // tso: drain the whole buffer, then read and write memory in one step (x86's locked
      // instructions). gpu: drain the own buffered stores to the location, read the newest
      // entry, append the result right after it, and raise the thread's view to it; relaxed:
      // nothing else is ordered. A failing CAS or atomicAdd(&x, 0) appends too (D; PG 10.14.1.8
      // has atomicCAS store `old` back).
      if (m_model == ReferenceModel::Tso) drain_all(after, t);
      if (gpu()) drain_location(after, t, op.location);
      const int32_t old = after.memory[op.location].back();
      write_memory(after, op.location, apply_rmw(op, old));
      if (gpu()) after.views[t][op.location] = uint32_t(after.memory[op.location].size() - 1);
      if (op.result >= 0) after.registers[op.result] = old;
      ++after.pc[t];
      return next(after);
    }
    case LitmusOpKind::Fence:
      // tso: drains the whole buffer (x86's MFENCE; no scopes). gpu: drains the whole buffer,
      // then joins the thread's view with the fence view of its block (block scope), plus the
      // device's (device scope), plus the system's (system scope), and writes the join back to
      // the thread and to each of those fence views (D).
      if (m_model != ReferenceModel::Sc) drain_all(after, t);
      if (gpu()) {
        std::vector<size_t> covered = {m_program.block_of(t)};
        if (op.scope != LitmusScope::Block) covered.push_back(m_program.blocks);
        if (op.scope == LitmusScope::System) covered.push_back(m_program.blocks + 1);
        std::vector<uint32_t> joined = after.views[t];
        for (size_t v : covered) join_into(joined, after.fence_views[v]);
        after.views[t] = joined;
        for (size_t v : covered) after.fence_views[v] = joined;
      }
      ++after.pc[t];
      return next(after);
    }
  }

  // ---- Barrier releases --------------------------------------------------------------------

  /** A barrier release: every participant's buffer drains (tso, gpu), every participant gets
   *  the join of their views (gpu; fence views are untouched), and they all run on (D). */
  template <class Next> void release(const State& s, const std::vector<uint32_t>& participants, Next&& next) const {
    State after = s;
    if (m_model != ReferenceModel::Sc)
      for (uint32_t t : participants) drain_all(after, t);
    if (gpu()) {
      std::vector<uint32_t> joined(m_program.initial.size(), 0);
      for (uint32_t t : participants) join_into(joined, after.views[t]);
      for (uint32_t t : participants) after.views[t] = joined;
    }
    for (uint32_t t : participants) {
      after.arrived[t] = 0;
      ++after.pc[t];
    }
    next(after);
  }

  /** __syncthreads waits until every thread of the block has reached it (PG 10.6); threads
   *  that have exited are not waited for (as bar.sync does for exited warps; A). */
  template <class Next> void release_syncthreads(const State& s, uint32_t block, Next&& next) const {
    std::vector<uint32_t> participants;
    for (uint32_t lane = 0; lane < m_program.threads_per_block; ++lane) {
      const uint32_t t = thread_of(block, lane);
      if (done(s, t)) continue;
      if (!s.arrived[t] || op_at(s, t).kind != LitmusOpKind::Syncthreads) return;
      participants.push_back(t);
    }
    if (!participants.empty()) release(s, participants, next);
  }

  /** __syncwarp(mask) completes once every lane of the mask waits at a __syncwarp with that
   *  mask (PG 10.6; D "Warps"); a lane of the mask that has exited leaves the others waiting.
   *  Offered once per mask, by its lowest lane. */
  template <class Next> void release_syncwarp(const State& s, uint32_t t, Next&& next) const {
    if (done(s, t) || !s.arrived[t] || op_at(s, t).kind != LitmusOpKind::Syncwarp) return;
    const uint32_t mask = op_at(s, t).mask, block = m_program.block_of(t);
    std::vector<uint32_t> participants;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      if ((mask >> lane & 1) == 0) continue;
      if (lane >= m_program.threads_per_block) return;
      const uint32_t u = thread_of(block, lane);
      if (done(s, u) || !s.arrived[u] || op_at(s, u).kind != LitmusOpKind::Syncwarp || op_at(s, u).mask != mask) return;
      participants.push_back(u);
    }
    if (participants.front() == t) release(s, participants, next);
  }
};

} // namespace

std::optional<ReferenceModel> reference_model_named(const std::string& name) {
  if (name == "sc") return ReferenceModel::Sc;
  if (name == "tso") return ReferenceModel::Tso;
  if (name == "gpu") return ReferenceModel::Gpu;
  return std::nullopt;
}

ReferenceResult explore_reference(const LitmusProgram& program, ReferenceModel model, uint64_t max_states) {
  return Explorer(program, model, max_states).run();
}

} // namespace fencelab::testing
