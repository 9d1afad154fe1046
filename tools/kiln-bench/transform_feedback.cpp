#include "tools/kiln-bench/transform_feedback.h"

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

using tools::VulkanContext;

std::optional<std::string> missing_transform_feedback_support(const VulkanContext& context, VkDeviceSize bytes,
                                                              uint32_t stride) {
  if (!context.transform_feedback_enabled()) return "the device lacks VK_EXT_transform_feedback";
  VkPhysicalDeviceTransformFeedbackPropertiesEXT limits{};
  limits.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &limits;
  vkGetPhysicalDeviceProperties2(context.physical_device(), &properties);
  if (limits.maxTransformFeedbackBuffers < 1) return "maxTransformFeedbackBuffers is 0";
  if (bytes > limits.maxTransformFeedbackBufferSize) {
    return std::to_string(bytes) + " bytes exceed maxTransformFeedbackBufferSize " +
           std::to_string(limits.maxTransformFeedbackBufferSize);
  }
  // A vertex's captured data fills its whole stride here, so stride bounds both data sizes too.
  if (stride > limits.maxTransformFeedbackBufferDataStride || stride > limits.maxTransformFeedbackBufferDataSize ||
      stride > limits.maxTransformFeedbackStreamDataSize) {
    return "a stride of " + std::to_string(stride) +
           " bytes exceeds maxTransformFeedbackBufferDataStride, -BufferDataSize or -StreamDataSize";
  }
  return std::nullopt;
}

TransformFeedbackCommands::TransformFeedbackCommands(const VulkanContext& context)
    : bind_buffers(device_command<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
          context, "vkCmdBindTransformFeedbackBuffersEXT")),
      begin(device_command<PFN_vkCmdBeginTransformFeedbackEXT>(context, "vkCmdBeginTransformFeedbackEXT")),
      end(device_command<PFN_vkCmdEndTransformFeedbackEXT>(context, "vkCmdEndTransformFeedbackEXT")) {}

}  // namespace kiln::bench
