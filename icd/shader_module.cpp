// VkShaderModule, and the conversion of a pipeline's shader stage into the compiler's input.
#include "icd/shader_module.h"

#include "common/log.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderWords = 5;

const char* code_defect(size_t code_size, const uint32_t* code) {
  if (code_size % 4 != 0) return "codeSize is not a multiple of 4";
  if (code_size / 4 < kSpirvHeaderWords) return "code is shorter than a SPIR-V header";
  if (code[0] != kSpirvMagic && code[0] != __builtin_bswap32(kSpirvMagic)) return "code does not start with the SPIR-V magic number";
  return nullptr;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateShaderModule(VkDevice handle, const VkShaderModuleCreateInfo* pCreateInfo,
                                                                  const VkAllocationCallbacks* pAllocator,
                                                                  VkShaderModule* pShaderModule) {
  Device* device = device_of(handle);
  auto* module = create_object<ShaderModule>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!module) return VK_ERROR_OUT_OF_HOST_MEMORY;
  // Creation succeeds and pipelines built from the module fail (with VK_ERROR_UNKNOWN, core;
  // VK_ERROR_INVALID_SHADER_NV is an extension's), each with one error line naming the defect
  // (docs/reliability.md): so this is only an info line, not a second report of one problem.
  module->defect = code_defect(pCreateInfo->codeSize, pCreateInfo->pCode);
  if (module->defect) KILN_LOG_ONCE(LogLevel::Info, "vkCreateShaderModule: %s; pipelines using it will fail", module->defect);
  module->words.assign(pCreateInfo->pCode, pCreateInfo->pCode + pCreateInfo->codeSize / 4);
  *pShaderModule = to_handle<VkShaderModule>(module);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyShaderModule(VkDevice handle, VkShaderModule shaderModule,
                                                               const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), shader_module_of(shaderModule));
}

namespace kiln {

std::optional<ShaderStage> compiler_stage_of(VkShaderStageFlagBits stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return ShaderStage::Vertex;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return ShaderStage::TessellationControl;
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return ShaderStage::TessellationEvaluation;
    case VK_SHADER_STAGE_GEOMETRY_BIT: return ShaderStage::Geometry;
    case VK_SHADER_STAGE_FRAGMENT_BIT: return ShaderStage::Fragment;
    case VK_SHADER_STAGE_COMPUTE_BIT: return ShaderStage::Compute;
    case VK_SHADER_STAGE_TASK_BIT_EXT: return ShaderStage::Task;
    case VK_SHADER_STAGE_MESH_BIT_EXT: return ShaderStage::Mesh;
    default: return std::nullopt;
  }
}

compiler::SpecializationInput specialization_of(const VkSpecializationInfo* info) {
  compiler::SpecializationInput spec;
  if (!info) return spec;
  const auto* data = static_cast<const uint8_t*>(info->pData);
  for (uint32_t i = 0; i < info->mapEntryCount; ++i) {
    const VkSpecializationMapEntry& entry = info->pMapEntries[i];
    const bool inside = entry.offset <= info->dataSize && entry.size <= info->dataSize - entry.offset;
    if (!inside || !spec.set(entry.constantID, data + entry.offset, entry.size))
      KILN_LOG_ONCE(LogLevel::Warn, "VkSpecializationInfo: ignoring constant %u (offset %u, size %zu, dataSize %zu)",
                    entry.constantID, entry.offset, entry.size, info->dataSize);
  }
  return spec;
}

const char* shader_source_of(const VkPipelineShaderStageCreateInfo& stage, compiler::ShaderSource* source) {
  if (const ShaderModule* module = shader_module_of(stage.module)) {
    if (module->defect) return module->defect;
    source->words = module->words;
  } else if (const auto* code = find_in_chain<VkShaderModuleCreateInfo>(stage.pNext)) {
    // VK_EXT_graphics_pipeline_library lets the stage carry its code instead of a module.
    if (const char* defect = code_defect(code->codeSize, code->pCode)) return defect;
    source->words = {code->pCode, code->codeSize / 4};
  } else {
    return "a shader stage with neither a module nor a chained VkShaderModuleCreateInfo";
  }
  const std::optional<ShaderStage> compiler_stage = compiler_stage_of(stage.stage);
  if (!compiler_stage) return "Kiln does not compile shaders for this stage";
  source->entry_point = stage.pName;
  source->stage = *compiler_stage;
  source->specialization = specialization_of(stage.pSpecializationInfo);
  return nullptr;
}

}  // namespace kiln
