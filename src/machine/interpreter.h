// The interpreter of a thread's code, on its fiber: the AST walker (interpreter.cpp, the
// reference) and the bytecode engine (bytecode_vm.cpp), which runs compiled functions
// (bytecode.h) and hands what it does not compile back to the walker. Both share the rules
// below (reads, writes, operators, calls), so that they cannot drift apart.
#pragma once

#include "bytecode.h"
#include "machine_impl.h"

#include <span>

namespace fencelab {

enum class Flow : uint8_t { Normal, Break, Continue, Return };

/** An object designated by an lvalue expression: a frame slot or a memory address. */
struct LValue {
  bool is_slot = false;
  size_t slot = 0;       ///< absolute index into SimThread::slots
  Word pointer = 0;      ///< when !is_slot
  Type type;
  const VarDecl* variable = nullptr; ///< the local, when is_slot
};

class Interpreter {
public:
  Interpreter(Machine::Impl& machine, SimThread& thread) : m(machine), t(thread) {}

  Word eval(const Expr& e);
  Flow exec(const Stmt& s);
  /** A stackless thread (Machine::Impl::stackless_kernel) runs its compiled kernel `kernel`, and
   *  the calls it makes, from where it stopped: true when the kernel has ended, false when the
   *  thread stopped before a visible event or at a barrier (bytecode_vm.cpp). The kernel's
   *  frame (its first) has Frame::code set. */
  bool run_stackless(const CompiledFunction& kernel);
  /** The frame of a call of `function` with `args` (Interpreter::call's; a null `call_site`:
   *  the kernel's own, at the thread's start), and its end: the value it returned. */
  size_t enter_frame(const FunctionDecl& function, std::span<const Word> args, const Call* call_site);
  Word leave_frame(size_t base);
  /** The end of the kernel's frame, whose value nothing reads (a stackless thread's end). */
  void leave_kernel_frame();
  /** Calls `function` (its compiled form if it has one) with `args` in a new frame. */
  Word call(const FunctionDecl& function, std::span<const Word> args, const Call* call_site);
  /** The same, with the compiled form already looked up (null: the AST). */
  Word call(const FunctionDecl& function, std::span<const Word> args, const Call* call_site,
            const CompiledFunction* compiled);
  /** A stackless thread's call (the Call instruction `call`): the callee's frame, which
   *  returns to the caller's instruction `return_pc` with `return_depth` values on the operand
   *  stack. Its base. */
  size_t enter_stackless_call(const Instr& call, std::span<const Word> args, uint32_t return_pc,
                              uint32_t return_depth);

private:
  Machine::Impl& m;
  SimThread& t;

  size_t frame_base() const { return t.frames.back().base; }
  /** The fault of a call `function` at the thread's call depth limit (Machine::Impl::call_depth_limit). */
  [[noreturn]] void recursion_too_deep(const FunctionDecl& function);
  LValue lvalue(const Expr& e);
  /** Reads `lv` for the expression `site` (which names the read for spin recognition). */
  Word read(const LValue& lv, const Expr& site);
  void write(const LValue& lv, Word value, SourceRange range);
  Word eval_unary(const Unary& e);
  Word eval_binary(const Binary& e);
  Word eval_assign(const Assign& e);
  Word eval_name(const NameRef& e);
  /** `e`'s operator on its operands' values `a` and `b` (not &&, || or the comma). */
  Word binary_values(const Binary& e, Word a, Word b);
  /** ++ or -- (`e`) on `lv`: its value. */
  Word increment(const Unary& e, const LValue& lv);
  /** `lv op= value` (`e`): the value stored. */
  Word compound_assign(const Assign& e, const LValue& lv, Word value);
  Word builtin_variable(const BuiltinVariable& e) const;
  Word pointer_add(Word pointer, const Type& pointer_type, int64_t count) const;
  Word arithmetic(BinaryOp op, Word a, Word b, const Type& type, const Type& rhs_type,
                  const Type& result_type, SourceRange range);
  void declare(const VarDecl& variable);
  /** A fresh one-element private array holding `value`: where a local whose address is taken
   *  lives. Its address. */
  Word private_cell(const Type& type, Word value);
  Flow exec_switch(const Switch& s);
  Flow exec_body(const std::vector<StmtPtr>& body, size_t first);
  bool condition(const Expr& e) { return word_is_true(eval(e), e.type); }
  /** Runs a compiled function's body in the current frame (bytecode_vm.cpp). */
  void run(const CompiledFunction& function);
  /** The loop of `run`; stackless, it may return before a visible event (false) instead of
   *  waiting on the fiber (bytecode_vm.cpp). */
  template <bool kStackless>
  bool execute(const CompiledFunction& function, Word* stack, uint32_t depth, uint32_t start);
  /** Stackless: the thread stops before its event in the instruction at `instruction`, which
   *  runs again when it is resumed, with `depth` values on its operand stack. False, for
   *  `execute` to return. */
  bool stop_before_event(uint32_t instruction, uint32_t depth) {
    t.resume_pc = instruction;
    t.resume_depth = depth;
    return false;
  }
  /** A stackless thread's accesses: perform the access, or stop before its event (false), or,
   *  resumed at the event, perform it. */
  bool load_or_stop(Word pointer, const Type& type, SourceRange range, bool checked, Word& value);
  bool store_or_stop(Word pointer, const Type& type, Word value, SourceRange range, bool checked);
  bool store_or_stop(const Instr& instr, Word pointer, Word value);
  /** An atomic builtin's `call` with arguments `args`: as load_or_stop; its old value. */
  bool atomic_or_stop(const Call& call, std::span<const Word> args, Word& old);
  /** ++/-- or op= on memory at `pointer` (`e`): its load, `update`, its store; the values in
   *  ThreadRunState::resume_loaded and resume_updated once done. */
  template <class Update> bool update_or_stop(const Expr& e, const Type& type, Word pointer, Update update);
  /** ++ or -- (`e`) of the value `old`. */
  Word incremented(const Unary& e, Word old);
  /** `old op= value` (`e`): the value stored. */
  Word compound_result(const Assign& e, Word old, Word value);
  /** Store and StoreAt once the pointer is known: the value is popped from `sp`, or kept on it
   *  (kKeepValue). */
  void store(const Instr& instr, Word pointer, Word*& sp);
};

} // namespace fencelab
