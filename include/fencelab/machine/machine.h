// The emulated GPU: a grid of blocks of warps of threads, each thread a fiber, running a
// Program against a MemoryModel, asking a ChoiceSource at every nondeterministic decision.
//
// A thread runs without switching until its next visible event (a global or shared memory
// access, an atomic, a fence, a barrier, exit); the scheduler then picks which enabled thread
// (or model step) goes next. Only resident blocks hold fibers: when a block finishes, the next
// one becomes resident, so memory stays bounded however large the grid (DESIGN "Machine").
#pragma once

#include "fencelab/machine/choice.h"
#include "fencelab/machine/events.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/machine/outcome.h"
#include "fencelab/program/program.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

/** How the lanes of a warp are scheduled (DESIGN "Warps"; src/machine/warp_schedule.h). */
enum class WarpMode : uint8_t {
  Its,      ///< independent thread scheduling (Volta and later): lanes interleave freely
  Lockstep, ///< pre-Volta SIMT: a warp's active lanes perform each visible event together
};

/** The name a run, a replay token and an expectation use for `model` under `warp`: the model's
 *  own name under ITS ("gpu"), "MODEL.lockstep" under lockstep ("gpu.lockstep"). */
std::string mode_name(std::string_view model, WarpMode warp);
/** Splits a mode name into the model and the warp mode; false if the suffix is unknown. */
bool split_mode_name(std::string_view name, std::string& model, WarpMode& warp);

/** The interpreter of the kernel's code (src/machine/bytecode.h, interpreter.h). */
enum class Engine : uint8_t {
  /** Compiled to bytecode; a kernel whose compiled code can run stackless (nothing left to the
   *  AST, calls of such functions only, none recursive) runs without fibers: a thread stops
   *  before a visible event by returning to the scheduler, its place kept in its state
   *  (docs/architecture.md, "Stackless threads"). */
  Bytecode,
  /** Compiled, every thread on its fiber: the reference the stackless threads are tested against. */
  BytecodeOnFibers,
  /** The AST walker, the reference the bytecode is tested against. */
  Ast,
};

struct MachineOptions {
  /** Bytes of each simulated thread's fiber stack; an overflow hits a guard page and is
   *  reported. */
  uint32_t stack_size = 256 * 1024;
  /** Blocks resident at once; 0 means as on an H100: 132 SMs, each holding up to 32 blocks
   *  and 2048 threads (CUDA C++ Programming Guide, "Technical Specifications per Compute
   *  Capability"), but at most 16,384 resident threads (each holds a guarded fiber stack). */
  uint32_t resident_blocks = 0;
  /** Visible events one execution may perform before it is stopped (StepLimit); 0, the
   *  default, scales with the launch: kStepsPerThread per thread, at least kMinSteps (a
   *  million-thread grid performs tens of millions of events and is not spinning). */
  uint64_t max_steps = 0;
  static constexpr uint64_t kStepsPerThread = 1'000;
  static constexpr uint64_t kMinSteps = 1'000'000;
  /** max_steps in force for a launch of `threads` threads: as given, else the default. */
  uint64_t steps_for(uint64_t threads) const {
    if (max_steps != 0) return max_steps;
    return threads > kMinSteps / kStepsPerThread ? threads * kStepsPerThread : kMinSteps;
  }
  /** Barrier releases one execution may perform (a loop of `__syncthreads()` whose counter
   *  changes each round; one that changes nothing is recognised at its second round). */
  uint64_t max_barrier_rounds = 10'000'000;
  /** Statements a thread may run without a visible event (an infinite local loop). */
  uint64_t max_local_steps = 50'000'000;
  /** `--warp its` (default) or `--warp lockstep`. */
  WarpMode warp = WarpMode::Its;
  /** How threads run the kernel's code: compiled to bytecode (the default), compiled with
   *  every thread on a fiber (`--interpreter fibers`), or by walking the AST (`--interpreter
   *  ast`, the reference the bytecode is tested against). */
  Engine engine = Engine::Bytecode;
  /** Prefetch the state of threads about to be resumed in bulk (docs/architecture.md,
   *  "Prefetching resumptions"); a hint to the CPU only, off for the test that shows it. */
  bool prefetch_resumptions = true;
};

#define FENCELAB_RUNTIME_ERRORS(X)                                                                 \
  X(OutOfBounds, "out-of-bounds")                                                                  \
  X(Misaligned, "misaligned")                                                                      \
  X(NullPointer, "null pointer")                                                                   \
  X(Arithmetic, "arithmetic")   /* division by zero, shift out of range */                        \
  X(InvalidWarpMask, "invalid warp mask") /* the calling lane is not in the mask (PG 10.22) */     \
  X(InactiveLaneShuffle, "inactive-lane shuffle") /* a shuffle read a lane outside its mask */     \
  X(WarpMismatch, "warp mismatch") /* lanes of one mask at different warp operations */           \
  X(AssertionFailed, "assertion failed") /* assert(false) in device code (PG 10.36) */             \
  X(Unsupported, "unsupported") /* a feature the simulator does not model */                      \
  X(PrintfClamped, "printf clamped") /* a printf width or precision past kMaxPrintfField */       \
  X(Other, "other")

