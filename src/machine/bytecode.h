// The compiled form of a kernel's functions: a flat list of instructions per function, run by
// one loop with a small stack of values (bytecode_vm.cpp) instead of a recursive walk of the
// AST (interpreter.cpp), which cost a native call per node (issue 12: "compile each kernel
// once, after sema"). The AST walker stays the reference (`--interpreter ast`): the two must
// give the same outcomes, events, step counts, faults and reports (tests/bytecode_tests.cpp).
//
// What is compiled: statements (blocks, declarations of scalar locals, expression statements,
// if, for, while, do, break, continue, return) and expressions (literals, names, threadIdx and
// friends, unary and binary operators, assignments, increments, conditionals, indexing, casts,
// calls of __device__ functions, __syncthreads). Anything else runs on the AST from inside the
// compiled code, node by node: an expression as EvalAst (it yields its value), a statement as
// ExecAst (its break, continue or return then jumps where the compiled one would). So any
// subtree can fall back, and the order of evaluation is the AST's.
//
// Every instruction keeps the AST node it came from: loads name their expression as the read's
// site (spin recognition), faults and steps take their source range from it.
#pragma once

#include "fencelab/frontend/ast.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace fencelab {

enum class Opcode : uint8_t {
  Const,        ///< push `imm`
  Slot,         ///< push the frame's slot `arg`
  SetSlot,      ///< pop into slot `arg`; `variable` (an observed local) records the value as
                ///< observed item `imm`
  Pop,
  Dup,
  Load,         ///< pop a pointer, push what `type` reads there; `node` is the read's site
  LoadAt,       ///< Load from the constant pointer `imm` (a global variable); `arg`
                ///< kCheckedAddress: the access passes resolve's checks (no need to run them)
  Store,        ///< pop a pointer, then the value, store it as `type` at `node`'s range;
                ///< `arg` kKeepValue: push the value back
  StoreAt,      ///< Store to the pointer `imm` (a global variable): pop only the value;
                ///< `arg` may have kCheckedAddress too
  BuiltinVariable, ///< push threadIdx.x and friends (`node`)
  Unary,        ///< apply `node`'s arithmetic unary operator to the top
  Binary,       ///< pop b, a: push `node`'s binary operator on them (arithmetic or pointers)
  /** pop b, a: push BinaryOp(`arg`), a plain one or a division or remainder by a constant that
   *  cannot fail (FunctionCompiler::divides_without_error), on integers of `type` as `type2` */
  IntegerBinary,
  Convert,      ///< convert the top from `type` to `type2`; `arg` kIntegerConversion: between
                ///< integers, to `arg2`'s size (bytes), signed if it has kSignedTarget
  IndexAddress, ///< pop the index, then the base: push &base[index] (`node`, an Index); `arg`
                ///< 1: the index is an integer and `imm` the element's size
  IncrementSlot,   ///< `node` (++/-- on slot `arg`, observed `variable`): push its value
  IncrementMemory, ///< pop a pointer: `node` (++/--) on it, push its value
  CompoundSlot,    ///< pop the right operand: `node` (op=) on slot `arg`, push the result
  /** CompoundSlot where the slot's integer type `type` is the computation type and BinaryOp
   *  `imm` is a plain operator or a shift (its right operand of `type2`): no conversions */
  CompoundSlotInteger,
  /** CompoundSlotInteger as a statement whose right operand is the constant `imm` (for a
   *  shift, its count, in range: shift_count when compiled), BinaryOp `arg2`: nothing pushed */
  CompoundSlotConst,
  CompoundMemory,  ///< pop a pointer, then the right operand: `node` (op=) there, push the result;
                   ///< `arg` kIntegerCompound: computed as `type`, with BinaryOp `imm`
  Jump,         ///< to `arg`
  JumpIfFalse,  ///< pop; to `arg` if false as `type` (a floating type)
  JumpIfTrue,   ///< pop; to `arg` if true as `type` (a floating type)
  JumpIfZero,   ///< JumpIfFalse where `type` is not floating: false is the word 0
  JumpIfNonZero, ///< JumpIfTrue where `type` is not floating
  /** A condition `a op b` on two integer locals, or a local and a constant, and the jump on
   *  its truth, in one: to `arg` if slot `arg2` compares to slot `imm` as `compare` says
   *  (CompareJumpConst: to the constant `imm`). What Slot, Slot or Const, IntegerBinary (a
   *  comparison) and JumpIfZero or JumpIfNonZero compute, without the stack. */
  CompareJump,
  CompareJumpConst,
  Call,         ///< pop `arg` arguments, call `function` (`node` the Call), push its result; `arg2`: the
                ///< values below the arguments (a stackless callee's operands go above them)
  Barrier,      ///< __syncthreads and its _count/_and/_or forms (`node` the Call): pop the
                ///< predicate if `arg` is 1 (of `type`), wait at the block's barrier, push the
                ///< builtin's result (Machine::Impl::wait_at_barrier) unless `arg2` is 1: a
                ///< statement of its own, whose value nothing reads
  /** A builtin call without a visible event (math, bits, printf, clock, assert and trap; `node`
   *  the Call): pop its `arg` arguments, push its value (Machine::Impl::apply_builtin) */
  Builtin,
  Fence,        ///< a __threadfence* call (`node`): a visible event; push 0
  /** An atomic builtin call (`node`): pop its `arg` arguments (the pointer, then the compare
   *  value of a CAS, then the operand), perform it (a visible event), push the old value */
  Atomic,
  EvalAst,      ///< push the value of `node`, evaluated on the AST
  ExecAst,      ///< run statement `statement` on the AST; a break jumps to `arg`, a continue to
                ///< `imm`, a return leaves the function
  Discarded,    ///< the builtin call `node` is a statement: its value is discarded
  Step,         ///< one private statement at `statement`'s range (Machine::Impl::count_local_step)
  /** Step, where the next instruction is a Step too: both, where neither reaches a check of
   *  count_local_step (then it skips the next); else only its own, as Step */
  StepTwice,
  Return,       ///< pop the return value and leave the function
  Leave,        ///< leave the function, its return value as it is (the end of its body)
};

