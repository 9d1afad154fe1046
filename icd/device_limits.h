#pragma once
// Kiln's VkPhysicalDeviceLimits: one definition used by the property queries and by every
// parameter check that protects the driver.
#include <vulkan/vulkan.h>

namespace kiln {

const VkPhysicalDeviceLimits& device_limits();

// Largest single image or buffer Kiln creates (also VkPhysicalDeviceMaintenance4Properties::maxBufferSize).
constexpr VkDeviceSize kMaxResourceSize = VkDeviceSize{1} << 32;
// Alignment of every allocation and resource offset: one cache line.
constexpr VkDeviceSize kResourceAlignment = 64;

}  // namespace kiln
