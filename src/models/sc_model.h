// Sequential consistency (DESIGN "Memory models", sc): stores go straight to memory and loads
// read the newest store, so only the interleaving of the threads' events varies
// (Lamport 1979; the order every weaker model is compared against).
#pragma once

#include "fencelab/machine/memory_model.h"
#include "flat_memory.h"
#include "store_ids.h"

#include <vector>

namespace fencelab {

class ScModel final : public MemoryModel {
public:
  const char* name() const override { return "sc"; }
  void begin_execution(ChoiceSource& choices) override;
  void init_instance(uint32_t instance, std::span<const Word> initial) override;
  Word load(const ThreadRef& t, Location location, AccessMode mode) override;
  void store(const ThreadRef& t, Location location, Word value, AccessMode mode) override;
  Word read_modify_write(const ThreadRef& t, Location location, Scope scope,
                         const AtomicUpdate& update) override;
  void fence(const ThreadRef& t, Scope scope) override {}
  void barrier(std::span<const ThreadRef> participants) override {}
  void thread_exit(const ThreadRef& t) override {}
  Word final_value(Location location) const override;
  uint64_t last_read_source(const ThreadRef& t) const override { return m_ids.last_read(t.slot); }
  uint64_t last_store_id(const ThreadRef& t) const override { return m_ids.last_store(t.slot); }
  void prefetch_thread(ThreadSlot slot) const override { m_ids.prefetch(slot); }
  void prefetch_location(Location location) const override { m_memory.prefetch(location); }

private:
  FlatMemory m_memory;
  StoreIds m_ids;
};

} // namespace fencelab