enum class RuntimeErrorKind : uint8_t {
#define X(name, spelling) name,
  FENCELAB_RUNTIME_ERRORS(X)
#undef X
};

/** A runtime error: where, which thread, what. */
struct RuntimeErrorReport {
  Diagnostic diagnostic;
  ThreadId thread;
  RuntimeErrorKind kind = RuntimeErrorKind::Other;
};

/** A thread that could not progress when an execution ended in deadlock, and where. */
struct BlockedThread {
  ThreadId thread;
  SourceRange range;
  std::string waits_for; ///< "__syncthreads", or "spins re-reading lock2[0]"
  bool at_warp_operation = false; ///< waits for lanes of a warp mask (the outcome message says which)
};

struct ExecutionResult {
  Outcome outcome;
  uint64_t events = 0;                     ///< visible events performed
  std::optional<RuntimeErrorReport> error; ///< when outcome.status is RuntimeError or Livelock: where
  std::vector<std::string> output;         ///< printf output, in the order performed
  /** Findings that did not stop the execution, in the order found (severity Warning): a
   *  shuffle that read a lane outside its mask (an undefined value, chosen as a ChoiceKind::Value
   *  decision). The diagnostics work turns these into reports. */
  std::vector<RuntimeErrorReport> warnings;
  std::vector<BlockedThread> blocked; ///< when outcome.status is Deadlock: who waits for what
  /** When outcome.status is Deadlock: blocks [first, first + count) had not become resident
   *  (every resident block was stuck, so none could ever leave a slot for them). */
  uint32_t first_never_resident = 0;
  uint32_t never_resident = 0;
  uint32_t resident_limit = 0; ///< blocks resident at once in this run
  /** Only where the ChoiceSource awaits spins (ChoiceSource::awaits_spins): the execution came to
   *  a point where every thread left was suspended after a failed spin iteration, some of them
   *  able to read something new (their location changed, or the model offers a newer store).
   *  Those were then resumed, as if they had been slow, and the rest ran without awaiting. */
  bool awaits_released = false;
};

/** Linear block indexes [first, first + count) for messages: "block 2" or "blocks 2-5". */
std::string describe_blocks(uint64_t first, uint64_t count);

class Machine {
public:
  Machine(const Program& program, MachineOptions options);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  /** Runs one execution from the initial state. `observer` (may be null) sees every event.
   *  The result lives in the Machine until its next run, which reuses its buffers (a random
   *  search allocates nothing per execution); copy it to keep it longer. */
  const ExecutionResult& run(MemoryModel& model, ChoiceSource& choices, EventObserver* observer = nullptr);
  /** Passes of the scheduling loop between two ChoiceSource::interrupted() questions. */
  static constexpr uint64_t kInterruptInterval = 64;
  /** Ends the threads' parked fibers and unmaps their stacks (fiber_release.cpp); the next
   *  execution maps what it needs again. The explorers call it when a search ends. */
  void release_fiber_stacks();
  /** Fiber stacks this Machine has mapped now (0 after release_fiber_stacks). */
  size_t fiber_stacks_mapped() const;

  const Program& program() const;
  const MachineOptions& options() const;
  /** The resident-block limit in force for this program. */
  uint32_t resident_block_limit() const;
  /** Simulated threads resident at once: the resident blocks' threads. */
  uint64_t resident_thread_limit() const;
  /** How many of the kernel's functions run compiled (Engine::Bytecode; the others run on the
   *  AST): for tests and --stats. */
  size_t compiled_functions() const;
  /** Whether its threads run without fibers (Engine::Bytecode on a kernel that can: CompiledFunction::stackless). */
  bool runs_stackless() const;
  /** Fiber stacks its resident threads hold at most: one each, none where they run stackless. */
  uint64_t fiber_stacks_needed() const;
  /** The deepest call nesting a simulated thread may reach, from the fiber stack's size in
   *  force (MachineOptions::stack_size rounded to whole pages, at least the minimum): a count,
   *  so that recursion ends at the same depth under both interpreters. */
  size_t call_depth_limit() const;

  /** The implementation (src/machine/machine_impl.h), opaque to users of this header. */
  struct Impl;

private:
  std::unique_ptr<Impl> m_impl;
};

/** More decisions than one execution of `program` under `options` could ask (decision_bound.cpp):
 *  a replay token longer than this is bad input. */
uint64_t max_decisions(const Program& program, const MachineOptions& options);

/** How many fiber stacks (one per resident simulated thread) all the machines of this process
 *  may hold at once: the system's memory-mapping limit (vm.max_map_count) bounds them
 *  (src/machine/fiber_stack.h). */
size_t fiber_stack_capacity();

} // namespace fencelab
