#pragma once
// The instance and device extensions Kiln implements. An extension is listed here only when
// all of it works and is tested (ARCHITECTURE.md: feature bits and extensions are truthful).
#include <vulkan/vulkan.h>

#include <span>

namespace kiln {

std::span<const VkExtensionProperties> supported_instance_extensions();
std::span<const VkExtensionProperties> supported_device_extensions();

bool is_supported_extension(std::span<const VkExtensionProperties> list, const char* name);

// Fills a Vulkan "two-call" enumeration result from `list`.
VkResult enumerate_extensions(std::span<const VkExtensionProperties> list, uint32_t* count,
                              VkExtensionProperties* out);

}  // namespace kiln
