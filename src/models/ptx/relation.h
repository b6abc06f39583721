// Binary relations over the events of one candidate execution (at most 64 events), the algebra
// herd7's cat language writes axioms in: union, intersection, difference, sequence (';'),
// inverse, reflexive and transitive closure, and the acyclic/irreflexive/empty checks.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace fencelab::ptx {

/** A set of events, bit i for event i. */
using EventSet = uint64_t;

/** The most events a candidate execution may have. */
inline constexpr int kMaxEvents = 64;

class Relation {
public:
  Relation() = default;
  /** The empty relation over `size` events. */
  explicit Relation(int size) : m_size(size) { m_rows.fill(0); }

  int size() const { return m_size; }
  bool has(int from, int to) const { return (m_rows[from] >> to) & 1; }
  void add(int from, int to) { m_rows[from] |= EventSet{1} << to; }
  /** The events `from` relates to. */
  EventSet successors(int from) const { return m_rows[from]; }

  /** [S]: the identity on S. */
  static Relation identity_on(int size, EventSet set);
  /** S * T: every pair (a in S, b in T). */
  static Relation product(int size, EventSet from, EventSet to);

  Relation operator|(const Relation& other) const;
  Relation operator&(const Relation& other) const;
  /** r \ s */
  Relation operator-(const Relation& other) const;
  /** r ; s (composition) */
  Relation then(const Relation& other) const;
  /** r^-1 */
  Relation inverse() const;
  /** r? : r with the identity */
  Relation reflexive() const;
  /** r+ (Warshall's algorithm over bit rows) */
  Relation transitive() const;
  /** [S] ; r ; [T] */
  Relation restrict(EventSet from, EventSet to) const;

  bool empty() const;
  bool irreflexive() const;
  bool acyclic() const { return transitive().irreflexive(); }
  bool operator==(const Relation& other) const = default;

private:
  int m_size = 0;
  std::array<EventSet, kMaxEvents> m_rows{};
};

} // namespace fencelab::ptx
