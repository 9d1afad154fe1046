#pragma once
// Kiln's VkPhysicalDeviceLimits: one definition used by the property queries and by every
// parameter check that protects the driver.
#include <vulkan/vulkan.h>

namespace kiln {

const VkPhysicalDeviceLimits& device_limits();

// Largest single image or buffer Kiln creates (also VkPhysicalDeviceMaintenance4Properties::maxBufferSize).
constexpr VkDeviceSize kMaxResourceSize = VkDeviceSize{1} << 32;
// Sample counts of multisampled images, attachments and rasterization (the limits' *SampleCounts).
constexpr VkSampleCountFlags kSupportedSampleCounts =
    VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT;
// Alignment of every allocation and resource offset: one cache line.
constexpr VkDeviceSize kResourceAlignment = 64;
// VkPhysicalDeviceMultiDrawPropertiesEXT::maxMultiDrawCount (each entry becomes one draw command).
constexpr uint32_t kMaxMultiDrawCount = 2048;

}  // namespace kiln
