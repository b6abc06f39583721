#include "store_buffer.h"

namespace fencelab {

std::optional<Word> StoreBuffer::newest(Location location) const {
  for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it)
    if (it->location == location) return it->value;
  return std::nullopt;
}

bool StoreBuffer::oldest_of_its_location(uint32_t position) const {
  for (uint32_t j = 0; j < position; ++j)
    if (m_entries[j].location == m_entries[position].location) return false;
  return true;
}

void StoreBuffer::drainable(DrainOrder order, std::vector<uint32_t>& out) const {
  out.clear();
  if (m_entries.empty()) return;
  if (order == DrainOrder::Fifo) {
    out.push_back(0);
    return;
  }
  for (uint32_t i = 0; i < m_entries.size(); ++i)
    if (oldest_of_its_location(i)) out.push_back(i);
}

uint32_t StoreBuffer::drainable_position(DrainOrder order, uint32_t k) const {
  if (order == DrainOrder::Fifo) return 0;
  for (uint32_t i = 0; i < m_entries.size(); ++i)
    if (oldest_of_its_location(i) && k-- == 0) return i;
  return 0; // unreachable for a valid k
}

BufferedStore StoreBuffer::take(uint32_t position) {
  const BufferedStore entry = m_entries[position];
  m_entries.erase(m_entries.begin() + position);
  if (!contains(entry.location)) --m_locations;
  return entry;
}

void StoreBuffer::take_all(std::vector<BufferedStore>& out, std::optional<Location> location) {
  if (!location) {
    out.insert(out.end(), m_entries.begin(), m_entries.end());
    clear(); // keeps its capacity for the thread's next stores
    return;
  }
  size_t kept = 0;
  for (const BufferedStore& e : m_entries) {
    if (e.location == *location) out.push_back(e);
    else m_entries[kept++] = e;
  }
  if (kept < m_entries.size()) --m_locations;
  m_entries.resize(kept);
}

} // namespace fencelab
