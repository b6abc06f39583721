// Where each memory object lives: global and constant objects have one instance each; a
// shared object has one instance per resident-block slot (reinitialised when a new block
// takes the slot: shared memory does not outlive its block, Programming Guide 5.3.2).
#pragma once

#include "fencelab/machine/location.h"
#include "fencelab/program/program.h"

#include <string>
#include <vector>

namespace fencelab {

class MemoryLayout {
public:
  explicit MemoryLayout(const Program& program);

  /** The instance an access to `object_id` by a thread of `block_slot` touches. */
  uint32_t instance_of(uint32_t object_id, uint32_t block_slot) const {
    const uint32_t shared = m_shared_ordinal[object_id];
    if (shared == kNotShared) return object_id;
    return m_object_count + block_slot * m_shared_count + shared;
  }

  uint32_t object_count() const { return m_object_count; }
  const std::vector<uint32_t>& shared_objects() const { return m_shared_objects; }
  /** Initial canonical contents of an object (zeros when it has no initializer). */
  const std::vector<Word>& initial_contents(uint32_t object_id) const { return m_initial[object_id]; }

  /** "X", "result[3]", "shared_data[17]" for a location; shared ones name no block. */
  std::string describe(Location location) const;
  /** "X=10": a location and a canonical word of its element type. */
  std::string describe_value(Location location, Word value) const;
  /** The element type stored at a location. */
  const Type& element_type(Location location) const {
    return m_program.memory_objects[object_of_instance(location.instance)].element_type;
  }
  /** The object an instance belongs to. */
  uint32_t object_of_instance(uint32_t instance) const;

private:
  static constexpr uint32_t kNotShared = ~0u;
  const Program& m_program;
  uint32_t m_object_count = 0;
  uint32_t m_shared_count = 0;
  std::vector<uint32_t> m_shared_ordinal; ///< per object: its index among shared objects
  std::vector<uint32_t> m_shared_objects; ///< shared object ids in ordinal order
  std::vector<std::vector<Word>> m_initial;
};

} // namespace fencelab
