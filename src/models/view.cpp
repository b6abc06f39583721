#include "view.h"

#include <algorithm>
#include <boost/smart_ptr/make_local_shared.hpp>

namespace fencelab {

namespace {

bool key_less(const std::pair<uint64_t, uint32_t>& entry, uint64_t key) { return entry.first < key; }

uint32_t find(const View::Entries& entries, uint64_t key) {
  const auto it = std::lower_bound(entries.begin(), entries.end(), key, key_less);
  return it != entries.end() && it->first == key ? it->second : 0;
}

/** Sets `merged` to the pointwise maximum of two sorted entry lists (neither is `merged`). */
void merge_into(View::Entries& merged, const View::Entries& a, const View::Entries& b) {
  merged.clear();
  const size_t needed = a.size() + b.size();
  if (merged.capacity() < needed) merged.reserve(std::max(needed, 2 * merged.capacity())); // amortized
  auto x = a.cbegin();
  auto y = b.cbegin();
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && x->first < y->first)) {
      merged.push_back(*x++);
    } else if (x == a.end() || y->first < x->first) {
      merged.push_back(*y++);
    } else {
      merged.push_back({x->first, std::max(x->second, y->second)});
      ++x;
      ++y;
    }
  }
}

View::Entries merge(const View::Entries& a, const View::Entries& b) {
  View::Entries merged;
  merge_into(merged, a, b);
  return merged;
}

/** Merges `other` into `into` through a buffer kept per OS thread, so that joining views at a
 *  barrier (one join per participant) reuses memory instead of allocating a list per join. */
void merge_in_place(View::Entries& into, const View::Entries& other) {
  thread_local View::Entries scratch;
  merge_into(scratch, into, other);
  into.swap(scratch);
}

/** Raises `into`'s entry for `key` to at least `index`. */
void raise_entry(View::Entries& into, uint64_t key, uint32_t index) {
  const auto it = std::lower_bound(into.begin(), into.end(), key, key_less);
  if (it != into.end() && it->first == key) it->second = std::max(it->second, index);
  else into.insert(it, {key, index});
}

} // namespace

uint32_t View::get(Location location) const {
  const uint64_t key = location.key();
  const uint32_t own = find(m_own, key);
  return m_base ? std::max(own, find(*m_base, key)) : own;
}

void View::raise(Location location, uint32_t index) {
  if (index == 0 || (m_base && find(*m_base, location.key()) >= index)) return;
  raise_entry(m_own, location.key(), index);
}

void View::join(const View& other) {
  if (other.empty() || &other == this) return;
  if (empty()) {
    *this = other;
    return;
  }
  if (m_base == other.m_base) {
    // The same base (threads since their last barrier): only the other's raises are new.
    if (m_own.empty()) m_own = other.m_own;
    else if (!other.m_own.empty()) merge_in_place(m_own, other.m_own);
    return;
  }
  m_own = merge(entries(), other.entries());
  m_base.reset();
}

void View::join_all(std::span<const View* const> views) {
  // Joins are pointwise maxima, so their order does not matter: the views with this one's
  // base first, all at once, then any other one by one.
  const auto first = std::find_if(views.begin(), views.end(), [](const View* v) { return !v->empty(); });
  if (first == views.end()) return;
  if (empty()) *this = **first;
  const Entries* const base = m_base.get(); // this view's base before any join below changes it
  thread_local Entries gathered;
  gathered.assign(m_own.begin(), m_own.end());
  bool any_gathered = false;
  for (const View* v : views) {
    if (v == this || v->m_base.get() != base || v->m_own.empty()) continue;
    gathered.insert(gathered.end(), v->m_own.begin(), v->m_own.end());
    any_gathered = true;
  }
  if (any_gathered) {
    // Sorted by key, the largest index of a key first: the first of each key is its maximum.
    std::sort(gathered.begin(), gathered.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    m_own.clear();
    for (const auto& entry : gathered)
      if (m_own.empty() || m_own.back().first != entry.first) m_own.push_back(entry);
  }
  for (const View* v : views)
    if (v != this && v->m_base.get() != base) join(*v);
}

void View::share() {
  if (m_own.empty()) return;
  m_base = boost::make_local_shared<const Entries>(entries());
  m_own.clear();
}

View::Entries View::entries() const {
  if (!m_base) return m_own;
  if (m_own.empty()) return *m_base;
  return merge(*m_base, m_own);
}

} // namespace fencelab
