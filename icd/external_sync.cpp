// External fences and semaphores (VK_KHR_external_fence_fd, VK_KHR_external_semaphore_fd): their
// payloads are shared as opaque file descriptors of a memfd page (pipeline/shared_payload.h), so
// a fence or semaphore of another Kiln device, in this process or another, that imports one signals
// and waits on the same payload. SYNC_FD handles are not offered: a sync file needs a kernel
// driver's fence, which a CPU driver has none of.
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "common/log.h"
#include "icd/device.h"
#include "icd/object.h"
#include "kiln_entrypoints.h"
#include "pipeline/sync.h"

using namespace kiln;
using exec::SharedPayload;

namespace {

constexpr VkExternalFenceHandleTypeFlags kFenceHandles = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
constexpr VkExternalSemaphoreHandleTypeFlags kSemaphoreHandles = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;

// Hands the application a new descriptor of `payload` (null: the system refused a shared page).
VkResult export_fd(const std::shared_ptr<SharedPayload>& payload, int* fd) {
  if (!payload) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *fd = payload->export_fd();
  return *fd < 0 ? VK_ERROR_TOO_MANY_OBJECTS : VK_SUCCESS;
}

// The payload an imported descriptor refers to, which then owns it; null (one log line, the
// descriptor left to the application) when it is not a Kiln payload of `kind`.
std::shared_ptr<SharedPayload> adopt(const char* command, int fd, SharedPayload::Kind kind) {
  auto payload = SharedPayload::adopt(fd, kind);
  if (!payload)
    KILN_LOG_ONCE(LogLevel::Error, "%s: fd %d is not a Kiln payload of this kind of object", command, fd);
  return payload;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo* pExternalFenceInfo,
    VkExternalFenceProperties* pExternalFenceProperties) {
  const bool supported = (pExternalFenceInfo->handleType & kFenceHandles) != 0;
  pExternalFenceProperties->exportFromImportedHandleTypes = supported ? kFenceHandles : 0;
  pExternalFenceProperties->compatibleHandleTypes = supported ? kFenceHandles : 0;
  pExternalFenceProperties->externalFenceFeatures =
      supported ? VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT : 0;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo* pExternalSemaphoreInfo,
    VkExternalSemaphoreProperties* pExternalSemaphoreProperties) {
  const bool supported = (pExternalSemaphoreInfo->handleType & kSemaphoreHandles) != 0;
  pExternalSemaphoreProperties->exportFromImportedHandleTypes = supported ? kSemaphoreHandles : 0;
  pExternalSemaphoreProperties->compatibleHandleTypes = supported ? kSemaphoreHandles : 0;
  pExternalSemaphoreProperties->externalSemaphoreFeatures =
      supported ? VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT : 0;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetFenceFdKHR(VkDevice, const VkFenceGetFdInfoKHR* pGetFdInfo, int* pFd) {
  if (!(pGetFdInfo->handleType & kFenceHandles)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetFenceFdKHR: handle type 0x%x is not exportable", unsigned(pGetFdInfo->handleType));
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  return export_fd(from_handle<exec::Fence>(pGetFdInfo->fence)->shared_payload(), pFd);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ImportFenceFdKHR(VkDevice, const VkImportFenceFdInfoKHR* pImportFenceFdInfo) {
  const VkImportFenceFdInfoKHR& info = *pImportFenceFdInfo;
  if (!(info.handleType & kFenceHandles)) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  auto payload = adopt("vkImportFenceFdKHR", info.fd, SharedPayload::Kind::Fence);
  if (!payload) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  from_handle<exec::Fence>(info.fence)->import_payload(std::move(payload), info.flags & VK_FENCE_IMPORT_TEMPORARY_BIT);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetSemaphoreFdKHR(VkDevice, const VkSemaphoreGetFdInfoKHR* pGetFdInfo, int* pFd) {
  if (!(pGetFdInfo->handleType & kSemaphoreHandles)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetSemaphoreFdKHR: handle type 0x%x is not exportable", unsigned(pGetFdInfo->handleType));
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  return export_fd(from_handle<exec::Semaphore>(pGetFdInfo->semaphore)->shared_payload(), pFd);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_ImportSemaphoreFdKHR(VkDevice, const VkImportSemaphoreFdInfoKHR* pImportSemaphoreFdInfo) {
  const VkImportSemaphoreFdInfoKHR& info = *pImportSemaphoreFdInfo;
  if (!(info.handleType & kSemaphoreHandles)) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  auto* semaphore = from_handle<exec::Semaphore>(info.semaphore);
  auto payload = adopt("vkImportSemaphoreFdKHR", info.fd, semaphore->payload_kind());
  if (!payload) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  semaphore->import_payload(std::move(payload), info.flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT);
  return VK_SUCCESS;
}
