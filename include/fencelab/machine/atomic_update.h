// What an atomic read-modify-write computes from the old value (Programming Guide 10.14).
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/frontend/types.h"
#include "fencelab/machine/location.h"

#include <optional>

namespace fencelab {

#define FENCELAB_ATOMIC_OPS(X)                                                                     \
  X(Add, "add")   /* old + v */                                                                    \
  X(Sub, "sub")   /* old - v */                                                                    \
  X(Exch, "exch") /* v */                                                                          \
  X(Min, "min")   /* min(old, v) */                                                                \
  X(Max, "max")   /* max(old, v) */                                                                \
  X(Inc, "inc")   /* (old >= v) ? 0 : old + 1, unsigned */                                         \
  X(Dec, "dec")   /* (old == 0 || old > v) ? v : old - 1, unsigned */                              \
  X(CAS, "cas")   /* old == compare ? v : old */                                                   \
  X(And, "and")                                                                                    \
  X(Or, "or")                                                                                      \
  X(Xor, "xor")

enum class AtomicOp : uint8_t {
#define X(name, spelling) name,
  FENCELAB_ATOMIC_OPS(X)
#undef X
};

const char* atomic_op_name(AtomicOp op);

/** One atomic operation's update, as plain data (so models and traces can show it). */
struct AtomicUpdate {
  AtomicOp op = AtomicOp::Add;
  Type type;          ///< the type the operation works in (the pointer's pointee type)
  Type storage_type;  ///< the element type of the memory object (same size as `type`)
  Word operand = 0;   ///< v
  Word compare = 0;   ///< CAS only
  /** Nothing can tell which of two such updates came first, beyond the value they leave: the
   *  thread discards the value found (an expression statement `atomicAdd(&x, 1);`) and no
   *  fence has run yet in the execution (after one, which update read from which could carry
   *  a fence's synchronization: the race detector's reads-from rule, race_detector.h). */
  bool unobserved = false;
  /** The thread has run no fence yet in the execution: which entry its update read carries no
   *  fence of its own (race_detector.h), so where the update leaves the value as it found it
   *  (a failed atomicCAS, atomicAdd(p, 0)) it commutes with other such updates. */
  bool unfenced = false;

  /** The value written, given the old value; both as canonical words of `storage_type`. */
  Word apply(Word old) const;
  /** The same computation on words of `type`. */
  Word apply_typed(Word old) const;
  /** Nonzero when this update commutes with every other update of the same kind on the same
   *  location, whatever the order and the value found: two such updates leave the same value
   *  and the same threads' states in either order (docs/reduction.md, "Commuting updates").
   *  Zero otherwise. */
  uint32_t commuting_kind() const;
  /** commuting_kind(), or, where that is zero, kNoOpKind for an unfenced update that leaves
   *  `old` unchanged: two such updates of one location leave the same value, read the same
   *  value and carry the same synchronization in either order (docs/architecture.md, "Updates
   *  that change nothing"). Zero otherwise. */
  uint32_t commuting_kind_found(Word old) const;
  static constexpr uint32_t kNoOpKind = 3u << 8;
};

/** The operation and scope a builtin atomic performs; nullopt for non-atomic builtins. */
struct AtomicBuiltin {
  AtomicOp op;
  Scope scope;
};
std::optional<AtomicBuiltin> atomic_builtin(Builtin builtin);

} // namespace fencelab
