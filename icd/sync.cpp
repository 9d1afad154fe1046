// Fences, semaphores and events: the API side (objects live in pipeline/sync.h).
#include <vector>

#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;
using exec::Event;
using exec::Fence;
using exec::Semaphore;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateFence(VkDevice handle, const VkFenceCreateInfo* pCreateInfo,
                                                           const VkAllocationCallbacks* pAllocator, VkFence* pFence) {
  Device* device = device_of(handle);
  auto* fence = create_object<Fence>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                     device->sync_hub, (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
  if (!fence) return VK_ERROR_OUT_OF_HOST_MEMORY;
  // An exportable fence shares its payload from the start (icd/external_sync.cpp).
  const auto* exported = find_in_chain<VkExportFenceCreateInfo>(pCreateInfo->pNext);
  if (exported && exported->handleTypes && !fence->shared_payload()) {
    destroy_object(choose_allocator(pAllocator, device->allocator), fence);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pFence = to_handle<VkFence>(fence);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyFence(VkDevice handle, VkFence fence, const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<Fence>(fence));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ResetFences(VkDevice, uint32_t count, const VkFence* pFences) {
  for (uint32_t i = 0; i < count; ++i) from_handle<Fence>(pFences[i])->reset();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetFenceStatus(VkDevice, VkFence fence) {
  return from_handle<Fence>(fence)->status();
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_WaitForFences(VkDevice handle, uint32_t count, const VkFence* pFences,
                                                             VkBool32 waitAll, uint64_t timeout) {
  std::vector<Fence*> fences;
  for (uint32_t i = 0; i < count; ++i) fences.push_back(from_handle<Fence>(pFences[i]));
  return exec::wait_for_fences(device_of(handle)->sync_hub, fences, waitAll, exec::deadline_after(timeout));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateSemaphore(VkDevice handle, const VkSemaphoreCreateInfo* pCreateInfo,
                                                               const VkAllocationCallbacks* pAllocator, VkSemaphore* pSemaphore) {
  Device* device = device_of(handle);
  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
  uint64_t initial = 0;
  if (auto* t = find_in_chain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext)) {
    type = t->semaphoreType;
    initial = type == VK_SEMAPHORE_TYPE_TIMELINE ? t->initialValue : 0;
  }
  auto* semaphore = create_object<Semaphore>(choose_allocator(pAllocator, device->allocator),
                                             VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device->sync_hub, type, initial);
  if (!semaphore) return VK_ERROR_OUT_OF_HOST_MEMORY;
  const auto* exported = find_in_chain<VkExportSemaphoreCreateInfo>(pCreateInfo->pNext);
  if (exported && exported->handleTypes && !semaphore->shared_payload()) {
    destroy_object(choose_allocator(pAllocator, device->allocator), semaphore);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pSemaphore = to_handle<VkSemaphore>(semaphore);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroySemaphore(VkDevice handle, VkSemaphore semaphore,
                                                            const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<Semaphore>(semaphore));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetSemaphoreCounterValue(VkDevice handle, VkSemaphore semaphore,
                                                                      uint64_t* pValue) {
  *pValue = from_handle<Semaphore>(semaphore)->value();
  return device_of(handle)->lost() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_SignalSemaphore(VkDevice, const VkSemaphoreSignalInfo* pSignalInfo) {
  from_handle<Semaphore>(pSignalInfo->semaphore)->signal(pSignalInfo->value);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_WaitSemaphores(VkDevice handle, const VkSemaphoreWaitInfo* pWaitInfo,
                                                              uint64_t timeout) {
  std::vector<Semaphore*> semaphores;
  for (uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i) semaphores.push_back(from_handle<Semaphore>(pWaitInfo->pSemaphores[i]));
  return exec::wait_for_semaphores(device_of(handle)->sync_hub, semaphores,
                                   {pWaitInfo->pValues, pWaitInfo->semaphoreCount},
                                   (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0, exec::deadline_after(timeout));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateEvent(VkDevice handle, const VkEventCreateInfo*,
                                                           const VkAllocationCallbacks* pAllocator, VkEvent* pEvent) {
  Device* device = device_of(handle);
  auto* event = create_object<Event>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                     device->sync_hub);
  if (!event) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pEvent = to_handle<VkEvent>(event);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyEvent(VkDevice handle, VkEvent event, const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<Event>(event));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetEventStatus(VkDevice handle, VkEvent event) {
  if (device_of(handle)->lost()) return VK_ERROR_DEVICE_LOST;
  return from_handle<Event>(event)->is_set() ? VK_EVENT_SET : VK_EVENT_RESET;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_SetEvent(VkDevice, VkEvent event) {
  from_handle<Event>(event)->set();
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ResetEvent(VkDevice, VkEvent event) {
  from_handle<Event>(event)->reset();
  return VK_SUCCESS;
}
