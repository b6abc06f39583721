// Coherence order followed through a recorded trace (execution_graph.h, coherence_order).
//
// The rule is the models' (DESIGN "Memory models"; src/models/gpu_model.h): a store joins its
// location's history when it becomes visible. Under sc that is when it is made. Under tso and
// gpu a store waits in its thread's buffer until a ModelStep event drains it (the event carries
// the drained store's id), or until its thread's fence or a barrier it takes part in drains
// the whole buffer, or an atomic drains it (gpu: the atomic's location; tso: the whole FIFO);
// an atomic joins the history when it is performed. Within a thread, stores drain in program
// order. What is still buffered when the kernel ends drains then. The same walk tells when each
// store became visible (store_visibility), which explanations use to say whether a read was of
// a store still buffered or stale against one already in memory.
#include "fencelab/draw/execution_graph.h"

#include <algorithm>

namespace fencelab {

namespace {

struct Pending {
  uint64_t store_id = 0;
  Location location;
};

class CoherenceFollower {
public:
  explicit CoherenceFollower(bool buffered, bool fifo) : m_buffered(buffered), m_fifo(fifo) {}

  void on(const Event& e) {
    m_now = e.sequence;
    switch (e.kind) {
    case EventKind::Store:
      if (m_buffered) m_pending[e.thread].push_back(Pending{e.store_id, e.location});
      else append(e.location, e.store_id);
      break;
    case EventKind::ModelStep: drain_one(e.thread, e.store_id); break;
    case EventKind::Fence: drain(e.thread, nullptr); break;
    case EventKind::BarrierRelease:
      for (const auto& [thread, range] : e.waiting) drain(thread, nullptr);
      break;
    case EventKind::Atomic:
      drain(e.thread, m_fifo ? nullptr : &e.location);
      append(e.location, e.store_id);
      break;
    default: break;
    }
  }

  CoherenceOrder finish() {
    m_now = kAtKernelEnd;
    for (auto& [thread, list] : m_pending)
      for (const Pending& p : list) append(p.location, p.store_id);
    m_pending.clear();
    return std::move(m_order);
  }
  /** After finish(): when each store joined its history. */
  StoreVisibility take_visibility() { return std::move(m_visible_at); }

private:
  void append(Location location, uint64_t id) {
    auto& history = m_order[location.key()];
    if (history.empty()) history.push_back(0); // the initial value comes first
    history.push_back(id);
    m_visible_at[id] = m_now;
  }
  void drain_one(ThreadId thread, uint64_t store_id) {
    auto& list = m_pending[thread];
    const auto it = std::find_if(list.begin(), list.end(), [&](const Pending& p) { return p.store_id == store_id; });
    if (it == list.end()) return;
    append(it->location, it->store_id);
    list.erase(it);
  }
  void drain(ThreadId thread, const Location* only) {
    auto& list = m_pending[thread];
    for (auto it = list.begin(); it != list.end();) {
      if (only != nullptr && !(it->location == *only)) {
        ++it;
        continue;
      }
      append(it->location, it->store_id);
      it = list.erase(it);
    }
  }

  bool m_buffered;
  bool m_fifo;
  uint64_t m_now = 0; ///< the sequence of the event being followed
  std::map<ThreadId, std::vector<Pending>> m_pending;
  CoherenceOrder m_order;
  StoreVisibility m_visible_at;
};

} // namespace

CoherenceOrder coherence_order(const std::vector<Event>& events, const std::string& model) {
  CoherenceFollower follower(model != "sc", model == "tso");
  for (const Event& e : events) follower.on(e);
  return follower.finish();
}

StoreVisibility store_visibility(const std::vector<Event>& events, const std::string& model) {
  CoherenceFollower follower(model != "sc", model == "tso");
  for (const Event& e : events) follower.on(e);
  follower.finish();
  return follower.take_visibility();
}

} // namespace fencelab
