#pragma once
// Which format features Kiln supports, derived from the format table and what the driver can do
// today. Grows as sampling, storage and attachments land; a bit is set only when it works.
#include <vulkan/vulkan.h>

namespace kiln {

struct FormatSupport {
  VkFormatFeatureFlags2 linear = 0;
  VkFormatFeatureFlags2 optimal = 0;
  VkFormatFeatureFlags2 buffer = 0;
};

FormatSupport format_support(VkFormat format);

// vkGetPhysicalDeviceImageFormatProperties's answer; VK_ERROR_FORMAT_NOT_SUPPORTED when the
// combination cannot be created.
VkResult image_format_properties(VkFormat format, VkImageType type, VkImageTiling tiling,
                                 VkImageUsageFlags usage, VkImageCreateFlags flags,
                                 VkImageFormatProperties* out);

}  // namespace kiln
