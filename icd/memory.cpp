// Device memory: allocation against the heap budget, mapping, and binding buffers and images.
#include <cstdlib>
#include <cstring>

#include "common/log.h"
#include "icd/device.h"
#include "icd/device_limits.h"
#include "icd/external_memory.h"
#include "icd/struct_chain.h"
#include "icd/wsi_objects.h"
#include "kiln_entrypoints.h"
#include "memory/resources.h"

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_AllocateMemory(VkDevice handle, const VkMemoryAllocateInfo* pAllocateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkDeviceMemory* pMemory) {
  Device* device = device_of(handle);
  const VkPhysicalDeviceMemoryProperties& props = device->physical_device->memory;
  const VkDeviceSize size = pAllocateInfo->allocationSize;
  if (pAllocateInfo->memoryTypeIndex >= props.memoryTypeCount) {
    KILN_LOG_ONCE(LogLevel::Error, "vkAllocateMemory: memory type %u does not exist", pAllocateInfo->memoryTypeIndex);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  const VkDeviceSize heap_size = props.memoryHeaps[0].size;
  if (size == 0 || size > kMaxResourceSize || size > heap_size) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  if (device->allocation_count.load() >= device_limits().maxMemoryAllocationCount) return VK_ERROR_TOO_MANY_OBJECTS;
  // Reserve heap budget first so concurrent allocations cannot overshoot it together.
  if (device->heap_used.fetch_add(size) + size > heap_size) {
    device->heap_used.fetch_sub(size);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  // An imported host allocation is used in place: Kiln's memory is host memory anyway.
  const auto* import = find_in_chain<VkImportMemoryHostPointerInfoEXT>(pAllocateInfo->pNext);
  const bool imported = import && import->handleType;
  if (imported) {
    if (!is_importable_host_pointer(import->handleType, import->pHostPointer) || size % kMinImportedHostPointerAlignment ||
        !(host_pointer_memory_types(props) & (1u << pAllocateInfo->memoryTypeIndex))) {
      KILN_LOG_ONCE(LogLevel::Error, "vkAllocateMemory: host pointer %p (%llu bytes, handle type 0x%x) cannot be imported",
                    import->pHostPointer, (unsigned long long)size, unsigned(import->handleType));
      device->heap_used.fetch_sub(size);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
    }
  }
  // Memory shared as an opaque fd lives in a file: made here when it may be exported, or the
  // imported one (which the allocation then owns).
  const auto* fd_import = find_in_chain<VkImportMemoryFdInfoKHR>(pAllocateInfo->pNext);
  const auto* fd_export = find_in_chain<VkExportMemoryAllocateInfo>(pAllocateInfo->pNext);
  SharedMemoryFile shared;
  if (fd_import && fd_import->handleType) {
    if (fd_import->handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
      shared = import_shared_memory(fd_import->fd, size);
    if (!shared.data) {
      KILN_LOG_ONCE(LogLevel::Error, "vkAllocateMemory: fd %d (handle type 0x%x) is not a file of %llu bytes to import",
                    fd_import->fd, unsigned(fd_import->handleType), (unsigned long long)size);
      device->heap_used.fetch_sub(size);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
    }
  } else if (fd_export && (fd_export->handleTypes & VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)) {
    shared = create_shared_memory(size);
    if (!shared.data) {
      device->heap_used.fetch_sub(size);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
  }
  const VkDeviceSize padded = (size + kResourceAlignment - 1) / kResourceAlignment * kResourceAlignment;
  uint8_t* data = imported       ? static_cast<uint8_t*>(import->pHostPointer)
                  : shared.data ? shared.data
                                : static_cast<uint8_t*>(std::aligned_alloc(kResourceAlignment, padded));
  const bool owned_heap = !imported && !shared.data;
  auto* memory = data ? create_object<mem::DeviceMemory>(choose_allocator(pAllocator, device->allocator),
                                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
                      : nullptr;
  if (!memory) {
    if (owned_heap) std::free(data);
    // A failed import leaves the fd the application's.
    if (shared.data && fd_import && fd_import->handleType) shared.fd = -1;
    release_shared_memory(shared);
    device->heap_used.fetch_sub(size);
    return data ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  memory->imported = imported;
  memory->fd = shared.fd;
  memory->mapped_length = shared.length;
  memory->data = data;
  memory->size = size;
  memory->type_index = pAllocateInfo->memoryTypeIndex;
  // Strict mode: new memory has no history, and its contents are poison (the application's own
  // host allocation and an imported file keep what they hold).
  if (device->strict) device->strict->new_memory(data, padded, /*poison=*/!imported && !(fd_import && fd_import->handleType));
  device->allocation_count.fetch_add(1);
  *pMemory = to_handle<VkDeviceMemory>(memory);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_FreeMemory(VkDevice handle, VkDeviceMemory memoryHandle,
                                                      const VkAllocationCallbacks* pAllocator) {
  Device* device = device_of(handle);
  auto* memory = from_handle<mem::DeviceMemory>(memoryHandle);
  if (!memory) return;
  device->heap_used.fetch_sub(memory->size);
  device->allocation_count.fetch_sub(1);
  if (memory->fd >= 0) release_shared_memory({memory->data, memory->mapped_length, memory->fd});
  else if (!memory->imported) std::free(memory->data);
  destroy_object(choose_allocator(pAllocator, device->allocator), memory);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_MapMemory(VkDevice, VkDeviceMemory memoryHandle, VkDeviceSize offset,
                                                         VkDeviceSize, VkMemoryMapFlags, void** ppData) {
  auto* memory = from_handle<mem::DeviceMemory>(memoryHandle);
  if (offset >= memory->size) {
    KILN_LOG_ONCE(LogLevel::Error, "vkMapMemory: offset %llu beyond the allocation", (unsigned long long)offset);
    return VK_ERROR_MEMORY_MAP_FAILED;
  }
  *ppData = memory->data + offset;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_UnmapMemory(VkDevice, VkDeviceMemory) {}

// All memory is host-coherent: flushes and invalidations have nothing to do.
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_FlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_InvalidateMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory memoryHandle,
                                                                     VkDeviceSize* pCommittedMemoryInBytes) {
  *pCommittedMemoryInBytes = from_handle<mem::DeviceMemory>(memoryHandle)->size;
}

namespace {

bool fits(const mem::DeviceMemory* memory, VkDeviceSize offset, VkDeviceSize size) {
  return memory && offset <= memory->size && size <= memory->size - offset;
}

VkResult bind_buffer(const VkBindBufferMemoryInfo& info) {
  auto* buffer = from_handle<mem::Buffer>(info.buffer);
  auto* memory = from_handle<mem::DeviceMemory>(info.memory);
  if (!fits(memory, info.memoryOffset, buffer->size) || info.memoryOffset % kResourceAlignment) {
    KILN_LOG_ONCE(LogLevel::Error, "vkBindBufferMemory: buffer does not fit at offset %llu",
                  (unsigned long long)info.memoryOffset);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  buffer->data = memory->data + info.memoryOffset;
  return VK_SUCCESS;
}

VkResult bind_image(const VkBindImageMemoryInfo& info) {
  auto* image = from_handle<mem::Image>(info.image);
  if (const auto* swapchain = find_in_chain<VkBindImageMemorySwapchainInfoKHR>(info.pNext)) {
    // VK_KHR_swapchain (Vulkan 1.1): the image aliases a swapchain image's memory.
    const std::vector<mem::Image*>& images = swapchain_of(swapchain->swapchain)->swapchain->images();
    if (swapchain->imageIndex >= images.size() ||
        image->layout.total_size() > images[swapchain->imageIndex]->layout.total_size()) {
      KILN_LOG_ONCE(LogLevel::Error, "vkBindImageMemory2: image does not fit swapchain image %u", swapchain->imageIndex);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    image->data = images[swapchain->imageIndex]->data;
    return VK_SUCCESS;
  }
  auto* memory = from_handle<mem::DeviceMemory>(info.memory);
  if (!fits(memory, info.memoryOffset, image->layout.total_size()) || info.memoryOffset % kResourceAlignment) {
    KILN_LOG_ONCE(LogLevel::Error, "vkBindImageMemory: image does not fit at offset %llu",
                  (unsigned long long)info.memoryOffset);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  image->data = memory->data + info.memoryOffset;
  return VK_SUCCESS;
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_BindBufferMemory(VkDevice, VkBuffer buffer, VkDeviceMemory memory,
                                                                VkDeviceSize memoryOffset) {
  return bind_buffer({VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, nullptr, buffer, memory, memoryOffset});
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_BindBufferMemory2(VkDevice, uint32_t count, const VkBindBufferMemoryInfo* pInfos) {
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i)
    if (VkResult r = bind_buffer(pInfos[i]); r != VK_SUCCESS) result = r;
  return result;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_BindImageMemory(VkDevice, VkImage image, VkDeviceMemory memory,
                                                               VkDeviceSize memoryOffset) {
  return bind_image({VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, nullptr, image, memory, memoryOffset});
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_BindImageMemory2(VkDevice, uint32_t count, const VkBindImageMemoryInfo* pInfos) {
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i)
    if (VkResult r = bind_image(pInfos[i]); r != VK_SUCCESS) result = r;
  return result;
}
