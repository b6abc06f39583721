// A simulated thread's state (SimThread) and what it is made of: its run state, its frames,
// slots and local arrays, the snapshots spin and barrier-loop recognition compare, and the
// fiber it runs on where it has one. Laid out by how often a resumption reads each part
// (docs/architecture.md, "Thread layout").
#pragma once

#include "fencelab/machine/machine.h"
#include "bytecode.h"
#include "slot_buffer.h"
#include "warp_schedule.h"

#include <array>
#include <boost/context/fiber.hpp>
#include <optional>
#include <string>
#include <vector>

namespace fencelab {

enum class ThreadStatus : uint8_t {
  AtEvent,   ///< suspended just before a visible event; runnable
  AtBarrier, ///< arrived at __syncthreads, waiting for its block
  AtWarp,    ///< arrived at a warp operation, waiting for the lanes of its mask (warp_schedule.h)
  Done,      ///< returned from the kernel
  Failed,    ///< stopped by a runtime error
};

/** Why a thread stopped before a visible event (for scheduling and for the deadlock report). */
struct PendingEvent {
  EventKind kind = EventKind::Load;
  SourceRange range;
};

/** The signal a runtime error raises inside a thread's fiber; caught at the fiber's base. */
struct ThreadFault {
  ExecutionStatus status;
  SourceRange range;
  std::string message;
  RuntimeErrorKind kind = RuntimeErrorKind::Other;
};

/** A thread-private array (a local variable of array type). */
struct LocalArray {
  Type element_type;
  std::vector<Word> elements;
};

struct Frame {
  const FunctionDecl* function = nullptr;
  const Call* call_site = nullptr; ///< null for the kernel's own frame
  size_t base = 0;                 ///< index of slot 0 in SimThread::slots
  // A stackless thread's (Interpreter::execute<true>): the frame's compiled code, and where
  // its caller goes on when it returns (the instruction after the call, and the caller's
  // values on SimThread::operand_stack below the call's arguments).
  const CompiledFunction* code = nullptr;
  uint32_t return_pc = 0;
  uint32_t return_depth = 0;
};

/**
 * A thread's complete private state just before a visible event, for recognising a spin-loop
 * iteration that changed nothing: same event, same location, same frames, slots and local
 * arrays, and no memory change anywhere since. Such an iteration can be repeated or skipped
 * without any thread seeing a difference.
 */
struct ThreadSnapshot {
  /** False for a snapshot equal to no other: reset, or at a read that cannot repeat
   *  (Machine::Impl::read_may_repeat), where none is taken. */
  bool valid = false;
  SourceRange range;
  /** The expression that reads: two reads at one range (a macro's argument expanded twice,
   *  `MAX(v, m[i])`) are different places in the program, and reading at one then the other
   *  is no spin iteration. */
  const void* site = nullptr;
  Location location;
  /** The private state in one buffer (one allocation to keep, one line of cache to miss at a
   *  large grid's cold resumption, one comparison): the function and call site of each frame
   *  above the kernel's, then the slots, then every local array's elements, concatenated. The
   *  counts keep two different states from concatenating alike. */
  std::vector<Word> words;
  uint32_t frame_words = 0; ///< two per frame above the kernel's (spin_loops.cpp)
  uint32_t slot_words = 0;
  /** A hash of `words` (take_snapshot): snapshots that differ in it differ, so most unequal
   *  pairs are told apart without reading a buffer that a large grid has left cold; equal
   *  ones are still compared word by word. */
  uint64_t fingerprint = 0;
  friend bool operator==(const ThreadSnapshot& a, const ThreadSnapshot& b) {
    return a.valid && b.valid && a.range == b.range && a.site == b.site && a.location == b.location &&
           a.frame_words == b.frame_words && a.slot_words == b.slot_words && a.fingerprint == b.fingerprint &&
           a.words == b.words;
  }
  /** Invalid and empty, keeping the buffer's memory. */
  void reset() {
    valid = false;
    range = {};
    site = nullptr;
    location = {};
    words.clear();
    frame_words = slot_words = 0;
    fingerprint = 0;
  }
};

/** Where an access lands, once checked. */
struct ResolvedAccess {
  LocalArray* local = nullptr;         ///< a thread-private array, or
  const MemoryObject* object = nullptr; ///< a memory object ...
  Location location;                    ///< ... and the element
  uint32_t object_id = 0;
  uint32_t index = 0;
  Type element_type;
};

/**
 * What a thread's start resets, apart from its buffers: every per-thread scalar the Machine
 * reads at a resumption. Trivially copyable, so a start assigns it whole
 * (SimThread::reset_for_start) instead of destroying and rebuilding the thread; a field added
 * here is reset without further code. Fields are ordered by how often a resumption touches
 * them, and what only calls, fences, warp operations and clock() read is in ThreadRareState: a large
 * grid's resumptions find a thread's lines cold, and each line its resumption touches is a
 * miss (issue 12; docs/architecture.md, "Thread layout").
 */
struct ThreadRunState {
  ThreadStatus status = ThreadStatus::AtEvent;
  PendingEvent pending;
  // A stackless thread's place in its compiled code between resumptions (Machine::Impl::stackless_kernel).
  /** Of the visible events of the instruction at resume_pc, those performed (a compound
   *  assignment to memory has two: its load and its store). */
  uint8_t resume_events_done = 0;
  bool resume_at_event = false;   ///< it stopped before a visible event, which it performs first
  bool resume_same_state = false; ///< announce_read_event's answer, for that event
  bool resume_unobserved = false; ///< an atomic's AtomicUpdate::unobserved, found before the event
  uint32_t resume_pc = 0;    ///< the instruction it runs when resumed (again, if it stopped before its event)
  uint32_t resume_depth = 0; ///< values on SimThread::operand_stack
  /** Frames above the kernel's, counted here so that a resumption tells whether it is in a
   *  call without reading the frames' buffer header, a line it otherwise leaves cold. */
  uint32_t stackless_calls = 0;

