#include "icd/strict_shader_reports.h"

#include "common/abi/kernel_abi.h"
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

bool robust(VkPipelineRobustnessImageBehaviorEXT behaviour, bool device_default) {
  switch (behaviour) {
    case VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT: return device_default;
    case VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DISABLED_EXT: return false;
    default: return true;  // ROBUST_IMAGE_ACCESS(_2)
  }
}

// Whether accesses of one kind are robust anywhere in the pipeline: `robust_under(info, inherited)`
// answers for one VkPipelineRobustnessCreateInfoEXT (null: `inherited`); a stage's overrides the
// pipeline's. Any robust stage counts: reporting a stage's defined behaviour would be a false report.
template <typename RobustUnder>
bool robust_anywhere(const void* pipeline_next, std::span<const VkPipelineShaderStageCreateInfo> stages,
                     bool device_default, RobustUnder robust_under) {
  const bool pipeline = robust_under(find_in_chain<VkPipelineRobustnessCreateInfoEXT>(pipeline_next), device_default);
  bool any = pipeline;
  for (const VkPipelineShaderStageCreateInfo& stage : stages)
    any |= robust_under(find_in_chain<VkPipelineRobustnessCreateInfoEXT>(stage.pNext), pipeline);
  return any;
}

}  // namespace

uint32_t strict_shader_reports(const Device& device, const void* pipeline_next,
                               std::span<const VkPipelineShaderStageCreateInfo> stages) {
  if (!device.strict) return 0;
  const auto buffers_under = [&](const VkPipelineRobustnessCreateInfoEXT* info, bool inherited) {
    if (!info) return inherited;
    return robust(info->storageBuffers, device.robust_buffer_access) ||
           robust(info->uniformBuffers, device.robust_buffer_access);
  };
  const auto images_under = [&](const VkPipelineRobustnessCreateInfoEXT* info, bool inherited) {
    return info ? robust(info->images, device.robust_image_access) : inherited;
  };
  uint32_t reports = abi::kShaderFaultPoisonRead;
  if (!robust_anywhere(pipeline_next, stages, device.robust_buffer_access, buffers_under))
    reports |= abi::kShaderFaultBufferBounds;
  if (!robust_anywhere(pipeline_next, stages, device.robust_image_access, images_under))
    reports |= abi::kShaderFaultImageBounds;
  return reports;
}

}  // namespace kiln
