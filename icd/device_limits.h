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
// Memory types, all host RAM in the one heap, in the order the spec requires (a type whose flags
// are a strict subset of another's comes first). The lazily allocated type is ordinary memory
// (committed in full when allocated); only transient attachment images may use it.
constexpr uint32_t kDeviceLocalMemoryType = 0;
constexpr uint32_t kHostVisibleMemoryType = 1;  // also coherent and cached
constexpr uint32_t kLazilyAllocatedMemoryType = 2;
constexpr uint32_t kMemoryTypeCount = 3;
constexpr uint32_t kResourceMemoryTypes = (1u << kDeviceLocalMemoryType) | (1u << kHostVisibleMemoryType);
constexpr uint32_t kTransientImageMemoryTypes = kResourceMemoryTypes | (1u << kLazilyAllocatedMemoryType);
// VkPhysicalDeviceMultiDrawPropertiesEXT::maxMultiDrawCount (each entry becomes one draw command).
constexpr uint32_t kMaxMultiDrawCount = 2048;

}  // namespace kiln
