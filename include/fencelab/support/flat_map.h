// A hash map from 32- or 64-bit integer keys to values, stored in one array: open addressing
// with linear probing, a power-of-two capacity and a multiplicative hash, deletion by
// backward shift (no tombstones). For the per-event lookups of the race detector and the
// Machine, where std::unordered_map's node per entry and modulo per lookup cost a cache miss
// and a division each time.
//
// References to values stay valid until the next insertion or erasure (entries move).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace fencelab {

template <typename Key, typename Value> class FlatMap {
  static_assert(std::is_unsigned_v<Key>, "keys are unsigned integers");

public:
  /** The reserved key marking an empty slot; never inserted. */
  static constexpr Key kEmpty = std::numeric_limits<Key>::max();

  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  Value* find(Key key) {
    if (m_slots.empty()) return nullptr;
    for (size_t i = home(key);; i = next(i)) {
      if (m_slots[i].first == key) return &m_slots[i].second;
      if (m_slots[i].first == kEmpty) return nullptr;
    }
  }
  const Value* find(Key key) const { return const_cast<FlatMap*>(this)->find(key); }

  /** The value of `key`, default-constructed if absent. */
  Value& operator[](Key key) {
    if ((m_size + 1) * 4 > m_slots.size() * 3) grow();
    size_t i = home(key);
    for (; m_slots[i].first != kEmpty; i = next(i))
      if (m_slots[i].first == key) return m_slots[i].second;
    m_slots[i].first = key;
    m_slots[i].second = Value{};
    ++m_size;
    return m_slots[i].second;
  }

  /** Starts loading `key`'s home slot into the caches, where a lookup of it will probe first
   *  (a hint: nothing changes). */
  void prefetch(Key key) const {
    if (m_slots.empty()) return;
    const auto* slot = &m_slots[home(key)];
    __builtin_prefetch(slot);
    __builtin_prefetch(reinterpret_cast<const char*>(slot + 1) - 1); // an entry may span two lines
  }

  void erase(Key key) {
    if (m_slots.empty()) return;
    size_t hole = home(key);
    for (; m_slots[hole].first != key; hole = next(hole))
      if (m_slots[hole].first == kEmpty) return;
    // Backward shift: move later entries of the probe run into the hole when their home
    // position does not lie (cyclically) after the hole.
    for (size_t i = next(hole); m_slots[i].first != kEmpty; i = next(i)) {
      const size_t h = home(m_slots[i].first);
      const bool stays = hole < i ? (hole < h && h <= i) : (hole < h || h <= i);
      if (stays) continue;
      m_slots[hole] = std::move(m_slots[i]);
      hole = i;
    }
    m_slots[hole].first = kEmpty;
    m_slots[hole].second = Value{};
    --m_size;
  }

  /** Makes room for `count` entries in all, so that inserting up to that many moves nothing. */
  void reserve(size_t count) {
    while ((count + 1) * 4 > m_slots.size() * 3) grow();
  }

  /** Empties the map, keeping its capacity. */
  void clear() {
    if (m_size == 0) return;
    for (auto& slot : m_slots)
      if (slot.first != kEmpty) {
        slot.first = kEmpty;
        slot.second = Value{};
      }
    m_size = 0;
  }

private:
  size_t home(Key key) const {
    return size_t((uint64_t(key) * 0x9e3779b97f4a7c15ull) >> 32) & (m_slots.size() - 1);
  }
  size_t next(size_t i) const { return (i + 1) & (m_slots.size() - 1); }

  void grow() {
    std::vector<std::pair<Key, Value>> old = std::move(m_slots);
    m_slots.clear();
    m_slots.resize(old.empty() ? 16 : old.size() * 2);
    for (auto& slot : m_slots) slot.first = kEmpty;
    m_size = 0;
    for (auto& slot : old)
      if (slot.first != kEmpty) (*this)[slot.first] = std::move(slot.second);
  }

  std::vector<std::pair<Key, Value>> m_slots;
  size_t m_size = 0;
};

} // namespace fencelab
