// The memory models by name (kModelNames in program.h lists the names directives may use).
#include "fencelab/machine/memory_model.h"
#include "sc_model.h"

namespace fencelab {

bool model_is_implemented(std::string_view name) { return name == "sc"; }

std::unique_ptr<MemoryModel> create_model(std::string_view name) {
  if (name == "sc") return std::make_unique<ScModel>();
  return nullptr;
}

} // namespace fencelab
