// Machine::release_fiber_stacks (machine.h): a search's fiber stacks given back when it ends.
//
// The stacks of a Machine's threads stay mapped from one execution to the next (its pool, and
// the fibers parked on them), which is what makes a search fast; between searches they only
// hold the process's address space and memory mappings. A command that searches under several
// models on one Machine, or starts a search's jobs beside the Machine that probed it, needed
// the stacks twice over (issue 68 F: bad_alloc in the second search of `--model sc,tso`).
#include "machine_impl.h"

namespace fencelab {

void Machine::release_fiber_stacks() {
  m_impl->close_parked_fibers(); // each fiber returns its stack to the pool as it ends
  // A stack still in use holds a fiber's activation record (Boost.Context keeps it at the
  // stack's top): unmapping it would leave that fiber's handle pointing at nothing. None
  // should be; if one is, the stacks stay until the Machine ends.
  if (m_impl->stacks.stacks_in_use() == 0) m_impl->stacks.release_all();
}

size_t Machine::fiber_stacks_mapped() const { return m_impl->stacks.stacks_created(); }

} // namespace fencelab
