// The memory models by name (kModelNames in program.h lists the names directives may use).
#include "fencelab/machine/memory_model.h"
#include "gpu_model.h"
#include "sc_model.h"
#include "tso_model.h"

namespace fencelab {

bool model_is_implemented(std::string_view name) { return name == "sc" || name == "tso" || name == "gpu"; }

std::unique_ptr<MemoryModel> create_model(std::string_view name) {
  if (name == "sc") return std::make_unique<ScModel>();
  if (name == "tso") return std::make_unique<TsoModel>();
  if (name == "gpu") return std::make_unique<GpuModel>();
  return nullptr;
}

} // namespace fencelab
