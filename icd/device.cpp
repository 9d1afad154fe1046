// vkCreateDevice (extension and feature checks), queues, and device-wide waits.
#include "icd/device.h"

#include <algorithm>
#include <cstring>

#include "common/env.h"
#include "common/log.h"
#include "icd/extensions.h"
#include "icd/private_data.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

namespace kiln {

bool Device::extension_enabled(const char* name) const {
  for (const std::string& e : enabled_extensions)
    if (e == name) return true;
  for (const std::string& e : physical_device->instance->enabled_extensions)
    if (e == name) return true;
  return false;
}

namespace {

// True when every VkBool32 that `requested` sets is also set in `supported` (same layout).
bool bools_subset(const void* requested, const void* supported, size_t offset, size_t size) {
  const auto* r = reinterpret_cast<const VkBool32*>(static_cast<const char*>(requested) + offset);
  const auto* s = reinterpret_cast<const VkBool32*>(static_cast<const char*>(supported) + offset);
  for (size_t i = 0; i < (size - offset) / sizeof(VkBool32); ++i)
    if (r[i] && !s[i]) return false;
  return true;
}

// VK_ERROR_FEATURE_NOT_PRESENT when the application asks for any feature Kiln reports FALSE.
// Works for every feature struct: Kiln's answer for the same struct type is compared bit by bit.
// robustBufferAccess (in pEnabledFeatures or VkPhysicalDeviceFeatures2) or robustBufferAccess2.
bool robust_buffer_access_enabled(const VkDeviceCreateInfo& info) {
  if (info.pEnabledFeatures && info.pEnabledFeatures->robustBufferAccess) return true;
  if (auto* f = find_in_chain<VkPhysicalDeviceFeatures2>(info.pNext); f && f->features.robustBufferAccess) return true;
  auto* r2 = find_in_chain<VkPhysicalDeviceRobustness2FeaturesEXT>(info.pNext);
  return r2 && r2->robustBufferAccess2;
}

// robustImageAccess (Vulkan 1.3 or VK_EXT_image_robustness) or robustImageAccess2.
bool robust_image_access_enabled(const VkDeviceCreateInfo& info) {
  if (auto* f = find_in_chain<VkPhysicalDeviceVulkan13Features>(info.pNext); f && f->robustImageAccess) return true;
  if (auto* f = find_in_chain<VkPhysicalDeviceImageRobustnessFeatures>(info.pNext); f && f->robustImageAccess) return true;
  auto* r2 = find_in_chain<VkPhysicalDeviceRobustness2FeaturesEXT>(info.pNext);
  return r2 && r2->robustImageAccess2;
}

VkResult check_requested_features(VkPhysicalDevice pd, const VkDeviceCreateInfo* info) {
  VkPhysicalDeviceFeatures supported_core{};
  kiln_GetPhysicalDeviceFeatures(pd, &supported_core);
  if (info->pEnabledFeatures && !bools_subset(info->pEnabledFeatures, &supported_core, 0, sizeof supported_core))
    return VK_ERROR_FEATURE_NOT_PRESENT;
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
      auto* f2 = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s);
      if (!bools_subset(&f2->features, &supported_core, 0, sizeof supported_core)) return VK_ERROR_FEATURE_NOT_PRESENT;
      continue;
    }
    const size_t size = feature_struct_size(s->sType);
    if (!size) continue;
    alignas(8) unsigned char supported[1024] = {};
    if (size > sizeof supported) continue;
    auto* probe = reinterpret_cast<VkBaseOutStructure*>(supported);
    probe->sType = s->sType;
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, probe, {}};
    kiln_GetPhysicalDeviceFeatures2(pd, &query);
    if (!bools_subset(s, supported, sizeof(VkBaseOutStructure), size)) {
      log(LogLevel::Info, "vkCreateDevice: an unsupported feature is requested in structure type %d", s->sType);
      return VK_ERROR_FEATURE_NOT_PRESENT;
    }
  }
  return VK_SUCCESS;
}

}  // namespace
}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateDevice(VkPhysicalDevice physicalDevice,
                                                            const VkDeviceCreateInfo* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  PhysicalDevice* pd = from_handle<PhysicalDevice>(physicalDevice);
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    const char* name = pCreateInfo->ppEnabledExtensionNames[i];
    if (!is_supported_extension(supported_device_extensions(), name)) {
      log(LogLevel::Info, "vkCreateDevice: extension %s is not supported", name);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
  }
  if (VkResult r = check_requested_features(physicalDevice, pCreateInfo); r != VK_SUCCESS) {
    log(LogLevel::Info, "vkCreateDevice: a requested feature is not supported");
    return r;
  }
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
    if (q.queueFamilyIndex != 0 || q.queueCount == 0 || q.queueCount > pd->queue_count || q.flags != 0) {
      log(LogLevel::Error, "vkCreateDevice: queue family %u x%u (flags 0x%x) does not exist", q.queueFamilyIndex,
          q.queueCount, q.flags);
      return VK_ERROR_INITIALIZATION_FAILED;
    }
  }

  const VkAllocationCallbacks* allocator = choose_allocator(pAllocator, pd->instance->allocator);
  Device* device = create_object<Device>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
  if (!device) return VK_ERROR_OUT_OF_HOST_MEMORY;
  device->physical_device = pd;
  device->reporter = &pd->instance->debug_messengers;
  if (allocator) {
    device->allocator_storage = *allocator;
    device->allocator = &device->allocator_storage;
  }
  device->api_version = std::min<uint32_t>(pd->instance->api_version, pd->properties.apiVersion);
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i)
    device->enabled_extensions.emplace_back(pCreateInfo->ppEnabledExtensionNames[i]);
  device->robust_buffer_access = robust_buffer_access_enabled(*pCreateInfo);
  device->robust_image_access = robust_image_access_enabled(*pCreateInfo);
  if (strict_mode_requested()) {
    device->strict = std::make_unique<exec::strict::StrictMode>(device->sync_hub, device->reporter);
  }
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
    for (uint32_t n = 0; n < q.queueCount; ++n) {
      Queue* queue = create_object<Queue>(device->allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, device,
                                          q.queueFamilyIndex, n, q.flags, device->sync_hub, device->worker_pool,
                                          device->strict.get(), uint32_t(device->queues.size()));
      if (!queue) {
        kiln_DestroyDevice(to_handle<VkDevice>(device), pAllocator);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      device->queues.push_back(queue);
      device->watchdog.watch(&queue->engine.progress());
    }
  }
  if (auto* reservation = find_in_chain<VkDevicePrivateDataCreateInfo>(pCreateInfo->pNext))
    reserve_private_data(reservation->privateDataSlotRequestCount);
  *pDevice = to_handle<VkDevice>(device);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDevice(VkDevice handle, const VkAllocationCallbacks* pAllocator) {
  Device* device = device_of(handle);
  if (!device) return;
  // Queued work finishes first (work that is stuck ends in a device loss after the watchdog's
  // timeout); anything blocked on a wait that can no longer be satisfied is released by the
  // shutdown flag rather than hanging the application.
  for (Queue* q : device->queues) q->engine.wait_idle();
  {
    std::lock_guard lock(device->sync_hub.mutex);
    device->sync_hub.shutting_down = true;
    device->sync_hub.changed.notify_all();
  }
  device->watchdog.stop();  // before the queues it watches go
  for (Queue* q : device->queues) destroy_object(device->allocator, q);
  // The device's callbacks live inside the device: copy them out before it is destroyed.
  VkAllocationCallbacks callbacks{};
  const VkAllocationCallbacks* allocator = choose_allocator(pAllocator, device->allocator);
  if (allocator) callbacks = *allocator;
  destroy_object(allocator ? &callbacks : nullptr, device);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceQueue(VkDevice handle, uint32_t family, uint32_t index, VkQueue* pQueue) {
  Device* device = device_of(handle);
  *pQueue = VK_NULL_HANDLE;
  for (Queue* q : device->queues)
    if (q->family_index == family && q->queue_index == index && q->create_flags == 0) *pQueue = to_handle<VkQueue>(q);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceQueue2(VkDevice handle, const VkDeviceQueueInfo2* pQueueInfo, VkQueue* pQueue) {
  Device* device = device_of(handle);
  *pQueue = VK_NULL_HANDLE;
  for (Queue* q : device->queues)
    if (q->family_index == pQueueInfo->queueFamilyIndex && q->queue_index == pQueueInfo->queueIndex &&
        q->create_flags == pQueueInfo->flags)
      *pQueue = to_handle<VkQueue>(q);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_DeviceWaitIdle(VkDevice handle) {
  VkResult result = VK_SUCCESS;
  for (Queue* q : device_of(handle)->queues)
    if (q->engine.wait_idle() != VK_SUCCESS) result = VK_ERROR_DEVICE_LOST;
  return result;
}
