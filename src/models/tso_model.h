// Total store order (DESIGN "Memory models", tso; the x86-TSO model of Owens, Sarkar and
// Sewell 2009): one memory, and a FIFO store buffer per thread of which only the oldest entry
// drains. A load reads the thread's own newest buffered store to the location if there is
// one, else memory. Fences, barriers and atomic read-modify-writes first drain the whole
// buffer, as x86's locked instructions do; an atomic then reads and writes memory directly.
#pragma once

#include "buffered_model.h"
#include "flat_memory.h"

namespace fencelab {

class TsoModel final : public BufferedModel {
public:
  TsoModel() : BufferedModel(DrainOrder::Fifo) {}
  const char* name() const override { return "tso"; }
  void begin_execution(ChoiceSource& choices) override;
  void init_instance(uint32_t instance, std::span<const Word> initial) override;
  Word load(const ThreadRef& t, Location location, AccessMode mode) override;
  void prefetch_location(Location location) const override { m_memory.prefetch(location); }
  Word read_modify_write(const ThreadRef& t, Location location, Scope scope,
                         const AtomicUpdate& update) override;
  void fence(const ThreadRef& t, Scope scope) override;
  void barrier(std::span<const ThreadRef> participants) override;
  void thread_exit(const ThreadRef& t) override {}
  Word final_value(Location location) const override;
  std::string explain_last(const ThreadRef& t) const override;
  std::string explain_last_barrier() const override { return m_barrier_explanation; }

protected:
  void apply_drain(uint32_t slot, const BufferedStore& store) override;

private:
  void explain(const ThreadRef& t, std::string text);
  std::string drained_list(const std::vector<BufferedStore>& drained) const;
  FlatMemory m_memory;
  std::vector<std::string> m_explanations; ///< by slot, when explaining
  std::string m_barrier_explanation;
};

} // namespace fencelab
