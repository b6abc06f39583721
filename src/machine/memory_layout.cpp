#include "memory_layout.h"

#include <fmt/format.h>

namespace fencelab {

MemoryLayout::MemoryLayout(const Program& program) : m_program(program) {
  m_object_count = static_cast<uint32_t>(program.memory_objects.size());
  m_shared_ordinal.assign(m_object_count, kNotShared);
  m_initial.resize(m_object_count);
  for (uint32_t id = 0; id < m_object_count; ++id) {
    const MemoryObject& object = program.memory_objects[id];
    if (object.space == MemorySpace::Shared) {
      m_shared_ordinal[id] = m_shared_count++;
      m_shared_objects.push_back(id);
    }
    std::vector<Word>& initial = m_initial[id];
    initial.assign(object.element_count, 0);
    for (size_t i = 0; i < object.initial_values.size() && i < initial.size(); ++i)
      initial[i] = object.initial_values[i];
  }
}

uint32_t MemoryLayout::object_of_instance(uint32_t instance) const {
  if (instance < m_object_count) return instance;
  return m_shared_objects[(instance - m_object_count) % m_shared_count];
}

std::string MemoryLayout::describe(Location location) const {
  const MemoryObject& object = m_program.memory_objects[object_of_instance(location.instance)];
  if (!object.is_array) return object.name;
  return fmt::format("{}[{}]", object.name, location.index);
}

std::string MemoryLayout::describe_value(Location location, Word value) const {
  const MemoryObject& object = m_program.memory_objects[object_of_instance(location.instance)];
  return describe(location) + "=" + format_word(value, object.element_type);
}

} // namespace fencelab
