#include "view.h"

#include <algorithm>

namespace fencelab {

namespace {
bool key_less(const std::pair<uint64_t, uint32_t>& entry, uint64_t key) { return entry.first < key; }
} // namespace

uint32_t View::get(Location location) const {
  const uint64_t key = location.key();
  const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), key, key_less);
  return it != m_entries.end() && it->first == key ? it->second : 0;
}

void View::raise(Location location, uint32_t index) {
  if (index == 0) return;
  const uint64_t key = location.key();
  const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), key, key_less);
  if (it != m_entries.end() && it->first == key) it->second = std::max(it->second, index);
  else m_entries.insert(it, {key, index});
}

void View::join(const View& other) {
  if (other.m_entries.empty()) return;
  std::vector<std::pair<uint64_t, uint32_t>> merged;
  merged.reserve(m_entries.size() + other.m_entries.size());
  auto a = m_entries.cbegin();
  auto b = other.m_entries.cbegin();
  while (a != m_entries.end() || b != other.m_entries.end()) {
    if (b == other.m_entries.end() || (a != m_entries.end() && a->first < b->first)) {
      merged.push_back(*a++);
    } else if (a == m_entries.end() || b->first < a->first) {
      merged.push_back(*b++);
    } else {
      merged.push_back({a->first, std::max(a->second, b->second)});
      ++a;
      ++b;
    }
  }
  m_entries = std::move(merged);
}

} // namespace fencelab
