// The compiler of one function to bytecode (bytecode.h), defined in two files: expressions in
// bytecode_compiler.cpp (with Bytecode::compile, which runs it on each function), statements and
// loops in bytecode_statements.cpp. Each construct is laid out to do exactly what the AST walker
// does for it (interpreter.cpp), in the same order: the same private steps counted at the same
// statements, the same operands evaluated first, the same reads and writes with the same sites
// and ranges.
#pragma once

#include "bytecode.h"

#include "fencelab/machine/pointer.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace fencelab {

/** A jump target not yet known: the instruction and which of its fields gets it. */
struct Fixup {
  size_t instruction;
  bool in_imm; ///< ExecAst's continue target is in `imm`; every other target in `arg`
};

class FunctionCompiler {
public:
  FunctionCompiler(std::vector<Instr>& code, const CompileQueries& queries, std::vector<const FunctionDecl*>& callees)
      : m_code(code), m_queries(queries), m_callees(callees) {}

  /** False if the function cannot be compiled (its expressions nest too deep). */
  bool compile(const FunctionDecl& function);
  uint32_t max_depth() const { return m_max_depth; }

private:
  /** What an lvalue designates once its address code is emitted: a slot (no code), memory at
   *  the address the code pushed, or a global variable (no code; its address is constant). */
  enum class Place : uint8_t { None, Slot, Memory, Global };
  /** An lvalue's designation and what locates it. */
  struct Lvalue {
    Place place = Place::None;
    uint32_t slot = 0;
    const VarDecl* variable = nullptr; ///< a slot's local, where its assignments are recorded ...
    uint32_t item = 0;                 ///< ... as this observed item
    Word address = 0;                  ///< a global's
  };
  struct Loop {
    std::vector<Fixup> breaks, continues;
  };

  std::vector<Instr>& m_code;
  const CompileQueries& m_queries;
  std::vector<const FunctionDecl*>& m_callees;
  std::vector<Loop> m_loops;
  uint32_t m_depth = 0, m_max_depth = 0;
  static Word address_of(const VarDecl& global) {
    return PointerValue{PointerKind::Object, global.object_id, 0}.encode();
  }

  size_t here() const { return m_code.size(); }
  /** Appends `instr`, which changes the stack's depth by `effect`. */
  size_t emit(Instr instr, int effect = 0) {
    m_depth = uint32_t(int(m_depth) + effect);
    m_max_depth = std::max(m_max_depth, m_depth);
    m_code.push_back(instr);
    return m_code.size() - 1;
  }
  void patch(const Fixup& fixup, size_t target) {
    if (fixup.in_imm) m_code[fixup.instruction].imm = target;
    else m_code[fixup.instruction].arg = uint32_t(target);
  }
  void step(const Stmt& s) { emit({.op = Opcode::Step, .statement = &s}); }
  /** LoadAt and StoreAt's kCheckedAddress, where the Machine vouches for the access. */
  uint32_t checked(Word address, const Type& type) const {
    return m_queries.address_always_valid(address, type) ? kCheckedAddress : 0;
  }

  // Expressions ------------------------------------------------------------------------------

  /** Code that pushes `e`'s value: compiled where it can be, else evaluated on the AST. */
  void value(const Expr& e);
  /** Code that evaluates `e` for its effects only (an expression statement). */
  void effect(const Expr& e);
  /** The CompoundSlotConst that does what the code from `mark` (an expression statement) and
   *  its Pop do, where that code is `x op= c` on an integer local of its own computation type
   *  (Const, CompoundSlotInteger) and a shift's count c is in range: computed as apply_binary
   *  would, it cannot fail. */
  std::optional<Instr> compound_with_constant(size_t mark) const;
  /** The CompoundSlotConst (x += 1 or x -= 1) that does what the code from `mark` (an
   *  expression statement) and its Pop do, where that code is ++ or -- on an integer local
   *  of int's rank or wider: the increment's value is not read. */
  std::optional<Instr> increment_as_compound(size_t mark) const;
  /** Converts the value compiled from `mark` from `from` to `to`: a constant is converted now
   *  (convert_word is a function of the word and the types alone). */
  void convert(size_t mark, const Type& from, const Type& to);
  /** `e` as a condition: pushes its value, then jumps as its truth says (to be patched). */
  size_t branch(const Expr& e, bool if_true);
  /** The CompareJump that does what the code from `mark` (condition `e`) and a jump on its
   *  truth do, where that code is one comparison of integers on a local and a local or a
   *  constant: Slot, Slot or Const, IntegerBinary. Nothing jumps into that code (it is one
   *  expression's, compiled just now), so it can be replaced whole. */
  std::optional<Instr> compare_and_jump(const Expr& e, size_t mark, bool if_true) const;
  /** Emits the address code of lvalue `e` (none for a slot or a global). Mirrors
   *  Interpreter::lvalue. */
  Lvalue place(const Expr& e);
  /** place(), with a global's address pushed too: Memory, Slot or None. */
  Lvalue place_on_stack(const Expr& e);
  /** A plain assignment; `keep`: its value stays on the stack. */
  bool compile_assign(const Assign& e, bool keep);
  bool compile_value(const Expr& e);
  /** Mirrors Interpreter::eval_name; a local whose address is taken stays on the AST. */
  bool compile_name(const NameRef& e);
  bool compile_unary(const Unary& e);
  bool compile_binary(const Binary& e);
  /** Whether `e` is a division or remainder of integers by the constant `divisor` that cannot
   *  fail, which IntegerBinary then computes. */
  static bool divides_without_error(const Binary& e, Word divisor);

  // Statements -------------------------------------------------------------------------------

  /** `s` run on the AST; its break and continue go to the enclosing compiled loop's targets. */
  void on_ast(const Stmt& s);
  /** A jump out of the loop (break) or to its next iteration (continue); with no compiled loop
   *  around it (sema allows none) it leaves the function, as the AST's flow would. */
  void loop_jump(bool is_break);
  /** Ends a for or while loop whose next iteration begins at `next`: a step at the loop's
   *  range and a jump back to `top`; the condition's exit jump (if any) leaves with the breaks. */
  void repeat_loop(const Stmt& s, size_t top, size_t next, std::optional<size_t> exit);
  /** Closes the innermost loop: its continues go to `continue_target`, its breaks to here. */
  void end_loop(size_t continue_target);
  void declaration(const Declaration& d);
  void statement(const Stmt& s);
};

} // namespace fencelab
