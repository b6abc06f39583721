// The one interface for every nondeterministic decision (STYLE 3; DESIGN "Choices").
//
// The Machine and the memory models ask "which of these N?" and nothing else. The random
// explorer answers from a seeded generator, the exhaustive explorer from a depth-first search
// over choice sequences, replay from a recorded token. A decision with one option is never
// asked, so a replay token lists only real decisions.
#pragma once

#include <cstdint>

namespace fencelab {

#define FENCELAB_CHOICE_KINDS(X)                                                                   \
  X(Schedule, "schedule")   /* which enabled thread (or model step) goes next */                   \
  X(ReadFrom, "read-from")  /* which store in a location's history a load reads */                 \
  X(Drain, "drain")         /* which buffered store drains to memory */                            \
  X(Value, "value")         /* an arbitrary value (undefined results) */

enum class ChoiceKind : uint8_t {
#define X(name, spelling) name,
  FENCELAB_CHOICE_KINDS(X)
#undef X
};

const char* choice_kind_name(ChoiceKind kind);

class ChoiceSource {
public:
  virtual ~ChoiceSource() = default;
  /** Returns a number in [0, options); `options` is at least 2. The first `common` options
   *  are the usual case (the newest value; draining a buffered store promptly): a biased
   *  random explorer favours them, the others ignore the hint. */
  virtual uint32_t choose(uint32_t options, ChoiceKind kind, uint32_t common = 0) = 0;
};

} // namespace fencelab
