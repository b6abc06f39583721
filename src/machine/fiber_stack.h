// Fixed-size fiber stacks with a guard page, pooled across executions.
//
// Each stack is one mmap'd region whose lowest page is PROT_NONE: a simulated thread that
// overflows its stack faults on the guard page, and the fault handler reports the overflow
// and the thread instead of corrupting a neighbour. Pages are committed lazily by the kernel,
// so a large stack size costs address space, not memory.
//
// Each stack is two memory mappings (the guard page splits its region), and Linux allows a
// process vm.max_map_count of them (65,530 by default). Past that limit every mmap fails,
// malloc's included, so the stacks of all pools together are capped below it
// (fiber_stack_capacity) and a pool that would pass the cap throws StackExhausted: the run
// stops with a message instead of failing in whatever allocation comes next.
#pragma once

#include "fencelab/machine/ids.h"

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <vector>

namespace fencelab {

/** Thrown when no further fiber stack can be mapped. */
struct StackExhausted {
  size_t stacks_in_use;  ///< by this pool
  size_t process_cap = 0; ///< nonzero: the cap on all pools' stacks was reached (else mmap failed)
};

class StackPool {
public:
  explicit StackPool(size_t stack_size);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& stack);
  /** Unmaps every stack; all must be free (no fiber holds one). A search that ends gives its
   *  stacks back so that the next one (another model's) starts with the process's mappings
   *  and address space as the first did: under a 4 GB address-space limit, `--model sc,tso`
   *  ran sc, then tso's first allocation threw bad_alloc (issue 68 F). */
  void release_all();

  size_t stack_size() const { return m_stack_size; }
  size_t stacks_created() const { return m_regions.size(); }
  /** Stacks handed out and not yet given back: a fiber (running, parked or ended but not
   *  destroyed) still lives on each. */
  size_t stacks_in_use() const { return m_regions.size() - m_free_tops.size(); }

private:
  struct Region {
    char* base;  ///< start of the mapping (the guard page)
    size_t size; ///< guard page + usable stack
    size_t guard_slot; ///< its entry in the overflow handler's table of guard pages
  };
  size_t m_stack_size; ///< usable bytes, a multiple of the page size
  size_t m_page_size;
  std::vector<Region> m_regions;
  std::vector<char*> m_free_tops;
};

/** The allocator object Boost.Context's fiber constructor takes. */
class PooledStackAllocator {
public:
  explicit PooledStackAllocator(StackPool& pool) : m_pool(&pool) {}
  boost::context::stack_context allocate() { return m_pool->allocate(); }
  void deallocate(boost::context::stack_context& stack) noexcept { m_pool->deallocate(stack); }

private:
  StackPool* m_pool;
};

/**
 * Installs (once per process) a SIGSEGV handler, and (once per calling OS thread) the
 * alternate stack it runs on; the handler recognises faults in any pool's guard page, prints "stack overflow in simulated thread ..." and exits with
 * the internal-error code. Sanitized builds leave SIGSEGV to the sanitizer.
 */
void install_stack_overflow_handler();

/** Tells the overflow handler which simulated thread runs on this OS thread (for its message). */
void set_running_thread(const ThreadId* thread);

} // namespace fencelab
