// herd7's PTX litmus format, as Dat3M's litmus/PTX/ tests write it: the test as read, and the
// reader that turns text into it (src/litmus/). The model that runs it is
// fencelab/litmus/ptx_model.h.
//
// A test reads (herd7 "PTX" dialect; grammar as Dat3M's LitmusPTX.g4 accepts it):
//   PTX NAME
//   "optional quoted comments" and other text up to the init block
//   { x=0; y=0; P1:r1=0; }
//    P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;        (thread placement: CTA and GPU ids)
//    st.weak x, 1   | ld.acquire.gpu r1, y ;  (one row per step, '|' between threads)
//   exists (P1:r1 == 1 /\ P1:r2 != 1)        (or ~exists, forall)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab::litmus {

/** Where a token starts: 1-based line and column. */
struct SourcePosition {
  int line = 1;
  int column = 1;
};

/** The semantics qualifier of a memory instruction (PTX ISA, "Memory Consistency Model",
 *  section "Operation types": weak, and the strong .relaxed/.acquire/.release/.acq_rel/.sc). */
enum class PtxOrder { weak, relaxed, acquire, release, acq_rel, sc };
/** The scope qualifier (PTX ISA, "Scope"): none for a weak access; .cluster is refused. */
enum class PtxScope { none, cta, gpu, sys };

/** The memory proxy an access goes through (PTX ISA, "Proxies"): ld/st/atom/red the generic
 *  one, tld the texture, suld/sust/suatom/sured the surface, cold the constant proxy. */
enum class PtxProxy { generic, surface, texture, constant };

/** A name declared `NAME @ PROXY aliases TARGET`: a virtual alias of TARGET's memory. A
 *  generic alias is another generic address of the same physical location; a surface, texture
 *  or constant alias is TARGET's generic address seen through that proxy. */
struct PtxAlias {
  PtxProxy proxy = PtxProxy::generic;
  std::string target;
};

/** The instruction forms the reader accepts. */
enum class PtxInstructionKind {
  load,     ///< ld.ORDER[.SCOPE] rD, LOC
  store,    ///< st.ORDER[.SCOPE] LOC, VALUE
  atom,     ///< atom.ORDER.SCOPE.OP rD, LOC, VALUE[, VALUE] (read-modify-write)
  red,      ///< red.ORDER.SCOPE.OP LOC, VALUE (a read-modify-write whose result is dropped)
  fence,    ///< fence.sc.SCOPE or fence.acq_rel.SCOPE
  barrier,  ///< bar.cta.sync/arrive N[, ID[, COUNT]]
  local,    ///< ld rD, VALUE (a move) or add/sub/mul/div rD, VALUE, VALUE
  branch,   ///< beq/bne/blt/bgt/ble/bge VALUE, VALUE, LABEL
  jump,     ///< goto LABEL
  label,    ///< LABEL:
  /** Not in a file: a branch on one path of the thread (ptx_paths.cpp), taken or not; the
   *  execution is one of that path only if its operands compare as `assume_taken` says. */
  assume,
};

/** A branch's comparison. */
enum class PtxComparison { equal, not_equal, less, greater, less_equal, greater_equal };

/** The operation of an atom/red or a local instruction. */
enum class PtxOperation { none, add, sub, mul, div, bit_and, bit_or, bit_xor, exch, cas, move };

/** A constant or a register of the executing thread. */
struct PtxOperand {
  std::optional<std::string> register_name;  ///< set: a register; else `constant`
  int64_t constant = 0;
};

struct PtxInstruction {
  PtxInstructionKind kind = PtxInstructionKind::local;
  PtxOrder order = PtxOrder::weak;
  PtxScope scope = PtxScope::none;
  PtxOperation operation = PtxOperation::none;
  std::string location;              ///< the memory location (load, store, atom, red)
  std::string destination;           ///< the register written (load, atom, local)
  std::vector<PtxOperand> operands;  ///< stored value / atom operands / local operands
  /** Barriers: the barrier's name (the first number), its resource id (the second operand, a
   *  register allowed; absent: the name), its thread count (absent: every thread that has a
   *  barrier of that id), and whether it only arrives (bar.arrive does not wait). */
  PtxOperand barrier_id;
  std::optional<PtxOperand> barrier_count;
  bool barrier_arrive = false;
  PtxProxy proxy = PtxProxy::generic;               ///< memory accesses; fence.proxy.PROXY
  bool proxy_fence = false;                         ///< fence.proxy.PROXY
  bool alias_fence = false;                         ///< fence.proxy.alias
  PtxComparison comparison = PtxComparison::equal;  ///< branch, assume
  std::string label;                                ///< branch, jump, label
  bool assume_taken = false;                        ///< assume
  SourcePosition position;
};

struct PtxThread {
  int cta = 0;
  int gpu = 0;
  std::vector<PtxInstruction> instructions;
};

/** A term of the final condition: `P0:r0`, a location's final value `x`, or a number. */
struct PtxTerm {
  enum class Kind { register_value, location_value, constant } kind = Kind::constant;
  int thread = 0;
  std::string name;
  int64_t constant = 0;
};

/** The final condition as a tree: /\ \/ ~ over comparisons. */
struct PtxCondition {
  enum class Kind { truth, conjunction, disjunction, negation, equal, not_equal } kind = Kind::truth;
  bool truth = true;
  std::vector<PtxCondition> children;  ///< conjunction, disjunction: 2; negation: 1
  PtxTerm left, right;                 ///< equal, not_equal
};

/** herd7's quantifiers: `exists C` holds when some execution satisfies C, `~exists C` when
 *  none does, `forall C` when every one does. */
enum class PtxQuantifier { exists, not_exists, forall };

struct PtxTest {
  std::string name;
  std::map<std::string, int64_t> initial_memory;  ///< every location, 0 unless the init block says
  /** (thread, register) -> initial value; registers not listed start at 0. */
  std::map<std::pair<int, std::string>, int64_t> initial_registers;
  std::map<std::string, PtxAlias> aliases;  ///< the init block's `NAME @ PROXY aliases TARGET`
  std::vector<PtxThread> threads;
  PtxQuantifier quantifier = PtxQuantifier::exists;
  PtxCondition condition;
};

/** A problem in the input: "unsupported: ..." for a form fencelab knows but does not model
 *  (the .cluster scope, bar.red, registers holding addresses), anything else is a syntax error. */
struct PtxDiagnostic {
  SourcePosition position;
  std::string message;
  bool unsupported = false;
};

struct PtxParseResult {
  std::optional<PtxTest> test;  ///< set when there are no diagnostics
  std::vector<PtxDiagnostic> diagnostics;
};

/** Reads a test; never throws on bad input (every problem is a diagnostic). */
PtxParseResult parse_ptx_litmus(std::string_view text);

/** `file:line:col: error: message`, the source line and a caret under the column. */
std::string format_ptx_diagnostic(std::string_view file, std::string_view text, const PtxDiagnostic& diagnostic);

/** Whether `text` looks like a herd7 PTX litmus test (its first word is PTX). */
bool looks_like_ptx_litmus(std::string_view text);

} // namespace fencelab::litmus
