// Locations of simulated memory and the vocabulary of memory operations.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace fencelab {

/**
 * One naturally aligned element of one memory instance. A memory instance is a global or
 * constant object, or one block's copy of a shared object (machine/memory_layout.h).
 * DESIGN: "A location is a naturally aligned word."
 */
struct Location {
  uint32_t instance = 0;
  uint32_t index = 0;
  friend auto operator<=>(const Location&, const Location&) = default;
  uint64_t key() const { return (uint64_t(instance) << 32) | index; }
};

/**
 * Scopes of fences and atomics (PTX ISA 8.5 Scope): the set of threads an operation's
 * ordering guarantees reach. Programming Guide 10.5: `__threadfence_block` = block,
 * `__threadfence` = device, `__threadfence_system` = system.
 */
enum class Scope : uint8_t { Block, Device, System };

const char* scope_name(Scope scope);

/** How the source code performed an access; the model may treat them alike, the race
 *  detector does not (DESIGN: volatile and atomic pairs of sufficient scope do not race). */
enum class AccessMode : uint8_t { Plain, Volatile, Atomic };

} // namespace fencelab

template <>
struct std::hash<fencelab::Location> {
  size_t operator()(const fencelab::Location& l) const noexcept {
    return std::hash<uint64_t>{}(l.key());
  }
};
