// Scheduling: blocks becoming resident, threads on fibers, barriers, the end of an execution.
#include "interpreter.h"
#include "machine_impl.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <new>
#include <type_traits>
#include <fmt/format.h>

namespace fencelab {

namespace ctx = boost::context;

std::string ThreadId::to_string() const { return fmt::format("({},{},{})", block, warp, lane); }

const char* event_kind_name(EventKind kind) {
  switch (kind) {
#define X(name, spelling)                                                                          \
  case EventKind::name: return spelling;
    FENCELAB_EVENT_KINDS(X)
#undef X
  }
  return "?";
}

const char* scope_name(Scope scope) {
  switch (scope) {
  case Scope::Block: return "block";
  case Scope::Device: return "device";
  case Scope::System: return "system";
  }
  return "?";
}

const char* choice_kind_name(ChoiceKind kind) {
  switch (kind) {
#define X(name, spelling)                                                                          \
  case ChoiceKind::name: return spelling;
    FENCELAB_CHOICE_KINDS(X)
#undef X
  }
  return "?";
}

namespace {

/**
 * H100 residency (CUDA C++ Programming Guide, "Technical Specifications per Compute
 * Capability", compute capability 9.0): 132 SMs, 32 blocks and 2048 threads per SM; capped at
 * kMaxDefaultResidentThreads, because every resident thread holds a fiber stack with its own
 * guard page (two memory mappings), and Linux allows 65,530 mappings per process by default.
 */
constexpr uint64_t kMaxDefaultResidentThreads = 16384;

uint32_t default_resident_blocks(uint64_t threads_per_block) {
  constexpr uint64_t kSms = 132, kBlocksPerSm = 32, kThreadsPerSm = 2048;
  const uint64_t per_block = std::max<uint64_t>(1, threads_per_block);
  const uint64_t per_sm = std::max<uint64_t>(1, std::min(kBlocksPerSm, kThreadsPerSm / per_block));
  const uint64_t cap = std::max<uint64_t>(1, kMaxDefaultResidentThreads / per_block);
  return static_cast<uint32_t>(std::min(kSms * per_sm, cap));
}

/** Whether an instruction can write its thread's ThreadRareState (sim_thread.h): a call's
 *  return value, a builtin's (clock(), warp operations), a fence's or an atomic's fields, the
 *  discarded statement; anything on the AST may do any of these. Every opcode is named, so
 *  that a new one is decided here (-Wswitch). */
bool writes_rare_state(Opcode op) {
  switch (op) {
  case Opcode::Call:
  case Opcode::Builtin:
  case Opcode::Fence:
  case Opcode::Atomic:
  case Opcode::EvalAst:
  case Opcode::ExecAst:
  case Opcode::Discarded:
  case Opcode::Return: return true;
  case Opcode::Const:
  case Opcode::Slot:
  case Opcode::SetSlot:
  case Opcode::Pop:
  case Opcode::Dup:
  case Opcode::Load:
  case Opcode::LoadAt:
  case Opcode::Store:
  case Opcode::StoreAt:
  case Opcode::BuiltinVariable:
  case Opcode::Unary:
  case Opcode::Binary:
  case Opcode::IntegerBinary:
  case Opcode::Convert:
  case Opcode::IndexAddress:
  case Opcode::IncrementSlot:
  case Opcode::IncrementMemory:
  case Opcode::CompoundSlot:
  case Opcode::CompoundSlotInteger:
  case Opcode::CompoundSlotConst:
  case Opcode::CompoundMemory:
  case Opcode::Jump:
  case Opcode::JumpIfFalse:
  case Opcode::JumpIfTrue:
  case Opcode::JumpIfZero:
  case Opcode::JumpIfNonZero:
  case Opcode::CompareJump:
  case Opcode::CompareJumpConst:
  case Opcode::Barrier:
  case Opcode::Step:
  case Opcode::StepTwice:
  case Opcode::Leave: return false;
  }
  return true; // not an opcode: assume the worst
}

} // namespace

Machine::Impl::Impl(const Program& program, MachineOptions options)
    : program(program), options(options),
      layout(program), stacks(options.stack_size) {
  threads_per_block = static_cast<uint32_t>(program.launch.block.total());
  total_blocks = program.launch.grid.total();
  const uint32_t limit = options.resident_blocks != 0         ? options.resident_blocks
                         : program.launch.resident_blocks != 0 ? program.launch.resident_blocks
                                                               : default_resident_blocks(threads_per_block);
  resident_limit = static_cast<uint32_t>(std::min<uint64_t>(limit, total_blocks));
  default_step_limit = options.max_steps == 0;
  if (default_step_limit) this->options.max_steps = options.steps_for(total_blocks * threads_per_block);
  for (const KernelArgument& argument : program.arguments)
    kernel_arguments.push_back(argument.buffer_object ? pointer_to_object(*argument.buffer_object) : argument.value);
  for (uint32_t i = 0; i < program.observed.size(); ++i)
    if (program.observed[i].kind == ObservedItem::Kind::Local)
      observed_locals.emplace_back(program.observed[i].local, i);
  if (options.engine != Engine::Ast && program.launch.kernel != nullptr) {
    CompileQueries queries;
    queries.observed_item = [this](const VarDecl& v) { return observed_item_of(v); };
    queries.address_always_valid = [this](Word pointer, const Type& type) { return address_always_valid(pointer, type); };
    bytecode.compile(*program.launch.kernel, queries);
    // Lockstep warps are left on fibers: their scheduler (warp_schedule.h) was written for them.
    const CompiledFunction* kernel_code = bytecode.find(*program.launch.kernel);
    if (options.engine == Engine::Bytecode && options.warp == WarpMode::Its && kernel_code != nullptr &&
        kernel_code->stackless)
      stackless_kernel = kernel_code;
    rare_state_untouched = stackless_kernel != nullptr && std::none_of(kernel_code->code.begin(), kernel_code->code.end(),
                                                                       [](const Instr& i) { return writes_rare_state(i.op); });
  }
  if (program.launch.kernel != nullptr) kernel_has_loop = definition_of(*program.launch.kernel)->contains_loop;
  install_stack_overflow_handler();
}

const ExecutionResult& Machine::Impl::run(MemoryModel& the_model, ChoiceSource& the_choices,
                                   EventObserver* the_observer) {
  model = &the_model;
  choices = &the_choices;
  observer = the_observer;
  events = 0;
  sequence = 0;
  fence_executed = false;
  ready.clear();
  spinning.clear();
  warp_runtime = WarpRuntime{};
  block_work.clear();
  due_releases.clear();
  step_number = 0;
  barrier_rounds = 0;
  next_block = 0;
  output.clear();
  output_bytes = printf_calls = settle_steps = 0;
  printf_warnings.clear();
  execution_fault.reset();
  observed_values.assign(program.observed.size(), 0);
  observed_present.assign(program.observed.size(), 0);
  observed_writer.assign(program.observed.size(), ThreadId{});

  observer_wants_text = observer != nullptr && observer->wants_text();
  observer_wants_model_steps = observer != nullptr && observer->wants_model_steps();
  observer_wants_arrivals = observer != nullptr && observer->wants_barrier_arrivals();
  model->set_explaining(observer_wants_text);
  if (observer != nullptr) observer->begin_execution();
  model->set_location_describer([this](Location l, const Word* value) {
    return value ? layout.describe_value(l, *value) : layout.describe(l);
  });
  recording_footprints = choices->records_footprints() && options.warp != WarpMode::Lockstep;
  model->set_footprint_sink(this, recording_footprints);
  awaiting_spins = choices->awaits_spins() && options.warp != WarpMode::Lockstep;
  awaits_released = false;
  model->begin_execution(*choices);
  for (uint32_t id = 0; id < layout.object_count(); ++id)
    if (program.memory_objects[id].space != MemorySpace::Shared)
      model->init_instance(id, layout.initial_contents(id));

  // Threads are reset when their block is admitted (admit_block), keeping their buffers and
  // parked fibers.
  const size_t thread_count = size_t(resident_limit) * threads_per_block;
  if (threads.size() != thread_count) {
    close_parked_fibers();
    threads.clear();
    threads.resize(thread_count);
  }
  prefetching = options.prefetch_resumptions && thread_count >= kPrefetchFromThreads;
  blocks.resize(resident_limit);
  for (ResidentBlock& block : blocks) block.active = false; // admit_block sets the rest
  admit_blocks();

  ExecutionStatus status = ExecutionStatus::Completed;
  std::string message;
  std::vector<BlockedThread> blocked;
  const bool lockstep = options.warp == WarpMode::Lockstep;
  uint64_t loop_passes = 0;
  while (!execution_fault) {
    // Lanes past a completed warp operation (warp_schedule.h).
    if (!warp_runtime.released.empty()) run_released_lanes(*this);
    if (execution_fault) break;
    const uint32_t model_steps = model->internal_step_count();
    // The options before the units: the model's steps, then the due releases (DueRelease).
    const uint32_t steps = model_steps + static_cast<uint32_t>(due_releases.size());
    // Under lockstep the scheduler picks warps, not threads (warp_schedule.h).
    const uint32_t units = lockstep ? lockstep_units(*this) : static_cast<uint32_t>(ready.size());
    const uint32_t options_count = units + steps;
    if (options_count == 0) {
      if (!any_block_active() && next_block >= total_blocks) break; // every thread finished
      if (awaiting_spins && release_awaits()) continue;
      // No thread can make progress: each waits at a barrier, or spins re-reading memory that
      // nothing will change (DESIGN "Deadlock").
      status = ExecutionStatus::Deadlock;
      blocked = blocked_threads();
      message = deadlock_message();
      break;
    }
    if (++loop_passes % Machine::kInterruptInterval == 0 && choices->interrupted()) {
      status = ExecutionStatus::StepLimit;
      message = "interrupted by the explorer";
      break;
    }
    if (events >= options.max_steps) {
      status = ExecutionStatus::StepLimit;
      // A limit, not a verdict on the kernel: a long finite loop ends here as surely as an
      // endless one (livelocks are recognised where a state repeats: check_local_loop).
      message = default_step_limit
                    ? fmt::format("stopped after {} events, the default step limit ({} per thread of the launch, "
                                  "at least {}): the execution needs more events or never ends; raise --max-steps "
                                  "to let it run further",
                                  options.max_steps, MachineOptions::kStepsPerThread, MachineOptions::kMinSteps)
                    : fmt::format("stopped after {} events, the --max-steps limit: the execution needs more events "
                                  "or never ends; raise --max-steps to let it run further",
                                  options.max_steps);
      break;
    }
    // Options: the model's own steps (draining buffered stores) first, then the due releases,
    // then the ready threads; the first two are the usual case for a biased random explorer
    // (a buffered store drains, a barrier releases, promptly).
    if (recording_footprints) announce_schedule_point(model_steps);
    const uint32_t pick = options_count == 1 ? 0 : choices->choose(options_count, ChoiceKind::Schedule, steps);
    if (choices->abandon()) {
      status = ExecutionStatus::StepLimit;
      message = "abandoned by the explorer";
      break;
    }
    if (pick >= steps && lockstep) {
      step_warp(*this, pick - steps);
    } else if (pick >= steps) {
      const uint32_t index = pick - steps;
      const uint32_t slot = ready[index];
      ready[index] = ready.back();
      ready.pop_back();
      if (prefetching) resume_predicting(slot, steps);
      else resume_and_settle(threads[slot]);
    } else if (pick >= model_steps) {
      perform_due_release(pick - model_steps);
    } else {
      const uint32_t step = pick;
      if (prefetching) prefetch_predicted_picks(steps, kModelStepPick);
      if (observer_wants_model_steps) {
        MemoryModel::InternalStep described = model->describe_internal_step(step, observer_wants_text);
        Event e;
        e.kind = EventKind::ModelStep;
        e.thread = described.thread;
        e.location = described.location;
        if (observer_wants_text) e.location_name = layout.describe(described.location);
        e.type = layout.element_type(described.location);
        e.value = described.value;
        e.store_id = described.store_id;
        e.text = std::move(described.text);
        emit(std::move(e));
      } else {
        pass_over_event();
      }
      model->internal_step(step);
    }
  }

  result.events = events;
  result.awaits_released = awaits_released;
  result.blocked = std::move(blocked);
  result.resident_limit = resident_limit;
  result.first_never_resident = 0;
  result.never_resident = 0;
  result.error.reset();
  if (status == ExecutionStatus::Deadlock && next_block < total_blocks) {
    result.first_never_resident = next_block;
    result.never_resident = total_blocks - next_block;
  }
  if (execution_fault) {
    status = execution_fault->status;
    message = execution_fault->message;
    // Where it happened: for a runtime error, and for the loop a livelock repeats.
    if (status == ExecutionStatus::RuntimeError || status == ExecutionStatus::Livelock) {
      RuntimeErrorReport report;
      report.diagnostic = Diagnostic{Severity::Error, execution_fault->range,
                                     fmt::format("{} in thread {}", execution_fault->message,
                                                 fault_thread.to_string())};
      report.thread = fault_thread;
      report.kind = execution_fault->kind;
      result.error = report;
    }
  }
  // Destroying a fiber suspended inside the kernel unwinds its stack (Boost.Context
  // forced_unwind); a parked one is kept for the slot's next thread.
  for (SimThread& thread : threads) {
    if (!thread.parked) thread.fiber = {};
    thread.scheduler = {};
  }
  set_running_thread(nullptr);

  result.outcome.status = status;
  result.outcome.message.swap(message); // `message` ends here: swapped, not copied
  if (status == ExecutionStatus::Completed) {
    model->finish_execution();
    for (size_t i = 0; i < program.observed.size(); ++i) {
      const ObservedItem& item = program.observed[i];
      if (item.kind == ObservedItem::Kind::Memory) {
        const MemoryObject& object = program.memory_objects[item.object_id];
        const Word raw = model->final_value(Location{item.object_id, item.element_index});
        // A struct field of another type than the array's elements is the same bytes read as
        // its own type (MemoryObject::field_types).
        observed_values[i] = item.type.scalar == object.element_type.scalar
                                 ? convert_word(raw, object.element_type, item.type)
                                 : reinterpret_word(raw, object.element_type, item.type);
        observed_present[i] = 1;
      }
    }
    // Swapped, not copied: the buffers go back and forth between the result and the next
    // execution's observations, so neither is allocated again.
    result.outcome.values.swap(observed_values);
    result.outcome.present.swap(observed_present);
  } else {
    result.outcome.values.clear();
    result.outcome.present.clear();
  }
  result.output.swap(output);
  result.warnings.swap(warp_runtime.warnings);
  result.warnings.insert(result.warnings.end(), printf_warnings.begin(), printf_warnings.end());
  if (observer != nullptr) observer->end_execution(result);
  return result;
}

void SimThread::reset_for_start(bool rare_state_untouched) {
  static_assert(std::is_trivially_copyable_v<ThreadRunState> && std::is_trivially_copyable_v<ThreadRareState>,
                "a start assigns ThreadRunState and ThreadRareState whole");
  static const ThreadRunState fresh{}; // copied, not built each time
  static const ThreadRareState fresh_rare{};
  static_cast<ThreadRunState&>(*this) = fresh;
  // Lines a large grid's starts would touch for nothing where they hold a start's state still
  // (Machine::Impl::rare_state_untouched, ThreadSlotState::spin_state_clean); a debug build
  // checks that they do.
  if (!rare_state_untouched) static_cast<ThreadRareState&>(*this) = fresh_rare;
  assert(rare_state_is_fresh());
  slots.clear();
  frames.clear();
  local_arrays.clear();
  if (!spin_state_clean) {
    fault.reset();
    for (ThreadSnapshot* s : {&loop_state, &last_snapshot, &snapshot, &barrier_snapshot}) s->reset();
    read_chain.clear();
    spin_state_clean = true;
  }
  assert(spin_state_is_clean());
}

bool SimThread::rare_state_is_fresh() const { return static_cast<const ThreadRareState&>(*this) == ThreadRareState{}; }

bool SimThread::spin_state_is_clean() const {
  const auto clean = [](const ThreadSnapshot& s) { return !s.valid && s.words.empty(); };
  return !fault && read_chain.empty() && clean(loop_state) && clean(last_snapshot) && clean(snapshot) &&
         clean(barrier_snapshot);
}

void Machine::Impl::announce_schedule_point(uint32_t model_steps) {
  option_actors.clear();
  model->internal_step_actors(option_actors);
  assert(option_actors.size() == model_steps);
  for (const DueRelease& release : due_releases) option_actors.push_back(release.actor);
  for (uint32_t slot : ready) option_actors.push_back(ObjectId::thread(slot));
  choices->schedule_point(option_actors);
  ++step_number;
}

void Machine::Impl::announce_at_once_step(const ActorId& actor) {
  choices->at_once_step(actor);
  ++step_number;
}

bool Machine::Impl::any_block_active() const {
  return std::any_of(blocks.begin(), blocks.end(), [](const ResidentBlock& b) { return b.active; });
}

void Machine::Impl::settle() {
  while (!block_work.empty() && !execution_fault) {
    if (poll_interrupt(settle_steps)) break; // a barrier loop or an admission chain (interrupts.cpp)
    const BlockWork work = block_work.back();
    block_work.pop_back();
    ResidentBlock& block = blocks[work.block_slot];
    if (work.kind == BlockWork::Kind::Retire) retire_block(block);
    else release_barrier(block);
  }
  block_work.clear();
}

void Machine::Impl::perform_due_release(uint32_t index) {
  const DueRelease release = std::move(due_releases[index]);
  due_releases.erase(due_releases.begin() + index); // the others keep their order
  if (release.lanes.empty()) release_barrier(blocks[release.block_slot], true);
  else complete_due_warp_release(*this, release.lanes);
  settle();
}

void Machine::Impl::after_resume_elsewhere(SimThread& thread) {
  ResidentBlock& block = blocks[thread.ref.block_slot];
  switch (thread.status) {
  case ThreadStatus::AtEvent: return after_resume(thread);
  case ThreadStatus::Failed:
    if (!execution_fault) {
      execution_fault = thread.fault;
      fault_thread = thread.ref.id;
    }
    return;
  case ThreadStatus::AtBarrier: return count_barrier_arrival(thread);
  case ThreadStatus::AtWarp: warp_lane_arrived(*this, thread); return;
  case ThreadStatus::Done:
    if (observing()) {
      Event& e = thread_exit_event; // only its thread changes: not built per exit
      e.kind = EventKind::ThreadExit;
      e.thread = thread.ref.id;
      emit_event(e);
    }
    model->thread_exit(thread.ref);
    touch(ObjectId::arrival(thread.ref.slot.value), true); // a barrier no longer waits for it
    --block.live;
    block.exited_bits[thread.index_in_block / 64] |= uint64_t(1) << (thread.index_in_block % 64);
    if (block.live == 0) {
      block_work.push_back({BlockWork::Kind::Retire, thread.ref.block_slot});
    } else if (block.arrived > 0 && block.arrived == block.live) {
      // The barrier checker (diagnostics issue) reports threads that exit while others wait
      // at __syncthreads; the barrier itself counts only threads that have not exited, as
      // bar.sync on current hardware does for exited warps.
      block_work.push_back({BlockWork::Kind::ReleaseBarrier, thread.ref.block_slot});
    }
    return;
  }
}

void Machine::Impl::retire_block(ResidentBlock& block) {
  block.active = false;
  const uint32_t block_slot = static_cast<uint32_t>(&block - blocks.data());
  if (next_block < total_blocks) admit_block(block_slot, next_block++);
}

void Machine::Impl::emit_error(const SimThread& thread, SourceRange range, const std::string& message) {
  if (!observing()) return;
  Event e;
  e.kind = EventKind::Error;
  e.thread = thread.ref.id;
  e.range = range;
  e.text = message;
  emit(std::move(e));
}

void Machine::Impl::stop_execution(const SimThread& thread, SourceRange range, std::string message,
                                   ExecutionStatus status, RuntimeErrorKind kind) {
  if (execution_fault) return;
  emit_error(thread, range, message);
  execution_fault = ThreadFault{status, range, std::move(message), kind};
  fault_thread = thread.ref.id;
}

void Machine::Impl::fault(SimThread& thread, SourceRange range, std::string message,
                          ExecutionStatus status, RuntimeErrorKind kind) {
  emit_error(thread, range, message);
  throw ThreadFault{status, range, std::move(message), kind};
}

void Machine::Impl::check_local_loop(SimThread& thread, SourceRange range) {
  // A loop that changes nothing but locals and touches no memory repeats a private state; it
  // can never end (nothing another thread does can reach it). Brent's cycle detection: the
  // state is saved at local steps 1024, 2048, 4096, ... and compared at this statement after,
  // so a cycle of any length is found within about twice its start plus its length.
  if (thread.local_steps >= kLoopCheckFrom) {
    if (thread.local_steps >= 2 * thread.loop_saved_at) {
      take_snapshot(thread, range, Location{}, nullptr, thread.loop_state);
      thread.loop_saved_at = thread.local_steps;
    } else if (thread.loop_state.range == range && same_private_state(thread, thread.loop_state)) {
      fault(thread, range,
            "a loop that cannot end: it repeats the same local state without touching shared or global memory",
            ExecutionStatus::Livelock);
    }
  }
  if (thread.local_steps > options.max_local_steps)
    fault(thread, range,
          fmt::format("stopped after {} statements of one thread without touching shared or global memory, "
                      "the statement limit: the loop needs more or never ends",
                      options.max_local_steps),
          ExecutionStatus::StepLimit);
}

void Machine::Impl::emit_event(Event& event) {
  event.sequence = sequence++;
  observer->on_event(event);
}

Word Machine::Impl::pointer_to_object(uint32_t object_id) const {
  return PointerValue{PointerKind::Object, object_id, 0}.encode();
}

// ---------------------------------------------------------------------------------------------

Machine::Machine(const Program& program, MachineOptions options)
    : m_impl(std::make_unique<Impl>(program, options)) {}
Machine::~Machine() = default;

Machine::Impl::~Impl() { close_parked_fibers(); }

void Machine::Impl::close_parked_fibers() {
  // Destroying a parked fiber would unwind it by an exception (forced_unwind), thousands of
  // them for a large grid; resumed with closing_fibers set, it returns instead.
  // The handle a resume returns is dropped at once: Boost.Context's ucontext implementation
  // (the sanitized builds') hands back the ended fiber, which owns its stack until destroyed;
  // fcontext hands back an empty one. Either way the slot's fiber is empty afterwards.
  closing_fibers = true;
  for (SimThread& thread : threads) {
    if (!thread.parked) continue;
    ctx::fiber ended = std::move(thread.fiber).resume();
    ended = {}; // gives its stack back to the pool (ucontext)
  }
  closing_fibers = false;
}

const ExecutionResult& Machine::run(MemoryModel& model, ChoiceSource& choices, EventObserver* observer) {
  return m_impl->run(model, choices, observer);
}

const Program& Machine::program() const { return m_impl->program; }
const MachineOptions& Machine::options() const { return m_impl->options; }
size_t Machine::compiled_functions() const { return m_impl->bytecode.size(); }
bool Machine::runs_stackless() const { return m_impl->stackless_kernel != nullptr; }
uint64_t Machine::fiber_stacks_needed() const { return runs_stackless() ? 0 : resident_thread_limit(); }
size_t Machine::call_depth_limit() const { return m_impl->call_depth_limit(); }
uint32_t Machine::resident_block_limit() const { return m_impl->resident_limit; }
uint64_t Machine::resident_thread_limit() const {
  return uint64_t(m_impl->resident_limit) * m_impl->threads_per_block;
}

} // namespace fencelab
