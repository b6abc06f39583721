// Relations as one 64-bit row per event: a union is an or of rows, a sequence the or of the
// rows of each successor, the transitive closure Warshall's algorithm (for each k, every row
// holding k takes row k).
#include "relation.h"

namespace fencelab::ptx {

Relation Relation::identity_on(int size, EventSet set) {
  Relation result(size);
  for (int i = 0; i < size; ++i)
    if ((set >> i) & 1) result.add(i, i);
  return result;
}

Relation Relation::product(int size, EventSet from, EventSet to) {
  Relation result(size);
  for (int i = 0; i < size; ++i)
    if ((from >> i) & 1) result.m_rows[i] = to;
  return result;
}

Relation Relation::operator|(const Relation& other) const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i) result.m_rows[i] = m_rows[i] | other.m_rows[i];
  return result;
}

Relation Relation::operator&(const Relation& other) const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i) result.m_rows[i] = m_rows[i] & other.m_rows[i];
  return result;
}

Relation Relation::operator-(const Relation& other) const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i) result.m_rows[i] = m_rows[i] & ~other.m_rows[i];
  return result;
}

Relation Relation::then(const Relation& other) const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i) {
    EventSet row = m_rows[i];
    EventSet out = 0;
    while (row) {
      int k = __builtin_ctzll(row);
      row &= row - 1;
      out |= other.m_rows[k];
    }
    result.m_rows[i] = out;
  }
  return result;
}

Relation Relation::inverse() const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i)
    for (int j = 0; j < m_size; ++j)
      if (has(i, j)) result.add(j, i);
  return result;
}

Relation Relation::reflexive() const {
  Relation result = *this;
  for (int i = 0; i < m_size; ++i) result.add(i, i);
  return result;
}

Relation Relation::transitive() const {
  Relation result = *this;
  for (int k = 0; k < m_size; ++k) {
    EventSet through = EventSet{1} << k;
    for (int i = 0; i < m_size; ++i)
      if (result.m_rows[i] & through) result.m_rows[i] |= result.m_rows[k];
  }
  return result;
}

Relation Relation::restrict(EventSet from, EventSet to) const {
  Relation result(m_size);
  for (int i = 0; i < m_size; ++i)
    if ((from >> i) & 1) result.m_rows[i] = m_rows[i] & to;
  return result;
}

bool Relation::empty() const {
  for (int i = 0; i < m_size; ++i)
    if (m_rows[i]) return false;
  return true;
}

bool Relation::irreflexive() const {
  for (int i = 0; i < m_size; ++i)
    if (has(i, i)) return false;
  return true;
}

} // namespace fencelab::ptx
