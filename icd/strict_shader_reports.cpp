#include "icd/strict_shader_reports.h"

#include "icd/device.h"
#include "icd/struct_chain.h"

namespace kiln {
namespace {

bool robust(VkPipelineRobustnessBufferBehaviorEXT behaviour, bool device_default) {
  switch (behaviour) {
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT: return device_default;
    case VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT: return false;
    default: return true;  // ROBUST_BUFFER_ACCESS(_2)
  }
}

// Whether storage or uniform buffers are robust under `info` (none: `inherited`).
bool robust_buffers(const VkPipelineRobustnessCreateInfoEXT* info, bool device_default, bool inherited) {
  if (!info) return inherited;
  return robust(info->storageBuffers, device_default) || robust(info->uniformBuffers, device_default);
}

}  // namespace

bool reports_out_of_bounds(const Device& device, const void* pipeline_next,
                           std::span<const VkPipelineShaderStageCreateInfo> stages) {
  if (!device.strict) return false;
  const bool device_default = device.robust_buffer_access;
  const bool pipeline = robust_buffers(find_in_chain<VkPipelineRobustnessCreateInfoEXT>(pipeline_next), device_default,
                                       device_default);
  bool any_robust = pipeline;
  for (const VkPipelineShaderStageCreateInfo& stage : stages)
    any_robust |= robust_buffers(find_in_chain<VkPipelineRobustnessCreateInfoEXT>(stage.pNext), device_default, pipeline);
  return !any_robust;
}

}  // namespace kiln
