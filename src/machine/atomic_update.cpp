// Atomic functions' updates, Programming Guide 10.14 "Atomic Functions".
#include "fencelab/machine/atomic_update.h"

namespace fencelab {

const char* atomic_op_name(AtomicOp op) {
  switch (op) {
#define X(name, spelling)                                                                          \
  case AtomicOp::name: return spelling;
    FENCELAB_ATOMIC_OPS(X)
#undef X
  }
  return "?";
}

Word AtomicUpdate::apply(Word old) const {
  return reinterpret_word(apply_typed(reinterpret_word(old, storage_type, type)), type, storage_type);
}

Word AtomicUpdate::apply_typed(Word old) const {
  const Type t = type;
  auto less = [&t](Word a, Word b) {
    if (t.is_floating()) return word_to_double(a, t) < word_to_double(b, t);
    if (t.is_signed()) return int64_t(a) < int64_t(b);
    return a < b;
  };
  switch (op) {
  case AtomicOp::Add:
  case AtomicOp::Sub: {
    if (t.is_floating()) {
      const double v = word_to_double(operand, t);
      return word_from_double(word_to_double(old, t) + (op == AtomicOp::Add ? v : -v), t);
    }
    return canonical_word(op == AtomicOp::Add ? old + operand : old - operand, t);
  }
  case AtomicOp::Exch: return operand;
  case AtomicOp::Min: return less(operand, old) ? operand : old;
  case AtomicOp::Max: return less(old, operand) ? operand : old;
  // atomicInc: ((old >= val) ? 0 : (old+1)); atomicDec: (((old == 0) || (old > val)) ? val : (old-1))
  case AtomicOp::Inc: return old >= operand ? 0 : canonical_word(old + 1, t);
  case AtomicOp::Dec: return (old == 0 || old > operand) ? operand : canonical_word(old - 1, t);
  case AtomicOp::CAS: return old == compare ? operand : old;
  case AtomicOp::And: return old & operand;
  case AtomicOp::Or: return old | operand;
  case AtomicOp::Xor: return old ^ operand;
  }
  return old;
}

// Two updates f and g of one location commute when f(g(x)) == g(f(x)) for every x: integer
// addition and subtraction (modulo 2^n), and exclusive or, each with itself. Only updates that
// always change the value qualify (a nonzero operand): whether an atomic changed memory is
// something the Machine notes (it wakes spinners, and spin recognition asks it), so for And,
// Or, Min and Max, where that depends on the order, the two orders are not the same state.
// Floating-point addition is not associative: its order changes the sum (Programming Guide
// 10.14.1.1), so it never commutes. A thread that uses the value found sees the order, and so
// may the race detector once a fence has run (AtomicUpdate::unobserved).
uint32_t AtomicUpdate::commuting_kind() const {
  if (!unobserved || !type.is_integer() || !storage_type.is_integer()) return 0;
  const uint32_t bits = 8 * storage_type.size();
  const Word mask = bits >= 64 ? ~Word(0) : (Word(1) << bits) - 1;
  if ((operand & mask) == 0) return 0;
  uint32_t family = 0;
  if (op == AtomicOp::Add || op == AtomicOp::Sub) family = 1;
  else if (op == AtomicOp::Xor) family = 2;
  else return 0;
  return family << 8 | storage_type.size();
}

uint32_t AtomicUpdate::commuting_kind_found(Word old) const {
  if (const uint32_t kind = commuting_kind()) return kind;
  return unfenced && apply(old) == old ? kNoOpKind : 0;
}

std::optional<AtomicBuiltin> atomic_builtin(Builtin builtin) {
  switch (builtin) {
#define SCOPED(op, name)                                                                           \
  case Builtin::name: return AtomicBuiltin{AtomicOp::op, Scope::Device};                           \
  case Builtin::name##Block: return AtomicBuiltin{AtomicOp::op, Scope::Block};                     \
  case Builtin::name##System: return AtomicBuiltin{AtomicOp::op, Scope::System};
    SCOPED(Add, AtomicAdd)
    SCOPED(Sub, AtomicSub)
    SCOPED(Exch, AtomicExch)
    SCOPED(Min, AtomicMin)
    SCOPED(Max, AtomicMax)
    SCOPED(Inc, AtomicInc)
    SCOPED(Dec, AtomicDec)
    SCOPED(CAS, AtomicCAS)
    SCOPED(And, AtomicAnd)
    SCOPED(Or, AtomicOr)
    SCOPED(Xor, AtomicXor)
#undef SCOPED
  default: return std::nullopt;
  }
}

} // namespace fencelab
