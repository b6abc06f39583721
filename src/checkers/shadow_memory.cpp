#include "shadow_memory.h"

#include <algorithm>

namespace fencelab {

void ShadowMemory::begin_execution() {
  ++m_generation;
  m_extras_used = 0;
  m_free_extras.clear();
}

ShadowCell& ShadowMemory::cell(Location location, uint32_t element_count) {
  if (location.instance >= m_instances.size()) m_instances.resize(location.instance + 1);
  std::vector<Chunk>& chunks = m_instances[location.instance];
  const uint32_t number = location.index / kChunk, offset = location.index % kChunk;
  if (number >= chunks.size()) chunks.resize(number + 1);
  Chunk& chunk = chunks[number];
  if (!chunk.cells) {
    // The last chunk of a small or odd-sized object holds only its elements (a scalar: one cell).
    chunk.size = std::min(kChunk, element_count - number * kChunk);
    chunk.cells = std::make_unique<ShadowCell[]>(chunk.size);
    chunk.generation = m_generation;
  } else if (chunk.generation != m_generation) {
    std::fill_n(chunk.cells.get(), chunk.size, ShadowCell{});
    chunk.generation = m_generation;
  }
  return chunk.cells[offset];
}

void ShadowMemory::reset_instance(uint32_t instance) {
  if (instance >= m_instances.size()) return;
  for (Chunk& chunk : m_instances[instance]) {
    if (chunk.generation == m_generation)
      for (uint32_t i = 0; i < chunk.size; ++i)
        if (chunk.cells[i].extra) m_free_extras.push_back(chunk.cells[i].extra);
    chunk.generation = 0;
  }
}

ShadowExtra& ShadowMemory::extra(ShadowCell& cell) {
  if (cell.extra) return m_extras[cell.extra - 1];
  if (!m_free_extras.empty()) {
    cell.extra = m_free_extras.back();
    m_free_extras.pop_back();
  } else {
    if (m_extras_used == m_extras.size()) m_extras.emplace_back();
    cell.extra = static_cast<uint32_t>(++m_extras_used);
  }
  ShadowExtra& e = m_extras[cell.extra - 1];
  e.reads.clear();
  e.updates.clear();
  return e;
}

} // namespace fencelab
