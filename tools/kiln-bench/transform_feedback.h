#pragma once
// VK_EXT_transform_feedback for kiln-bench: whether the device can capture what a scenario writes,
// and the extension's commands (the loader exports no extension entry points, so they are looked
// up on the device). The device has the extension enabled when it offers it (VulkanContext).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>

#include "tools/common/vulkan_context.h"

namespace kiln::bench {

// Why this device cannot capture `bytes` into one transform feedback buffer, `stride` bytes a
// vertex, or nullopt.
std::optional<std::string> missing_transform_feedback_support(const tools::VulkanContext& context,
                                                              VkDeviceSize bytes, uint32_t stride);

// The extension's commands this harness uses; the device must have the extension enabled.
struct TransformFeedbackCommands {
  explicit TransformFeedbackCommands(const tools::VulkanContext& context);

  PFN_vkCmdBindTransformFeedbackBuffersEXT bind_buffers = nullptr;
  PFN_vkCmdBeginTransformFeedbackEXT begin = nullptr;
  PFN_vkCmdEndTransformFeedbackEXT end = nullptr;
};

}  // namespace kiln::bench