  uint64_t local_steps = 0;
  /** A loop that changes nothing but locals (count_local_step): the private state saved at
   *  local step `loop_saved_at` (a power of two) in SimThread::loop_state, compared at the
   *  same statement after. */
  uint64_t loop_saved_at = 0;
  /** At a visible event (or a thread's start) local steps count, and loops are checked, anew. */
  void reset_local_steps() {
    local_steps = 0;
    loop_saved_at = 0;
  }

  Builtin barrier_kind = Builtin::Syncthreads; ///< which form of __syncthreads it waits in
  bool barrier_predicate = false; ///< the _count/_and/_or argument
  // Barrier-loop recognition (Machine::Impl::barrier_loop_detected).
  bool barrier_predicate_before = false; ///< barrier_predicate at its previous arrival
  /** This arrival follows the previous one with no visible event in between, at the same
   *  barrier, with the same predicate (Machine::Impl::arrive_at_barrier). */
  bool barrier_quiet = false;
  Word barrier_result = 0;        ///< their result, set at release
  uint64_t visible_events = 0;         ///< visible events and warp operations performed
  uint64_t events_at_barrier = ~0ull;  ///< visible_events at its previous barrier arrival
  SourceRange barrier_range;           ///< the barrier of its latest arrival

  /** An increment's or compound assignment's value loaded and value to store, between its
   *  load and its store (a stackless thread's). */
  Word resume_loaded = 0, resume_updated = 0;

