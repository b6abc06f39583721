// The Machine's private state: resident blocks, the scheduler loop, the threads (whose state
// is sim_thread.h's). Split across machine.cpp (scheduling, blocks), interpreter.cpp
// (statements, expressions), memory_access.cpp (pointers, bounds, model calls) and
// builtin_calls.cpp (builtins).
#pragma once

#include "fencelab/machine/machine.h"
#include "fencelab/machine/pointer.h"
#include "fencelab/support/flat_map.h"
#include "fencelab/support/huge_pages.h"
#include "bytecode.h"
#include "fiber_stack.h"
#include "memory_layout.h"
#include "sim_thread.h"
#include "warp_schedule.h"

#include <array>
#include <bit>
#include <boost/context/fiber.hpp>
#include <exception>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

/**
 * Work a resumption makes due for a block: the last arrival releases its barrier, the last
 * exit retires it (and admits the next block). It runs from Machine::Impl::settle(), never
 * from inside the resumption that caused it: done in place, a grid of a million one-thread
 * blocks or a million barrier rounds nested one native stack frame chain per block or round
 * and overflowed the stack (hardening issue, cases A and B). Work only ever becomes due at
 * the end of a resumption, so running it afterwards keeps the order of the nested version.
 */
struct BlockWork {
  enum class Kind : uint8_t { ReleaseBarrier, Retire };
  Kind kind;
  uint32_t block_slot;
};

/**
 * A barrier release that waits for the scheduler (docs/architecture.md, "Barrier releases"):
 * every participant has arrived and some participant has a store buffered
 * (MemoryModel::barrier_drains), so the release's drains are not tied to the last arrival's
 * step: other threads and drains may run between that arrival and the release, which is an
 * option of the scheduler beside the model's drains and the ready threads.
 */
struct DueRelease {
  ActorId actor;           ///< ObjectId::barrier (__syncthreads) or ObjectId::warp_barrier (__syncwarp)
  uint32_t block_slot = 0;
  std::vector<uint32_t> lanes; ///< a __syncwarp's participants (thread slots in lane order); empty for __syncthreads
};

struct ResidentBlock {
  uint32_t linear_index = 0;
  std::vector<uint32_t> thread_slots;
  uint32_t live = 0;    ///< threads not Done
  uint32_t arrived = 0; ///< threads at the barrier
  /** Bit i of word i / 64: thread i of the block (index_in_block) waits at the barrier, or has
   *  exited. Kept at arrival and exit, so that a release finds its participants, in slot
   *  order, without reading every thread's status (a cold line each in a large grid). */
  std::vector<uint64_t> waiting_bits, exited_bits;
  /** The same bits for the waiting threads whose arrival was quiet (SimThread::barrier_quiet),
   *  so that a release tells a quiet round without reading every participant's SimThread
   *  before its prefetching pass (a cold line each in a large grid). */
  std::vector<uint64_t> quiet_bits;
  /** Where each waiting thread arrived (by index_in_block): its __syncthreads, for the
   *  release's event, which the checkers compare (barrier divergence), read here rather than
   *  from each participant's SimThread. */
  std::vector<SourceRange> arrival_ranges;
  uint32_t predicates_set = 0; ///< waiting threads whose __syncthreads_count/and/or predicate is non-zero
  uint32_t last_round_size = 0; ///< participants of its previous barrier release
  /** Its previous release ended a quiet round (Machine::Impl::barrier_loop_detected), and every
   *  participant's SimThread::barrier_snapshot holds its state at that release. */
  bool snapshots_kept = false;
  /** The threads release_barrier releases (its scratch; a release runs no other release of
   *  the block: work it makes due waits in Machine::Impl::block_work). */
  std::vector<ThreadRef> participants;
  bool active = false;
};

/** A call's argument values, evaluated in order: on the native stack up to kInline, so that a
 *  call (a function's, a builtin's: an atomic is a visible event) allocates nothing; more (a
 *  printf's) in a vector. */
class ArgumentValues {
public:
  template <class Eval>
  ArgumentValues(const Call& call, Eval&& eval) : m_count(call.args.size()) {
    if (m_count > kInline) m_more.resize(m_count);
    Word* values = m_count > kInline ? m_more.data() : m_inline.data();
    for (size_t i = 0; i < m_count; ++i) values[i] = eval(*call.args[i]);
  }
  std::span<const Word> values() const {
    return {m_count > kInline ? m_more.data() : m_inline.data(), m_count};
  }

private:
  static constexpr size_t kInline = 8;
  std::array<Word, kInline> m_inline;
  std::vector<Word> m_more;
  size_t m_count;
};

