#pragma once
// External memory: host allocations imported as device memory (icd/external_memory.cpp).
#include <vulkan/vulkan.h>

#include <cstdint>

namespace kiln {

// Imported host pointers and allocation sizes are multiples of a page
// (VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment).
constexpr VkDeviceSize kMinImportedHostPointerAlignment = 4096;

// Whether `type` is one of VK_EXT_external_memory_host's handle types.
bool is_host_pointer_handle(VkExternalMemoryHandleTypeFlagBits type);

// Whether `pointer` can be imported as a host allocation of handle type `type`: one of the host
// handle types, and a non-null pointer aligned to kMinImportedHostPointerAlignment.
bool is_importable_host_pointer(VkExternalMemoryHandleTypeFlagBits type, const void* pointer);

// The memory types an imported host allocation may have: every host-visible one.
uint32_t host_pointer_memory_types(const VkPhysicalDeviceMemoryProperties& memory);

}  // namespace kiln