  // Spin-loop recognition (see ThreadSnapshot; the snapshots are SimThread's).
  bool last_changed_memory = true;
  bool spinning = false;            ///< the pending event repeats a no-op until its location changes
  /** Awaiting a spin (Machine::Impl::awaiting_spins): the pending read would not repeat the
   *  failed one (its location changed, or the model lets it read something newer). */
  bool await_would_retry = false;
  /** Awaiting spins: the pending read follows read-only reads with no other visible event in
   *  between (SimThread::read_chain holds the states before them). */
  bool in_read_chain = false;
  /** Whether the read being performed may repeat the thread's previous read of its expression
   *  (Instr::read_repeatable; every read the AST walker performs may): only then is it
   *  snapshotted (Machine::Impl::read_may_repeat). */
  bool read_site_repeatable = true;
  uint64_t epoch_after_last = ~0ull; ///< its location's change stamp right after the previous one (location_epoch)
  uint64_t events_after_last = ~0ull; ///< visible_events right after the previous one
  const void* read_site = nullptr;  ///< the expression of the read being performed (set by the interpreter)
  /** Both of the read's site fields at once, so that neither is left from an earlier read. */
  void set_read_site(const void* site, bool repeatable = true) {
    read_site = site;
    read_site_repeatable = repeatable;
  }
};

/** What a thread's start resets that only calls, warp operations, fences and clock() read:
 *  kept apart from ThreadRunState, past the lines a resumption touches. Trivially copyable,
 *  assigned whole like it. */
struct ThreadRareState {
  /** The lowest address a call's frame may have on the thread's fiber stack (Interpreter::call):
   *  the frame of thread_main less Machine::Impl::call_stack_room. 0 while not on its fiber. */
  uintptr_t stack_limit = 0;
  Word return_value = 0;
  /** The expression statement being evaluated, whose value is discarded (an atomic called as
   *  one has its result unused: AtomicUpdate::unobserved). */
  const Expr* discarded_value = nullptr;
  bool fenced = false; ///< has run a fence (AtomicUpdate::unfenced)
  uint64_t clock_reads = 0; ///< calls of clock()/clock64() so far
  WarpLaneState warp; ///< the warp operation it waits in or performed last (warp_schedule.h)
  friend bool operator==(const ThreadRareState&, const ThreadRareState&) = default;
};

/** A thread slot's identity, its slots (the first few in place) and its frames' header, which
 *  every resumption reads, then what a resumption at an event reads too (the pending access,
 *  the operand stack), then the read snapshots, which only a kernel whose reads may repeat
 *  uses: laid out right after ThreadRunState (SimThread's bases are in the order of how often a resumption touches them;
 *  prefetch_thread's two reaches end at pending_access and at the operand stack's first line,
 *  and prefetch_buffers loads the snapshots' line a pick later where they are in use). */
struct ThreadSlotState {
  ThreadRef ref;
  uint32_t index_in_block = 0;
  /** The snapshots (last_snapshot, snapshot, barrier_snapshot, loop_state), read_chain and
   *  fault are as a start leaves them (invalid, empty): nothing has taken a snapshot or raised
   *  a fault since. Then a start need not reset them and a read need not touch them, lines a
   *  large grid's resumptions would otherwise bring in for nothing (a tree reduction's reads
   *  never repeat, so it takes no snapshot). Cleared by whatever writes one of them
   *  (Machine::Impl::take_snapshot, extend_read_chain, run_thread_code). */
  bool spin_state_clean = true;
  /** Frames' slots, contiguous; a kernel's few first ones in place (SlotBuffer), in the lines
   *  a barrier round's prefetch brings in. */
  SlotBuffer slots;
  std::vector<Frame> frames;
  /** A stackless thread's pending access and operand stack (the bytecode's values between
   *  instructions; Machine::Impl::stackless_kernel). */
  ResolvedAccess pending_access;
  /** Its bottom, all that most stackless resumptions use, is the last line prefetch_thread
   *  loads. */
  std::array<Word, Bytecode::kMaxStack> operand_stack;
  ThreadSnapshot last_snapshot; ///< before the previous load or atomic
  ThreadSnapshot snapshot;      ///< before the pending one
};

/**
 * A thread slot: the thread that runs in it (its ThreadRunState and ThreadRareState, reset
 * when its block is admitted), its identity (set by admit_block), its fiber, and buffers whose
 * memory is kept across the threads that use the slot and across executions (issue 12: no
 * allocation per thread start). The bases come first, hottest first; the members after them
 * are touched by fewer resumptions.
 */
struct SimThread : ThreadRunState, ThreadSlotState, ThreadRareState {
  /** The slot's fiber. It runs one thread after another: between them it is *parked* at the
   *  top of its loop (Machine::Impl::start_thread), so a start resumes it instead of mapping a
   *  stack and making a context. A fiber suspended inside a kernel at an execution's end is
   *  destroyed (unwound) instead. A stackless thread has none; a thread on its fiber reads
   *  these four at every resumption (prefetch_thread loads their line). */
  boost::context::fiber fiber;
  boost::context::fiber scheduler; ///< the scheduler, while the thread runs
  bool parked = false;             ///< `fiber` waits at the top of its loop for the next start
  /** Where the fiber last switched to the scheduler (Machine::Impl::switch_to_scheduler): a
   *  frame address on its stack, around which lie the stack lines its resumption touches
   *  first (prefetch_resumption). 0 before its first switch. */
  uintptr_t switch_frame = 0;

  /** Its state at its block's previous release, where ResidentBlock::snapshots_kept. */
  ThreadSnapshot barrier_snapshot;
  Dim3 thread_idx, block_idx;
  /** Cleared at a start, beside threadIdx; read only through a pointer to a local array. */
  std::vector<LocalArray> local_arrays;

  // Rarely touched (fields in lines that a large grid's resumptions leave cold cost a miss
  // each; issue 12).
  std::optional<ThreadFault> fault;
  ThreadSnapshot loop_state; ///< see ThreadRunState::loop_saved_at
  /** Awaiting spins only: the states before the latest read-only reads (at most
   *  kReadChainLength, oldest first) that followed one another with no other visible event,
   *  for spins whose iteration reads more than once (Machine::Impl::before_read_event). */
  std::vector<ThreadSnapshot> read_chain;
  static constexpr size_t kReadChainLength = 4;

  /** A new thread's state in this slot: ThreadRunState and ThreadRareState as constructed,
   *  buffers and snapshots empty (their memory kept), no fault. Identity and fiber are not
   *  touched. `rare_state_untouched`: no thread of the kernel writes ThreadRareState
   *  (Machine::Impl::rare_state_untouched), which then needs no reset; what spin_state_clean
   *  covers is reset only where it is not clean. */
  void reset_for_start(bool rare_state_untouched);
  /** Debug checks of reset_for_start's shortcuts: ThreadRareState as constructed; what
   *  spin_state_clean covers as a start leaves it. */
  bool rare_state_is_fresh() const;
  bool spin_state_is_clean() const;
};

} // namespace fencelab