struct Machine::Impl final : FootprintSink {
  const Program& program;
  MachineOptions options;
  MemoryLayout layout;
  StackPool stacks;
  /** How much of a fiber stack the kernel's calls may use: all but a reserve kept free below the
   *  deepest call for evaluating one function's body (64 KiB, at most a quarter of the stack). */
  uintptr_t call_stack_room() const {
    return stacks.stack_size() - std::min<uintptr_t>(64 * 1024, stacks.stack_size() / 4);
  }
  /** Native stack a call level is allowed (call_depth_limit): more than either interpreter uses
   *  for a call (about 560-800 bytes in an optimized build); AddressSanitizer's frames, with their
   *  redzones, take several times that (2.6-4 KiB a level measured), and an unoptimized build's
   *  up to 1.7 KiB, so those builds allow a level more, and their depths, the same under both
   *  interpreters, are smaller. */
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  static constexpr bool kAddressSanitized = true;
#else
  static constexpr bool kAddressSanitized = false;
#endif
#else
  static constexpr bool kAddressSanitized = false;
#endif
#if defined(__OPTIMIZE__)
  static constexpr bool kOptimized = true;
#else
  static constexpr bool kOptimized = false;
#endif
  static constexpr uintptr_t kStackPerCall = kAddressSanitized ? 8 * 1024 : kOptimized ? 1536 : 4 * 1024;
  /** The deepest call nesting a thread may reach: the stack's room for calls at kStackPerCall a
   *  level. A count, so that where recursion ends depends on --stack-size only, not on the
   *  interpreter (whose frames differ in size); the room itself stays checked behind it
   *  (Interpreter::call). */
  size_t call_depth_limit() const { return max_call_depth; }
  /** call_depth_limit(), computed once: Interpreter::call compares with it at every call. */
  const size_t max_call_depth = std::max<size_t>(1, call_stack_room() / kStackPerCall);
  uint32_t resident_limit = 1;
  uint32_t threads_per_block = 1;
  uint64_t total_blocks = 1;
  std::vector<std::pair<const VarDecl*, uint32_t>> observed_locals; ///< (local, item index)
  /** The kernel's functions compiled (bytecode.h); empty under MachineOptions::Engine::Ast. */
  Bytecode bytecode;
  /** The kernel's arguments as every thread receives them (a buffer argument is a pointer to
   *  its object): the same in every execution, so computed once. */
  std::vector<Word> kernel_arguments;