/** CompareJump's comparison of two canonical integer words: the operator, and whether they
 *  compare as signed (kSignedCompare) or unsigned. */
enum class Comparison : uint8_t { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
constexpr uint8_t kSignedCompare = 0x80;

/** The comparison that holds exactly where `c` does not. */
constexpr Comparison negated(Comparison c) {
  switch (c) {
  case Comparison::Less: return Comparison::GreaterEqual;
  case Comparison::LessEqual: return Comparison::Greater;
  case Comparison::Greater: return Comparison::LessEqual;
  case Comparison::GreaterEqual: return Comparison::Less;
  case Comparison::Equal: return Comparison::NotEqual;
  case Comparison::NotEqual: return Comparison::Equal;
  }
  return c;
}

/** `a c b` for CompareJump's `compare` (plain_integer_operation's comparisons: signed types
 *  compare their words as int64_t, others as uint64_t; flipping the sign bit turns the signed
 *  order into the unsigned one). */
inline bool compare_words(uint8_t compare, uint64_t a, uint64_t b) {
  if (compare & kSignedCompare) {
    a ^= uint64_t{1} << 63;
    b ^= uint64_t{1} << 63;
  }
  switch (Comparison(compare & ~kSignedCompare)) {
  case Comparison::Less: return a < b;
  case Comparison::LessEqual: return a <= b;
  case Comparison::Greater: return a > b;
  case Comparison::GreaterEqual: return a >= b;
  case Comparison::Equal: return a == b;
  case Comparison::NotEqual: return a != b;
  }
  return false;
}

/** Convert's `arg`; its `arg2` is then the target's size in bytes (kTargetSize) and whether
 *  it is signed (kSignedTarget). */
constexpr uint32_t kIntegerConversion = 1;
constexpr uint32_t kTargetSize = 0xff;
constexpr uint32_t kSignedTarget = 0x100;
/** CompoundMemory's `arg`: `type` (the computation type) is the location's integer type and
 *  BinaryOp `imm` a plain integer operator, so the update is plain_integer_operation's. */
constexpr uint32_t kIntegerCompound = 1;
/** Store, StoreAt and LoadAt: the flags in `arg`. */
constexpr uint32_t kKeepValue = 1;
constexpr uint32_t kCheckedAddress = 4;

/** What the compiler asks of the Machine it compiles for. */
struct CompileQueries {
  /** The observed item (Program::observed) a local's assignments record, if it is one. */
  std::function<std::optional<uint32_t>(const VarDecl&)> observed_item;
  /** Whether an access of `type` through the constant pointer `pointer` passes every check a
   *  memory access makes (alignment, size, bounds), whichever thread makes it. */
  std::function<bool(Word pointer, const Type& type)> address_always_valid;
};

/** An ExecAst's break or continue target where no compiled loop encloses it: leave the
 *  function, as the AST's flow out of its body does. */
constexpr uint32_t kLeaveFunction = ~0u;

struct CompiledFunction;

struct Instr {
  Opcode op;
  uint8_t compare = 0; ///< CompareJump: a Comparison, with kSignedCompare
  /** A read (Load, LoadAt, IncrementMemory, CompoundMemory, Atomic): whether the thread's next
   *  read may be this expression's again with no barrier or fence between, so that spin
   *  recognition must snapshot the thread before it (repeatable_reads.cpp). */
  bool read_repeatable = true;
  uint32_t arg = 0;
  uint32_t arg2 = 0;
  uint64_t imm = 0;
  const Expr* node = nullptr;
  const Stmt* statement = nullptr;
  const Type* type = nullptr;
  const Type* type2 = nullptr;
  const VarDecl* variable = nullptr;
  const FunctionDecl* function = nullptr;
  const CompiledFunction* callee = nullptr; ///< Call: the function's code, if compiled
};

struct CompiledFunction {
  const FunctionDecl* function = nullptr;
  std::vector<Instr> code;
  /** The most values its code holds on the operand stack at once. */
  uint32_t max_depth = 0;
  /** A thread can run it without a native stack, stopping between events
   *  (Machine::Impl::stackless_kernel): its code leaves nothing to the AST, so that every
   *  visible event is one of its instructions or of a callee's, and calls only stackless
   *  functions, none recursively, each with all its arguments (a default argument is
   *  evaluated on the AST), and its operands and its callees' together fit in
   *  Bytecode::kMaxStack (`stack_need`). */
  bool stackless = false;
  /** The most values it and the calls it makes hold on the operand stack at once (where
   *  stackless). */
  uint32_t stack_need = 0;
};

/** The function a call of `declared` runs: its definition, where `declared` is a prototype
 *  (null if it has none). */
inline const FunctionDecl* definition_of(const FunctionDecl& declared) {
  return declared.body ? &declared : declared.definition;
}

/** The compiled functions of one Program, made for one Machine. */
class Bytecode {
public:
  /** Values a compiled function may hold on its stack at once; a function that needs more
   *  (an expression nested deeper) is not compiled and runs on the AST. */
  static constexpr uint32_t kMaxStack = 32;

  /** Compiles the kernel and every function it can call. */
  void compile(const FunctionDecl& kernel, const CompileQueries& queries);
  /** The compiled form of `function` (a prototype names its definition); null if it has none. */
  const CompiledFunction* find(const FunctionDecl& function) const {
    const FunctionDecl* definition = definition_of(function);
    for (const auto& compiled : m_functions)
      if (compiled->function == definition) return compiled.get();
    return nullptr;
  }
  size_t size() const { return m_functions.size(); }

private:
  std::vector<std::unique_ptr<CompiledFunction>> m_functions;
  /** Sets each function's `stackless` and `stack_need` once the calls are linked. */
  void mark_stackless();
  /** Sets each read's `read_repeatable` (`kernel`: the kernel's definition, whose end is the
   *  thread's). */
  void mark_repeatable_reads(const FunctionDecl& kernel);
};

} // namespace fencelab
