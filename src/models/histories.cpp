#include "histories.h"

namespace fencelab {

void Histories::InstanceStores::empty() {
  for (LocationStores& stores : by_index) stores.clear();
  for (auto& [index, stores] : written) stores.clear();
}

const Histories::LocationStores* Histories::InstanceStores::find(uint32_t index) const {
  if (dense) return index < by_index.size() ? &by_index[index] : nullptr;
  const auto it = written.find(index);
  return it == written.end() ? nullptr : &it->second;
}

void Histories::clear() {
  for (auto& instance : m_initial) instance.clear();
  for (auto& instance : m_stores) instance.empty();
}

void Histories::init_instance(uint32_t instance, std::span<const Word> initial) {
  if (instance >= m_initial.size()) {
    m_initial.resize(instance + 1);
    m_stores.resize(instance + 1);
  }
  m_initial[instance].assign(initial.begin(), initial.end());
  // A block's shared memory starts afresh when a new block takes the slot.
  InstanceStores& stores = m_stores[instance];
  stores.empty();
  stores.dense = initial.size() <= kDenseElements;
  if (stores.dense) stores.by_index.resize(initial.size());
}

HistoryEntry Histories::entry(Location location, uint32_t index) const {
  if (index == 0) return HistoryEntry{m_initial[location.instance][location.index], 0, ThreadId{}, true};
  const LocationStores& stores = *find(location);
  return index == stores.count ? stores.newest() : stores.older[index - 1];
}

uint32_t Histories::append(Location location, Word value, uint64_t id, ThreadId writer, uint32_t commuting_kind) {
  LocationStores& stores = m_stores[location.instance].at(location.index);
  if (stores.count > 0) stores.older.push_back(stores.newest());
  stores.newest_value = value;
  stores.newest_id = id;
  stores.newest_writer = writer;
  stores.newest_commuting_kind = commuting_kind;
  return ++stores.count;
}

} // namespace fencelab
