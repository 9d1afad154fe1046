#pragma once
// VkInstance and VkPhysicalDevice. Kiln exposes one physical device: the host CPU.
#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "icd/debug_utils.h"
#include "icd/object.h"

namespace kiln {

struct Instance;

struct PhysicalDevice : DispatchableObject {
  Instance* instance = nullptr;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceVulkan11Properties properties11{};
  VkPhysicalDeviceVulkan12Properties properties12{};
  VkPhysicalDeviceVulkan13Properties properties13{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceVulkan11Features features11{};
  VkPhysicalDeviceVulkan12Features features12{};
  VkPhysicalDeviceVulkan13Features features13{};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{};    // VK_EXT_shader_atomic_float
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{};  // VK_EXT_shader_atomic_float2
  uint32_t queue_count = 0;
};

struct Instance : DispatchableObject {
  VkAllocationCallbacks allocator_storage{};
  const VkAllocationCallbacks* allocator = nullptr;  // &allocator_storage, or nullptr
  uint32_t api_version = VK_API_VERSION_1_0;          // what the application asked for
  std::vector<std::string> enabled_extensions;
  PhysicalDevice physical_device;
  // VK_EXT_debug_utils messengers; the DebugReporter of the instance's devices.
  DebugMessengers debug_messengers;
};

// Fills the physical device's properties, features, limits and memory types (physical_device.cpp).
void init_physical_device(PhysicalDevice* device, Instance* instance);

}  // namespace kiln
