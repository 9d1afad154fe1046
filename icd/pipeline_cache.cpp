// VkPipelineCache. Kernels are cached in memory by hash inside the compiler, so creating a
// pipeline twice compiles once whether or not a cache is given. Persisting object code in
// vkGetPipelineCacheData is not implemented yet: the data is the spec's header only, and data
// from elsewhere is accepted and ignored (an application must cope with an empty cache).
#include <cstring>

#include "icd/device.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {
struct PipelineCache {
  uint8_t uuid[VK_UUID_SIZE];
};

VkPipelineCacheHeaderVersionOne header_of(const PipelineCache& cache, const VkPhysicalDeviceProperties& props) {
  VkPipelineCacheHeaderVersionOne h{};
  h.headerSize = sizeof h;
  h.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  h.vendorID = props.vendorID;
  h.deviceID = props.deviceID;
  memcpy(h.pipelineCacheUUID, cache.uuid, VK_UUID_SIZE);
  return h;
}
}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreatePipelineCache(VkDevice handle, const VkPipelineCacheCreateInfo*,
                                                                   const VkAllocationCallbacks* pAllocator, VkPipelineCache* pCache) {
  Device* device = device_of(handle);
  auto* cache = create_object<PipelineCache>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!cache) return VK_ERROR_OUT_OF_HOST_MEMORY;
  memcpy(cache->uuid, device->physical_device->properties.pipelineCacheUUID, VK_UUID_SIZE);
  *pCache = to_handle<VkPipelineCache>(cache);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyPipelineCache(VkDevice handle, VkPipelineCache cache,
                                                                const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), from_handle<PipelineCache>(cache));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPipelineCacheData(VkDevice handle, VkPipelineCache cache, size_t* pDataSize,
                                                                    void* pData) {
  const auto header = header_of(*from_handle<PipelineCache>(cache), device_of(handle)->physical_device->properties);
  if (!pData) {
    *pDataSize = sizeof header;
    return VK_SUCCESS;
  }
  if (*pDataSize < sizeof header) {
    *pDataSize = 0;
    return VK_INCOMPLETE;
  }
  memcpy(pData, &header, sizeof header);
  *pDataSize = sizeof header;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_MergePipelineCaches(VkDevice, VkPipelineCache, uint32_t, const VkPipelineCache*) {
  return VK_SUCCESS;
}