  // Per execution.
  MemoryModel* model = nullptr;
  ChoiceSource* choices = nullptr;
  EventObserver* observer = nullptr;
  std::vector<SimThread, HugePageAllocator<SimThread>> threads; ///< indexed by ThreadSlot
  std::vector<ResidentBlock> blocks;  ///< indexed by block slot
  uint64_t next_block = 0;
  uint64_t events = 0;
  uint64_t sequence = 0;
  /** When each location's newest value last changed (the model reports each change,
   *  location_changed), as the count of changes this Machine had seen then: a spinning thread
   *  waits until the stamp of its location differs from the one it read at. By memory instance,
   *  made at the instance's first change (an instance never changed has none, and stamps 0).
   *  The count only grows, so stamps left from earlier executions need no reset: a thread
   *  compares a location's stamp only with the one it saw itself. 8 bytes per element of a
   *  written object, as a model keeps its value; reading costs no insertion and erasure, as
   *  a map of the locations last read did (about 8% of the 2^20-thread reduction). */
  std::vector<std::vector<uint64_t>> change_stamps;
  uint64_t changes_seen = 0;
  /** Whether a fence has run in this execution (AtomicUpdate::unobserved). */
  bool fence_executed = false;
  /** Whether the ChoiceSource records footprints (partial-order reduction): then every
   *  scheduling point names its options' actors and every touch is forwarded. */
  bool recording_footprints = false;
  /** The ChoiceSource awaits spins (ChoiceSource::awaits_spins): a thread whose spin iteration
   *  failed waits for the rest of the execution instead of being woken by a change. */
  bool awaiting_spins = false;
  bool awaits_released = false; ///< release_awaits() ran in this execution
  /** Nothing else can run: resumes the awaiting threads that could read something new and
   *  ends awaiting for the execution (ChoiceSource::awaits_released). False if there are none. */
  bool release_awaits();
  /** Awaiting spins: blocks `thread` if its pending read closes a longer no-op iteration. */
  void await_longer_iteration(SimThread& thread);
  /** Awaiting spins: records the state before the read just performed (SimThread::read_chain). */
  void extend_read_chain(SimThread& thread, bool changed_memory);
  std::vector<ActorId> option_actors; ///< scratch for schedule points
  /** Threads suspended before a visible event, offered to the scheduler in this order. */
  std::vector<uint32_t> ready;
  /** Threads suspended before a no-op repeat of a spin iteration; ready again once memory
   *  changes (see ThreadSnapshot). */
  std::vector<uint32_t> spinning;
  WarpRuntime warp_runtime; ///< warp operations and the lockstep scheduler (warp_schedule.h)
  /** Barrier releases and block retirements that a thread's resumption made due, run by
   *  settle() (see BlockWork). */
  std::vector<BlockWork> block_work;
  /** Releases offered to the scheduler, in the order they became due (DueRelease). */
  std::vector<DueRelease> due_releases;
  /** Performs due release `index` (the scheduler picked it). */
  void perform_due_release(uint32_t index);
  uint64_t barrier_rounds = 0; ///< barrier releases this execution (MachineOptions::max_barrier_rounds)
  std::vector<Word> observed_values;
  std::vector<uint8_t> observed_present;
  std::vector<ThreadId> observed_writer; ///< meaningful where observed_present is set
  std::vector<std::string> output;
  /** printf output this execution: its bytes (bounded by kMaxPrintfOutput), the calls made (for
   *  the interrupt) and the warnings of clamped fields (printf_format.h). */
  uint64_t output_bytes = 0;
  uint64_t printf_calls = 0;
  std::vector<RuntimeErrorReport> printf_warnings;
  /** The GPU's printf buffer is 1 MB by default and drops output past it (Programming Guide,
   *  "Formatted Output": circular, older output overwritten); an execution keeps this much. */
  static constexpr uint64_t kMaxPrintfOutput = 1 << 20;
  /** Units of work outside the scheduling loop (settle's barrier releases and block
   *  retirements) since the execution started, for poll_interrupt. */
  uint64_t settle_steps = 0;
  /** The last execution's result, returned by reference; its vectors keep their capacity from
   *  one execution to the next. */
  ExecutionResult result;
  std::optional<ThreadFault> execution_fault;
  ThreadId fault_thread;

  Impl(const Program& program, MachineOptions options);
  ~Impl();

