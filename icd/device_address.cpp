// Buffer device addresses (bufferDeviceAddress). All device memory is host memory, so a buffer's
// device address is simply the host address of its bound memory: shaders dereference it directly
// (compiler/translate_memory.cpp, PhysicalStorageBuffer pointers) and no translation table exists.
//
// Capture/replay is not supported (bufferDeviceAddressCaptureReplay = FALSE): host allocations
// cannot be placed at a requested address, so there is no opaque address to hand out, and the
// opaque-capture queries answer 0 ("no capture address").
#include "common/log.h"
#include "icd/device.h"
#include "kiln_entrypoints.h"
#include "memory/resources.h"

using namespace kiln;

extern "C" VKAPI_ATTR VkDeviceAddress VKAPI_CALL kiln_GetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
  const auto* buffer = from_handle<mem::Buffer>(pInfo->buffer);
  if (!buffer->data) {
    KILN_LOG_ONCE(LogLevel::Error, "vkGetBufferDeviceAddress: the buffer is not bound to memory");
    return 0;
  }
  return reinterpret_cast<VkDeviceAddress>(buffer->data);
}

extern "C" VKAPI_ATTR uint64_t VKAPI_CALL kiln_GetBufferOpaqueCaptureAddress(VkDevice, const VkBufferDeviceAddressInfo*) {
  return 0;
}

extern "C" VKAPI_ATTR uint64_t VKAPI_CALL kiln_GetDeviceMemoryOpaqueCaptureAddress(VkDevice,
                                                                                  const VkDeviceMemoryOpaqueCaptureAddressInfo*) {
  return 0;
}
