// Blocks becoming resident and their threads starting (DESIGN "Machine": only resident blocks
// hold threads): a block's admission resets its thread slots and runs each thread to its first
// visible event, on the slot's fiber or stackless; a fault inside a thread's code ends only that
// thread (run_thread_code).
#include "interpreter.h"
#include "machine_impl.h"

#include <fmt/format.h>
#include <new>

namespace fencelab {

namespace ctx = boost::context;

namespace {

/** A thread's or block's index in a launch of `shape` threads or blocks, from its linear index
 *  (x fastest, as CUDA numbers them). */
Dim3 unflatten(uint64_t index, const Dim3& shape) {
  Dim3 d;
  if (shape.y == 1 && shape.z == 1) { // one-dimensional: no division
    d.x = static_cast<uint32_t>(index);
    d.y = d.z = 0;
    return d;
  }
  d.x = static_cast<uint32_t>(index % shape.x);
  d.y = static_cast<uint32_t>((index / shape.x) % shape.y);
  d.z = static_cast<uint32_t>(index / (uint64_t(shape.x) * shape.y));
  return d;
}

} // namespace

void Machine::Impl::admit_blocks() {
  for (uint32_t slot = 0; slot < blocks.size() && next_block < total_blocks && !execution_fault; ++slot) {
    if (blocks[slot].active) continue;
    admit_block(slot, next_block++);
    settle();
  }
}

void Machine::Impl::admit_block(uint32_t block_slot, uint64_t linear_block) {
  ResidentBlock& block = blocks[block_slot];
  block.active = true;
  block.linear_index = static_cast<uint32_t>(linear_block);
  block.live = threads_per_block;
  block.arrived = 0;
  block.last_round_size = 0;
  block.snapshots_kept = false;
  block.thread_slots.resize(threads_per_block);
  block.waiting_bits.assign((threads_per_block + 63) / 64, 0);
  block.exited_bits.assign((threads_per_block + 63) / 64, 0);
  block.quiet_bits.assign((threads_per_block + 63) / 64, 0);
  block.arrival_ranges.resize(threads_per_block);
  block.predicates_set = 0;
  model->begin_block(block_slot);
  if (observing()) {
    Event e;
    e.kind = EventKind::BlockStart;
    e.thread = ThreadId{block.linear_index, 0, 0};
    e.instance_count = static_cast<uint32_t>(layout.shared_objects().size());
    if (e.instance_count > 0) e.first_instance = layout.instance_of(layout.shared_objects().front(), block_slot);
    emit(std::move(e));
  }
  for (uint32_t shared_id : layout.shared_objects())
    model->init_instance(layout.instance_of(shared_id, block_slot), layout.initial_contents(shared_id));
  // Which block comes next is shared by every retiring block; the new threads are enabled here.
  touch(ObjectId{ObjectKind::Admission, 0, 0}, true);
  const Dim3 block_idx = unflatten(linear_block, program.launch.grid);
  for (uint32_t t = 0; t < threads_per_block; ++t) {
    const uint32_t slot = block_slot * threads_per_block + t;
    block.thread_slots[t] = slot;
    if (prefetching && t + 2 < threads_per_block) prefetch_thread_start(threads[slot + 2]);
    SimThread& thread = threads[slot];
    // Every thread of the block is reset before any runs: the first to reach a warp
    // operation records itself in its warp-mates' state (warp_schedule.h).
    thread.reset_for_start(rare_state_untouched);
    thread.ref = thread_ref(block, block_slot, t);
    thread.index_in_block = t;
    thread.thread_idx = unflatten(t, program.launch.block);
    thread.block_idx = block_idx;
    touch(ObjectId::thread(slot), true);
  }
  // Each thread runs to its first visible event; that needs no scheduling decision.
  for (uint32_t t = 0; t < threads_per_block && !execution_fault; ++t) {
    prefetch_before_resumption(t, threads_per_block, [&](size_t j) { return block.thread_slots[j]; });
    start_thread(threads[block.thread_slots[t]]);
  }
}

void Machine::Impl::start_thread(SimThread& thread) {
  model->thread_start(thread.ref);
  if (stackless_kernel != nullptr) {
    set_running_thread(&thread.ref.id);
    run_stackless(thread, true);
    return after_resume(thread);
  }
  if (thread.parked) return resume(thread);
  try {
    // The slot's fiber runs its threads one after another, parking between them, until
    // close_parked_fibers ends it (or it is destroyed while inside a kernel: forced_unwind).
    thread.fiber = ctx::fiber(std::allocator_arg, PooledStackAllocator(stacks),
                              [this, &thread](ctx::fiber&& scheduler) {
                                thread.scheduler = std::move(scheduler);
                                do {
                                  thread.parked = false;
                                  thread_main(thread);
                                  thread.parked = true;
                                  switch_to_scheduler(thread);
                                } while (!closing_fibers);
                                thread.parked = false;
                                return std::move(thread.scheduler);
                              });
  } catch (const StackExhausted& exhausted) {
    if (exhausted.process_cap != 0)
      stop_execution(thread, program.launch.range,
                     fmt::format("too many simulated threads resident at once: {} fiber stacks are mapped, the most "
                                 "this system's memory-mapping limit (vm.max_map_count) allows this process "
                                 "({}, each stack takes two mappings): lower --resident-blocks{}",
                                 exhausted.process_cap, exhausted.process_cap,
                                 exhausted.stacks_in_use < exhausted.process_cap ? " or --jobs" : ""));
    else
      stop_execution(thread, program.launch.range,
                     fmt::format("cannot map a fiber stack for another simulated thread ({} mapped): lower "
                                 "--resident-blocks or --stack-size",
                                 exhausted.stacks_in_use));
    return;
  } catch (const std::bad_alloc&) {
    stop_execution(thread, program.launch.range,
                   "out of memory starting another simulated thread: lower --resident-blocks or --stack-size");
    return;
  }
  resume(thread);
}

void Machine::Impl::thread_main(SimThread& thread) {
  thread.stack_limit = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - call_stack_room();
  run_thread_code(thread, [&] {
    call_function(thread, *program.launch.kernel, kernel_arguments, nullptr);
    thread.status = ThreadStatus::Done;
  });
}

void Machine::Impl::run_stackless(SimThread& thread, bool start) {
  run_thread_code(thread, [&] {
    Interpreter code(*this, thread);
    if (start) {
      code.enter_frame(*definition_of(*program.launch.kernel), kernel_arguments, nullptr);
      thread.frames.back().code = stackless_kernel;
    }
    if (!code.run_stackless(*stackless_kernel)) return; // stopped before a visible event or at a barrier
    code.leave_kernel_frame();
    thread.status = ThreadStatus::Done;
  });
}

template <class Code> void Machine::Impl::run_thread_code(SimThread& thread, Code&& code) {
  try {
    code();
  } catch (ThreadFault& fault) {
    thread.spin_state_clean = false;
    thread.fault = std::move(fault);
    thread.status = ThreadStatus::Failed;
  } catch (const std::bad_alloc&) {
    // An exception must not leave the fiber (that is std::terminate): the kernel's own data
    // outgrew this machine's memory (hardening issue, case D).
    thread.spin_state_clean = false;
    thread.fault = ThreadFault{ExecutionStatus::RuntimeError, thread.pending.range,
                               "out of memory: the simulated thread's data does not fit in this machine's memory",
                               RuntimeErrorKind::Other};
    thread.status = ThreadStatus::Failed;
  }
}

} // namespace fencelab