  // machine.cpp
  const ExecutionResult& run(MemoryModel& model, ChoiceSource& choices, EventObserver* observer);
  void admit_blocks();
  void admit_block(uint32_t block_slot, uint64_t linear_block);
  void start_thread(SimThread& thread);
  /** Ends every parked fiber (SimThread::fiber), so that none is unwound by an exception. */
  void close_parked_fibers();
  bool closing_fibers = false; ///< a parked fiber resumed now returns (close_parked_fibers)
  // The switches are inlined into their callers: a fiber switch leaves the CPU's return-address
  // predictor holding the other side's calls, so each return the resumed side makes before it
  // calls again is mispredicted; the fewer frames between a switch and the code that goes on,
  // the fewer such returns.
  [[gnu::always_inline]] void resume(SimThread& thread) {
    set_running_thread(&thread.ref.id);
    if (stackless_kernel != nullptr) run_stackless(thread, false);
    else thread.fiber = std::move(thread.fiber).resume();
    after_resume(thread);
  }
  /**
   * The kernel's compiled code when its threads run stackless (MachineOptions::Engine): code
   * that calls nothing and leaves nothing to the AST, so every visible event is one of its
   * instructions, and a thread can stop before one by returning here, with its place and
   * operands kept in its SimThread (bytecode_vm.cpp). With 16,384 resident threads a fiber's
   * stack is cold at nearly every resumption (docs/architecture.md, "Stackless threads").
   */
  const CompiledFunction* stackless_kernel = nullptr;
  /** The kernel runs stackless and none of its instructions can write a thread's
   *  ThreadRareState (only calls, builtins, fences, atomics, code left to the AST, a
   *  discarded builtin's statement and a return with a value do: writes_rare_state), so a
   *  start need not reset it, and leaves its lines cold (SimThread::reset_for_start). */
  bool rare_state_untouched = false;
  /** The kernel has a loop: a read in its frame may repeat (read_may_repeat). */
  bool kernel_has_loop = false;
  /** Runs a stackless thread from its start or where it stopped, on the scheduler's stack,
   *  until it stops again, ends or faults. */
  void run_stackless(SimThread& thread, bool start);
  /** Runs `code`, the thread's, catching what ends the thread (a fault, memory running out).
   *  Inlined, so that `code`'s captures stay in registers: called as a function, it read the
   *  closure its caller had just written, two 8-byte stores, as one 16-byte load, which waits
   *  for the stores to retire (a failed store-to-load forward at every stackless resumption;
   *  6% of the 2^20 reduction's samples under gpu, perf). */
  template <class Code> [[gnu::always_inline]] inline void run_thread_code(SimThread& thread, Code&& code);
  /** From a thread's fiber: suspends it until the scheduler resumes it (every switch of a
   *  running thread to the scheduler goes through here). */
  [[gnu::always_inline]] void switch_to_scheduler(SimThread& thread) {
    thread.switch_frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    thread.scheduler = std::move(thread.scheduler).resume();
  }
  /**
   * Starts loading, into the CPU's caches, what resuming `thread` reads first: the start of
   * its SimThread and its fiber stack around switch_frame. Only a hint (a prefetch never
   * faults and changes nothing). Where many resident threads are resumed in a known order (a
   * barrier's release, a block's admission), each one's state is cold: at 4,096 resident
   * threads a resumption missed a 4 MiB last-level cache some 37 times (cachegrind). Prefetched
   * kPrefetchAhead resumptions early, those misses overlap the resumptions in between
   * (docs/architecture.md, "Prefetching resumptions").
   */
  void prefetch_resumption(const SimThread& thread) const;
  /** How much of a thread's state a prefetch covers. A thread released from a barrier mostly
   *  runs on to its next arrival (in a tree reduction, nine of ten): ThreadRunState, its
   *  identity and the headers and start of its slots. A thread resumed at an event also reads
   *  its pending access and its operand stack. Prefetching lines a resumption does not read
   *  takes bandwidth the lines it does read are waiting for. */
  enum class PrefetchReach : uint8_t { BarrierRound, Event };
  /** What a block's admission finds cold and writes of a thread slot's SimThread
   *  (SimThread::reset_for_start), and its start reads: where rare_state_untouched, what a
   *  resumption at an event reads; else all of it. */
  void prefetch_thread_start(const SimThread& thread) const;
  /** The first half of prefetch_resumption. */
  void prefetch_thread(const SimThread& thread, PrefetchReach reach = PrefetchReach::Event) const;
  void prefetch_stack(const SimThread& thread) const;  ///< the second: reads switch_frame
  /**
   * Before the random scheduler resumes the thread in slot `running` (or takes a model step),
   * picked among the ready threads and `model_steps` options before them (the model's steps and
   * the due releases): prefetches what the next
   * two picks will resume, as the ChoiceSource predicts them (ChoiceSource::predict) with the
   * options this pick is likely to leave (PickEffect): the thread state two picks ahead, and
   * one ahead its stack and buffers and what the model and the checkers keep for it. No
   * decision is drawn or changed.
   */
  void prefetch_predicted_picks(uint32_t model_steps, uint32_t running) const;
  /** prefetch_predicted_picks's `running` where the pick is one of the model's steps (a drain,
   *  which leaves one step fewer and the ready threads as they are). */
  static constexpr uint32_t kModelStepPick = UINT32_MAX;
  /** What the last pick of a thread at an event left of the next pick's options, for
   *  prefetch_predicted_picks, which would otherwise have to assume that the picked thread
   *  comes back to `ready` and the model's steps stay as they are: in a tree reduction two
   *  picks in five resume a thread that goes on to wait at a barrier, and then the next pick is
   *  drawn from one option fewer, a different thread. Kept by the event's source offset (a
   *  table of kPickEffects entries, where two events can share one): a hint only, learned from
   *  the last pick there; a wrong one costs some prefetches, never a different decision. */
  struct PickEffect {
    int8_t model_steps_change = 0; ///< a buffered store adds a step (tso, gpu)
    bool comes_back = true;        ///< it stopped before its next event, not at a barrier or its end
  };
  static constexpr size_t kPickEffects = 4096;
  std::vector<PickEffect> pick_effects = std::vector<PickEffect>(kPickEffects);
  static uint16_t pick_effect_index(const SimThread& thread) { return thread.pending.range.begin % kPickEffects; }
  /** The random scheduler picked the thread in `slot`, `model_steps` of the options being the
   *  model's: prefetches for the picks after it, resumes it, and learns what the pick did to
   *  the options (PickEffect). */
  void resume_predicting(uint32_t slot, uint32_t model_steps);
  /** The id of the thread in `slot`, found from its block without reading its SimThread. */
  ThreadId thread_id_of_slot(uint32_t slot) const {
    // A block's threads hold consecutive slots (admit_block). By shift and mask where the block
    // size is a power of two: a division takes the latency of about twenty instructions.
    const bool power_of_two = (threads_per_block & (threads_per_block - 1)) == 0;
    const uint32_t block_slot = power_of_two ? slot >> std::countr_zero(threads_per_block) : slot / threads_per_block;
    const uint32_t index = power_of_two ? slot & (threads_per_block - 1) : slot % threads_per_block;
    return ThreadId{blocks[block_slot].linear_index, index / kWarpSize, index % kWarpSize};
  }
  /** The start of the buffers a resumption reads and writes: slots where they are on the heap
   *  (slots_on_heap), frames (not a stackless thread's), and the read snapshots where the
   *  thread has taken any. Their addresses (and
   *  spin_state_clean) are in the SimThread, so this comes a resumption after
   *  prefetch_resumption, whose prefetch of the SimThread has landed by then. */
  void prefetch_buffers(const SimThread& thread, PrefetchReach reach = PrefetchReach::Event) const;
  /** What the memory model and the observer keep for the location a stackless thread's
   *  pending access names (MemoryModel::prefetch_location, EventObserver::prefetch_location). */
  void prefetch_pending_location(const SimThread& thread) const;
  /** Before the i-th of `count` resumptions in a row, the j-th of which resumes the thread in
   *  slot `slot_at(j)`: prefetch_resumption kPrefetchAhead ahead, prefetch_buffers one ahead. */
  template <class SlotAt> void prefetch_before_resumption(size_t i, size_t count, SlotAt slot_at) const {
    if (!prefetching) return;
    if (i + kPrefetchAhead < count) prefetch_resumption(threads[slot_at(i + kPrefetchAhead)]);
    if (i + 1 < count) prefetch_buffers(threads[slot_at(i + 1)]);
  }
  /** Below this many resident threads their states mostly stay in the caches, and the 40
   *  prefetches of a resumption would only add instructions. */
  static constexpr size_t kPrefetchFromThreads = 1024;
  static constexpr size_t kPrefetchAhead = 2;
  /** MachineOptions::prefetch_resumptions, at kPrefetchFromThreads resident threads or more. */
  bool prefetching = false;
  /** Some thread's slots outgrew their place in its SimThread (SlotBuffer::on_heap; set by
   *  Interpreter::enter_frame, kept: the heap buffers are). Until then prefetch_buffers reads
   *  no slots' address, a cold line's worth of waiting at each barrier participant. */
  bool slots_on_heap = false;
  /** resume(), then the block work it made due (settle). For callers outside settle(). */
  [[gnu::always_inline]] void resume_and_settle(SimThread& thread) {
    resume(thread);
    settle();
  }
  [[gnu::always_inline]] void after_resume(SimThread& thread) {
    // A thread stopped before a visible event, the common case, and one that arrived at
    // __syncthreads (a tree reduction's rounds arrive once per participant) are handled here;
    // the others out of line (kept apart, the common cases run without their register saving:
    // an arrival through after_resume_elsewhere cost 63 instructions, callgrind).
    if (thread.status == ThreadStatus::AtBarrier) return count_barrier_arrival(thread);
    if (thread.status != ThreadStatus::AtEvent) return after_resume_elsewhere(thread);
    // A thread about to repeat a spin iteration that changed nothing waits until memory
    // changes: running it now or later makes no difference to any thread.
    (thread.spinning ? spinning : ready).push_back(thread.ref.slot.value);
  }
  [[gnu::noinline]] void after_resume_elsewhere(SimThread& thread);
  /** A thread has arrived at __syncthreads: its block's barrier is released once every thread
   *  that has not exited has arrived (settle). */
  [[gnu::always_inline]] void count_barrier_arrival(SimThread& thread) {
    ResidentBlock& block = blocks[thread.ref.block_slot];
    touch(ObjectId::arrival(thread.ref.slot.value), true);
    ++block.arrived;
    const uint64_t bit = uint64_t(1) << (thread.index_in_block % 64);
    block.waiting_bits[thread.index_in_block / 64] |= bit;
    if (thread.barrier_quiet) block.quiet_bits[thread.index_in_block / 64] |= bit;
    if (thread.barrier_predicate) ++block.predicates_set;
    block.arrival_ranges[thread.index_in_block] = thread.pending.range;
    if (block.arrived == block.live) block_work.push_back({BlockWork::Kind::ReleaseBarrier, thread.ref.block_slot});
  }
  /** Runs due block work until none is left (or the execution faults). */
  void settle();
  /** Every thread of the block that has not exited waits at its barrier. `scheduled`: the
   *  scheduler picked this release (a DueRelease); otherwise one whose participants have
   *  stores buffered becomes a DueRelease, and one whose have none happens now. */
  void release_barrier(ResidentBlock& block, bool scheduled = false);
  /** A participant of a block barrier's release: its result (the _count/_and/_or forms',
   *  from the `count` of `total` participants whose predicate was non-zero) and its status, at
   *  its resumption. */
  static void release_from_barrier(SimThread& thread, Word count, Word total);
  /** Who thread `index` (index_in_block) of the block in `block_slot` is: its slot follows
   *  from the block's, its id from the block's linear index and its place in the block. */
  static ThreadRef thread_ref(const ResidentBlock& block, uint32_t block_slot, uint32_t index) {
    return ThreadRef{ThreadSlot{block.thread_slots[index]}, block_slot,
                     ThreadId{block.linear_index, index / kWarpSize, index % kWarpSize}};
  }
  void retire_block(ResidentBlock& block);
  bool any_block_active() const;
  // FootprintSink: what the model reports of each operation (footprint.h).
  void touch(const ObjectId& object, bool write) override {
    if (recording_footprints) choices->touch(object, write);
  }
  void touch_emptied(const ObjectId& lane) override {
    if (recording_footprints) choices->touch_emptied(lane);
  }
  void touch_commuting(const ObjectId& object, uint32_t kind) override {
    if (recording_footprints) choices->touch_commuting(object, kind);
  }
  void commuting_order_seen(const ObjectId& object) override {
    if (recording_footprints) choices->commuting_order_seen(object);
  }
  void begin_forced_step(const ActorId& actor) override {
    if (recording_footprints) choices->begin_forced_step(actor);
  }
  void end_forced_step() override {
    if (recording_footprints) choices->end_forced_step();
  }
  /** `location`'s newest value may have changed: threads spinning on it run again. */
  void location_changed(Location location) override;
  /** `location`'s change stamp (change_stamps): equal to one read earlier only if the
   *  location's newest value has not changed since. */
  uint64_t location_epoch(Location location) const;
  /** Names the options of the scheduling point about to be decided (model steps, due
   *  releases, then units). */
  void announce_schedule_point(uint32_t model_steps);
  /** A step of `actor` that follows the current one at once (ChoiceSource::at_once_step). */
  void announce_at_once_step(const ActorId& actor);
  /** While footprints are recorded: the steps announced so far in this execution, so that a
   *  warp operation can tell whether its lanes arrived in the current step. */
  uint64_t step_number = 0;
  /** By thread slot, while footprints are recorded: the step_number in which the lane arrived
   *  at its warp operation (warp_lane_arrived). */
  std::vector<uint64_t> warp_arrival_step;
  std::string deadlock_message() const;
  /** The threads that cannot progress, and what each waits for (sorted by thread). */
  bool spins_at_grid_barrier(const SimThread& thread) const;
  std::vector<BlockedThread> blocked_threads() const;
  void thread_main(SimThread& thread);

