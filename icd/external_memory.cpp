// External objects: Kiln imports host allocations as device memory (VK_EXT_external_memory_host:
// all of Kiln's memory is host memory, so an imported allocation is used in place), and shares
// memory as opaque file descriptors (VK_KHR_external_memory_fd): such an allocation lives in a
// memfd mapped shared, so another device or process that maps the same file sees the same bytes.
// The core 1.1 query says so for buffers, and vkGetPhysicalDeviceImageFormatProperties2 for
// images (fences and semaphores: icd/external_sync.cpp).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
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

VkExternalMemoryProperties external_memory_properties(VkExternalMemoryHandleTypeFlagBits type) {
  if (is_host_pointer_handle(type)) return {VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, 0, VkExternalMemoryHandleTypeFlags(type)};
  if (type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)
    return {VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT,
            VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  return {};
}

namespace {

size_t whole_pages(VkDeviceSize size) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return size_t((size + page - 1) / page * page);
}

SharedMemoryFile map_shared(int fd, size_t length) {
  void* data = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return {};
  return {static_cast<uint8_t*>(data), length, fd};
}

}  // namespace

SharedMemoryFile create_shared_memory(VkDeviceSize size) {
  const size_t length = whole_pages(size);
  const int fd = memfd_create("kiln-device-memory", MFD_CLOEXEC);
  if (fd < 0) return {};
  SharedMemoryFile file = ftruncate(fd, off_t(length)) == 0 ? map_shared(fd, length) : SharedMemoryFile{};
  if (!file.data) close(fd);
  return file;
}

SharedMemoryFile import_shared_memory(int fd, VkDeviceSize size) {
  // Whole pages past the end of the file would fault when touched, so the file must hold the
  // allocation; the last page may be partial (the kernel maps its tail as zeros).
  struct stat st{};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || VkDeviceSize(st.st_size) < size) return {};
  return map_shared(fd, whole_pages(size));
}

void release_shared_memory(const SharedMemoryFile& file) {
  if (file.data) munmap(file.data, file.length);
  if (file.fd >= 0) close(file.fd);
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo* pExternalBufferInfo,
    VkExternalBufferProperties* pExternalBufferProperties) {
  pExternalBufferProperties->externalMemoryProperties = external_memory_properties(pExternalBufferInfo->handleType);
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

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetMemoryFdKHR(VkDevice, const VkMemoryGetFdInfoKHR* pGetFdInfo, int* pFd) {
  const auto* memory = from_handle<mem::DeviceMemory>(pGetFdInfo->memory);
  if (pGetFdInfo->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT || memory->fd < 0) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetMemoryFdKHR: memory was not allocated exportable as an opaque fd (handle type 0x%x)",
                  unsigned(pGetFdInfo->handleType));
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  // Each call gives the application a descriptor of its own to close or import.
  const int fd = fcntl(memory->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  *pFd = fd;
  return VK_SUCCESS;
}

// Only for handle types other than OPAQUE_FD (dma-bufs), which Kiln does not import.
extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetMemoryFdPropertiesKHR(VkDevice, VkExternalMemoryHandleTypeFlagBits handleType,
                                                                        int, VkMemoryFdPropertiesKHR*) {
  KILN_LOG_ONCE(LogLevel::Error, "vkGetMemoryFdPropertiesKHR: handle type 0x%x is not importable", unsigned(handleType));
  return VK_ERROR_INVALID_EXTERNAL_HANDLE;
}
