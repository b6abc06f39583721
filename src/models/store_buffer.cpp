#include "store_buffer.h"

namespace fencelab {

std::optional<Word> StoreBuffer::newest(Location location) const {
  for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it)
    if (it->location == location) return it->value;
  return std::nullopt;
}

void StoreBuffer::drainable(DrainOrder order, std::vector<uint32_t>& out) const {
  out.clear();
  if (m_entries.empty()) return;
  if (order == DrainOrder::Fifo) {
    out.push_back(0);
    return;
  }
  // The oldest entry of each location: an entry with no older entry for its location.
  for (uint32_t i = 0; i < m_entries.size(); ++i) {
    bool oldest = true;
    for (uint32_t j = 0; j < i && oldest; ++j) oldest = !(m_entries[j].location == m_entries[i].location);
    if (oldest) out.push_back(i);
  }
}

size_t StoreBuffer::drainable_count(DrainOrder order) const {
  if (m_entries.empty()) return 0;
  if (order == DrainOrder::Fifo) return 1;
  std::vector<uint32_t> positions;
  drainable(order, positions);
  return positions.size();
}

BufferedStore StoreBuffer::take(uint32_t position) {
  const BufferedStore entry = m_entries[position];
  m_entries.erase(m_entries.begin() + position);
  return entry;
}

std::vector<BufferedStore> StoreBuffer::take_all(std::optional<Location> location) {
  std::vector<BufferedStore> taken;
  if (!location) {
    taken.swap(m_entries);
    return taken;
  }
  std::vector<BufferedStore> kept;
  for (const BufferedStore& e : m_entries) (e.location == *location ? taken : kept).push_back(e);
  m_entries.swap(kept);
  return taken;
}

} // namespace fencelab