  // Called from a thread's fiber.
  /** Suspends the thread before a visible event until the scheduler picks it. */
  [[gnu::always_inline]] void before_visible_event(SimThread& thread, EventKind kind, SourceRange range) {
    announce_visible_event(thread, kind, range);
    switch_to_scheduler(thread);
    resumed_at_visible_event();
  }
  /** before_visible_event's part before the switch (a stackless thread returns to the
   *  scheduler instead, and counts the event when resumed). */
  void announce_visible_event(SimThread& thread, EventKind kind, SourceRange range) {
    thread.pending = PendingEvent{kind, range};
    thread.status = ThreadStatus::AtEvent;
    thread.reset_local_steps();
    ++thread.visible_events;
  }
  /** before_visible_event's part after the switch (a stackless thread's, when resumed). */
  void resumed_at_visible_event() { ++events; }
  /** Like before_visible_event, for loads and atomics: also notes whether the access repeats a
   *  no-op spin iteration. Call after_read_event once it is performed. */
  [[gnu::always_inline]] void before_read_event(SimThread& thread, EventKind kind, SourceRange range, Location location) {
    const bool same_state = announce_read_event(thread, kind, range, location);
    switch_to_scheduler(thread);
    resumed_at_read_event(thread, location, same_state);
  }
  /** before_read_event's part before the switch: whether the thread is in the same state as
   *  before its last read (prepare_read_event). */
  bool announce_read_event(SimThread& thread, EventKind kind, SourceRange range, Location location) {
    const bool same_state = prepare_read_event(thread, range, location);
    announce_visible_event(thread, kind, range);
    return same_state;
  }
  /** before_read_event's part after the switch, given announce_read_event's answer. */
  void resumed_at_read_event(SimThread& thread, Location location, bool same_state) {
    resumed_at_visible_event();
    // Scheduled again: if still nothing changed, this read repeats the last one (stutter rule).
    model->require_newer_read(same_state && thread.epoch_after_last == location_epoch(location));
  }
  /** before_read_event's part before the switch: spin recognition. Whether the thread is in
   *  the same state as before its last read, which changed nothing. */
  bool prepare_read_event(SimThread& thread, SourceRange range, Location location);
  void after_read_event(SimThread& thread, bool changed_memory);
  /** Whether a read by `thread` now could come back to the same place in the same frames: only
   *  where a function on its call stack has a loop. The language has no goto, and recursion
   *  reaches a place again only at another depth, with other frames. Elsewhere a read's
   *  snapshot could equal no other, and is not taken. */
  bool read_may_repeat(const SimThread& thread) const;
  /** `site`: the expression about to read (null for a barrier's or a local loop's snapshot). */
  void take_snapshot(SimThread& thread, SourceRange range, Location location, const void* site,
                     ThreadSnapshot& into) const;
  /** Tells the observer about a runtime error (an Error event), if one listens. */
  void emit_error(const SimThread& thread, SourceRange range, const std::string& message);
  /** Ends the execution from scheduler context (not inside a thread's fiber, where fault()
   *  throws instead); the first stop wins. */
  void stop_execution(const SimThread& thread, SourceRange range, std::string message,
                      ExecutionStatus status = ExecutionStatus::RuntimeError,
                      RuntimeErrorKind kind = RuntimeErrorKind::Other);
  /** Whether this release repeats the block's previous one with nothing changed, which makes
   *  the block loop forever; stops the execution if so, or past max_barrier_rounds. */
  bool barrier_loop_detected(ResidentBlock& block, const std::vector<ThreadRef>& participants, bool all_quiet);
  /** A barrier's arrival, up to the switch: whether it is quiet (SimThread::barrier_quiet),
   *  and the event. */
  void arrive_at_barrier(SimThread& thread, SourceRange range);
  /** __syncthreads (`builtin`, and `predicate` for its _count/_and/_or forms): arrives, waits
   *  until the block's barrier releases the thread, and returns the builtin's result. Inlined,
   *  as every switch is (see resume). */
  [[gnu::always_inline]] Word wait_at_barrier(SimThread& thread, Builtin builtin, bool predicate, SourceRange range) {
    thread.barrier_kind = builtin;
    thread.barrier_predicate = predicate;
    arrive_at_barrier(thread, range);
    switch_to_scheduler(thread);
    return thread.barrier_result;
  }
  [[noreturn]] void fault(SimThread& thread, SourceRange range, std::string message,
                          ExecutionStatus status = ExecutionStatus::RuntimeError,
                          RuntimeErrorKind kind = RuntimeErrorKind::Other);
  /** A runtime error of a known kind (out of bounds, misaligned, ...). */
  [[noreturn]] void fault(SimThread& thread, SourceRange range, RuntimeErrorKind kind, std::string message) {
    fault(thread, range, std::move(message), ExecutionStatus::RuntimeError, kind);
  }
  /** Whether the observer wants text (names, explanations) built into events. */
  bool observer_wants_text = false;
  bool observer_wants_model_steps = false;
  bool observer_wants_arrivals = false;
  /** The BarrierRelease event, refilled by every release (release_barrier). */
  Event release_event;
  bool default_step_limit = false; ///< max_steps was scaled from the launch, not given
  /** One private statement of the thread: counted against --max-local-steps, and from the
   *  1024th on checked for a loop that repeats its state (check_local_loop). */
  void count_local_step(SimThread& thread, SourceRange range) {
    if (++thread.local_steps >= kLoopCheckFrom || thread.local_steps > options.max_local_steps)
      check_local_loop(thread, range);
  }
  /** Two local steps at once, where neither would call check_local_loop (false: none counted;
   *  the caller counts them one by one). */
  bool count_two_local_steps(SimThread& thread) const {
    if (thread.local_steps + 2 >= kLoopCheckFrom || thread.local_steps + 2 > options.max_local_steps) return false;
    thread.local_steps += 2;
    return true;
  }
  static constexpr uint64_t kLoopCheckFrom = 1024;
  void check_local_loop(SimThread& thread, SourceRange range);
  /** Whether the thread's private state (frames, slots, local arrays) equals `s`'s. */
  static bool same_private_state(const SimThread& thread, const ThreadSnapshot& s);
  void emit(Event&& event) { emit_event(event); }
  void emit_event(Event& event);
  /** An event the observer declined (wants_model_steps, wants_barrier_arrivals) still takes
   *  its place in the sequence, so the others are numbered alike for every observer. */
  void pass_over_event() {
    if (observing()) ++sequence;
  }
  /** The event of a memory access, rebuilt in place for each (memory_access.cpp): a fresh
   *  Event per access cost a tenth of the checkers' time per access. */
  Event access_event_buffer;
  /** A thread's exit, for observers: of its fields only `thread` and `sequence` change. */
  Event thread_exit_event;
  Event arrival_event; ///< the BarrierArrive event, refilled by every arrival (arrive_at_barrier)
  bool observing() const { return observer != nullptr; }

