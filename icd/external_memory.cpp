// External objects: Kiln imports host allocations as device memory (VK_EXT_external_memory_host:
// all of Kiln's memory is host memory, so an imported allocation is used in place) and exports
// nothing. The core 1.1 queries say so for buffers, fences and semaphores, and
// vkGetPhysicalDeviceImageFormatProperties2 for images (host allocations only).
#include <vulkan/vulkan.h>

#include "common/log.h"
#include "icd/device.h"
#include "icd/device_limits.h"
#include "icd/external_memory.h"
#include "icd/object.h"
#include "icd/instance.h"

namespace kiln {

bool is_host_pointer_handle(VkExternalMemoryHandleTypeFlagBits type) {
  return type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT ||
         type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT;
}

bool is_importable_host_pointer(VkExternalMemoryHandleTypeFlagBits type, const void* pointer) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(pointer);
  return is_host_pointer_handle(type) && at && at % kMinImportedHostPointerAlignment == 0;
}

uint32_t host_pointer_memory_types(const VkPhysicalDeviceMemoryProperties& memory) {
  uint32_t bits = 0;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) bits |= 1u << i;
  return bits;
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo* pExternalBufferInfo,
    VkExternalBufferProperties* pExternalBufferProperties) {
  VkExternalMemoryProperties& p = pExternalBufferProperties->externalMemoryProperties;
  p = {};
  if (is_host_pointer_handle(pExternalBufferInfo->handleType)) {
    p.externalMemoryFeatures = VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
    p.compatibleHandleTypes = pExternalBufferInfo->handleType;
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo*, VkExternalFenceProperties* pExternalFenceProperties) {
  pExternalFenceProperties->exportFromImportedHandleTypes = 0;
  pExternalFenceProperties->compatibleHandleTypes = 0;
  pExternalFenceProperties->externalFenceFeatures = 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo*,
    VkExternalSemaphoreProperties* pExternalSemaphoreProperties) {
  pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
  pExternalSemaphoreProperties->compatibleHandleTypes = 0;
  pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetMemoryHostPointerPropertiesEXT(
    VkDevice handle, VkExternalMemoryHandleTypeFlagBits handleType, const void* pHostPointer,
    VkMemoryHostPointerPropertiesEXT* pMemoryHostPointerProperties) {
  if (!is_importable_host_pointer(handleType, pHostPointer)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetMemoryHostPointerPropertiesEXT: handle type 0x%x or pointer %p not importable",
                  unsigned(handleType), pHostPointer);
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  pMemoryHostPointerProperties->memoryTypeBits = host_pointer_memory_types(device_of(handle)->physical_device->memory);
  return VK_SUCCESS;
}
