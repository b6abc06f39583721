#include "vector_clock.h"

#include <algorithm>
#include <boost/smart_ptr/make_local_shared.hpp>

namespace fencelab {

namespace {

/** The entrywise maximum of two chunks, sharing one of them where it already is that maximum. */
using SharedChunk = boost::local_shared_ptr<const std::vector<uint32_t>>;

SharedChunk max_of(const SharedChunk& a, const SharedChunk& b) {
  if (a == b) return a;
  bool a_covers = true, b_covers = true;
  for (size_t i = 0; i < a->size(); ++i) {
    a_covers &= (*a)[i] >= (*b)[i];
    b_covers &= (*b)[i] >= (*a)[i];
  }
  if (a_covers) return a;
  if (b_covers) return b;
  auto out = boost::make_local_shared<std::vector<uint32_t>>(*a);
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = std::max((*out)[i], (*b)[i]);
  return out;
}

/** Whether every entry of `b` is at most `a`'s. */
bool covers(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] < b[i]) return false;
  return true;
}

} // namespace

bool VectorClock::covers_clock(const VectorClock& other) const {
  if (!other.m_chunks || other.m_chunks == m_chunks) return true;
  if (!m_chunks) return false;
  auto a = m_chunks->begin();
  for (const Chunk& b : *other.m_chunks) {
    while (a != m_chunks->end() && a->block < b.block) ++a;
    if (a == m_chunks->end() || a->block != b.block) return false;
    if (a->clocks != b.clocks && !covers(*a->clocks, *b.clocks)) return false;
  }
  return true;
}

uint32_t VectorClock::get(uint32_t thread, uint32_t threads_per_block) const {
  if (!m_chunks) return 0;
  const auto [block, in_block] = split_thread_index(thread, threads_per_block);
  const auto it = std::lower_bound(m_chunks->begin(), m_chunks->end(), block,
                                   [](const Chunk& c, uint32_t b) { return c.block < b; });
  return it != m_chunks->end() && it->block == block ? (*it->clocks)[in_block] : 0;
}

void VectorClock::join_other(const VectorClock& other) {
  if (!m_chunks) {
    m_chunks = other.m_chunks;
    return;
  }
  if (covers_clock(other)) return; // the common case (a fence's release already joined): nothing to build
  // Merge the two sorted lists; keep this clock's list when the other adds nothing.
  auto merged = boost::make_local_shared<Chunks>();
  merged->reserve(m_chunks->size() + other.m_chunks->size());
  bool changed = false;
  auto a = m_chunks->begin(), b = other.m_chunks->begin();
  while (a != m_chunks->end() || b != other.m_chunks->end()) {
    if (b == other.m_chunks->end() || (a != m_chunks->end() && a->block < b->block)) {
      merged->push_back(*a++);
    } else if (a == m_chunks->end() || b->block < a->block) {
      merged->push_back(*b++);
      changed = true;
    } else {
      auto clocks = max_of(a->clocks, b->clocks);
      changed |= clocks != a->clocks;
      merged->push_back(Chunk{a->block, std::move(clocks)});
      ++a;
      ++b;
    }
  }
  if (changed) m_chunks = std::move(merged);
}

void VectorClock::raise(uint32_t block, std::span<const std::pair<uint32_t, uint32_t>> entries,
                        uint32_t threads_per_block) {
  const Chunks empty;
  const Chunks& chunks = m_chunks ? *m_chunks : empty;
  const auto it = std::lower_bound(chunks.begin(), chunks.end(), block,
                                   [](const Chunk& c, uint32_t b) { return c.block < b; });
  const bool present = it != chunks.end() && it->block == block;
  if (present && std::all_of(entries.begin(), entries.end(),
                             [&it](const auto& e) { return (*it->clocks)[e.first] >= e.second; }))
    return;
  const size_t at = size_t(it - chunks.begin());
  // Copy-on-write: a list or a chunk no other clock shares is changed in place, which spares an
  // allocation per fence and barrier in the steady state (issue 12). Every list and chunk is
  // made non-const (make_local_shared here, in join or in max_of), so the const_casts are sound. A
  // copied list shares all its chunks with the original, so its chunk is copied too.
  boost::local_shared_ptr<Chunks> copied;
  Chunks* list = nullptr;
  if (m_chunks && m_chunks.local_use_count() == 1) {
    list = const_cast<Chunks*>(m_chunks.get());
  } else {
    copied = boost::make_local_shared<Chunks>(chunks);
    list = copied.get();
  }
  std::vector<uint32_t>* clocks = nullptr;
  if (present && (*list)[at].clocks.local_use_count() == 1) {
    clocks = const_cast<std::vector<uint32_t>*>((*list)[at].clocks.get());
  } else {
    auto fresh = present ? boost::make_local_shared<std::vector<uint32_t>>(*(*list)[at].clocks)
                         : boost::make_local_shared<std::vector<uint32_t>>(threads_per_block, 0);
    clocks = fresh.get();
    if (present) (*list)[at].clocks = std::move(fresh);
    else list->insert(list->begin() + ptrdiff_t(at), Chunk{block, std::move(fresh)});
  }
  for (const auto& [index, value] : entries) (*clocks)[index] = std::max((*clocks)[index], value);
  if (copied) m_chunks = std::move(copied);
}

} // namespace fencelab