  // interpreter.cpp
  Word call_function(SimThread& thread, const FunctionDecl& function, std::span<const Word> args,
                     const Call* call_site = nullptr);
  Word eval(SimThread& thread, const Expr& expr);
  void record_observed_local(SimThread& thread, const VarDecl& variable, Word value);
  /** The same for a local known to be observed item `item` (the bytecode's SetSlot). */
  void record_observed_item(SimThread& thread, uint32_t item, const VarDecl& variable, Word value);
  /** The observed item of the local `variable`, if it is observed (at most one: the directives
   *  refuse an item observed twice). */
  std::optional<uint32_t> observed_item_of(const VarDecl& variable) const;

  // memory_access.cpp
  /** The AST walker's accesses (the bytecode inlines load_memory and store_memory instead). */
  Word load(SimThread& thread, Word pointer, const Type& type, SourceRange range);
  void store(SimThread& thread, Word pointer, const Type& type, Word value, SourceRange range);
  /** Whether an access of `type` through the constant `pointer` passes every check load and
   *  store make, whichever thread makes it: a memory object's element, aligned, of its size. */
  bool address_always_valid(Word pointer, const Type& type) const;
  Word atomic(SimThread& thread, Word pointer, const AtomicUpdate& update, Scope scope, SourceRange range);
  /** atomic's parts before and after its switch (a stackless thread's): the checked access, and
   *  the update performed there (its old value). */
  ResolvedAccess resolve_atomic(SimThread& thread, Word pointer, const AtomicUpdate& update, SourceRange range);
  Word perform_atomic(SimThread& thread, const ResolvedAccess& access, const AtomicUpdate& update, Scope scope,
                      SourceRange range);
  Word pointer_to_object(uint32_t object_id) const;

