#pragma once
// VkShaderModule: a copy of the application's SPIR-V words. Nothing is checked beyond the
// container (size, magic number) at creation; validation happens when a pipeline compiles it
// (compiler/spirv_front.h), which is also where a malformed module makes creation fail.
#include <vulkan/vulkan.h>

#include <optional>
#include <vector>

#include "compiler/shader_source.h"
#include "icd/object.h"

namespace kiln {

struct ShaderModule {
  std::vector<uint32_t> words;
  // Why pCode cannot be a SPIR-V module (size not a multiple of 4, too short, wrong magic
  // number), or nullptr. Pipeline creation fails on a module with a defect.
  const char* defect = nullptr;
};

inline ShaderModule* shader_module_of(VkShaderModule handle) { return from_handle<ShaderModule>(handle); }

// The compiler's stage for a Vulkan stage bit; nullopt for stages Kiln does not compile
// (ray tracing, subpass shading, ...).
std::optional<ShaderStage> compiler_stage_of(VkShaderStageFlagBits stage);

// The specialization values in `info` (may be null). Map entries outside pData or with a size
// other than 1, 2, 4 or 8 bytes are invalid usage; they are skipped and logged.
compiler::SpecializationInput specialization_of(const VkSpecializationInfo* info);

// Fills `source` with the compiler's description of `stage` (module words, entry point, stage,
// specialization). Returns nullptr on success, else why the stage cannot be compiled: the
// module has a defect or the stage is one Kiln does not compile. `source->words` points into
// the ShaderModule (or the chained VkShaderModuleCreateInfo's code), which must outlive it.
const char* shader_source_of(const VkPipelineShaderStageCreateInfo& stage, compiler::ShaderSource* source);

}  // namespace kiln