  // builtin_calls.cpp
  /** A builtin's call: its arguments evaluated on the AST, then apply_builtin. */
  Word call_builtin(SimThread& thread, const Call& call);
  /** The builtin of `call` on its arguments' values `args` (each evaluated as the AST does). */
  Word apply_builtin(SimThread& thread, const Call& call, std::span<const Word> args);
  /** A fence's step once the thread is scheduled at it (apply_builtin's, after its switch). */
  void perform_fence(SimThread& thread, const Call& call);
  /** printf(format, args...) by `thread`: formatted (printf_format.h), kept in `output`, told
   *  to the observer; a bad format is the call's runtime error. */
  void perform_printf(SimThread& thread, const Call& call, std::span<const Word> args);
  // interrupts.cpp
  /** Asked every kInterruptInterval units of a loop that runs outside the scheduling loop (a
   *  barrier loop's rounds, the admission of blocks whose threads end at once: both inside
   *  settle): whether the ChoiceSource wants the execution ended now; if so the execution is
   *  stopped, as the scheduling loop stops it (ChoiceSource::interrupted). */
  bool poll_interrupt(uint64_t& units);
  /** The update an atomic builtin's `call` makes with arguments `args`. Whether it is
   *  `unobserved` depends on whether any fence has run yet: computed before the thread's switch,
   *  as apply_builtin does. */
  AtomicUpdate atomic_update(const SimThread& thread, const Call& call, std::span<const Word> args) const;
};

} // namespace fencelab
