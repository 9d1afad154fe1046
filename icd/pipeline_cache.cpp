// VkPipelineCache. Its data is the spec's header followed by the compiler's kernel cache
// (object code for this CPU). Data from another device, driver build or CPU is accepted and
// ignored, as the spec allows: the cache simply starts empty.
#include "icd/pipeline_cache.h"

#include <cstring>

#include "common/log.h"
#include "compiler/jit.h"
#include "icd/device.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

VkPipelineCacheHeaderVersionOne header_of(const PipelineCache& cache, const VkPhysicalDeviceProperties& props) {
  VkPipelineCacheHeaderVersionOne h{};
  h.headerSize = sizeof h;
  h.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  h.vendorID = props.vendorID;
  h.deviceID = props.deviceID;
  memcpy(h.pipelineCacheUUID, cache.uuid, VK_UUID_SIZE);
  return h;
}

// Loads `data` into `cache` when its header is ours; otherwise the cache stays empty.
void load_initial_data(PipelineCache* cache, const VkPhysicalDeviceProperties& props, const void* data, size_t size) {
  const VkPipelineCacheHeaderVersionOne expected = header_of(*cache, props);
  if (!data || size < sizeof expected) return;
  VkPipelineCacheHeaderVersionOne given;
  memcpy(&given, data, sizeof given);
  if (memcmp(&given, &expected, sizeof given) != 0) {
    log(LogLevel::Info, "vkCreatePipelineCache: initial data is from another device or driver build; ignored");
    return;
  }
  const auto* bytes = static_cast<const uint8_t*>(data) + sizeof given;
  if (!cache->kernels.deserialize({bytes, size - sizeof given}, compiler::Jit::instance().cpu_name()))
    log(LogLevel::Info, "vkCreatePipelineCache: initial data is for another CPU or damaged; ignored");
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreatePipelineCache(VkDevice handle, const VkPipelineCacheCreateInfo* pCreateInfo,
                                                                   const VkAllocationCallbacks* pAllocator, VkPipelineCache* pCache) {
  Device* device = device_of(handle);
  auto* cache = create_object<PipelineCache>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!cache) return VK_ERROR_OUT_OF_HOST_MEMORY;
  const VkPhysicalDeviceProperties& props = device->physical_device->properties;
  memcpy(cache->uuid, props.pipelineCacheUUID, VK_UUID_SIZE);
  load_initial_data(cache, props, pCreateInfo->pInitialData, pCreateInfo->initialDataSize);
  *pCache = to_handle<VkPipelineCache>(cache);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyPipelineCache(VkDevice handle, VkPipelineCache cache,
                                                                const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), pipeline_cache_of(cache));
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPipelineCacheData(VkDevice handle, VkPipelineCache cacheHandle,
                                                                    size_t* pDataSize, void* pData) {
  PipelineCache* cache = pipeline_cache_of(cacheHandle);
  const auto header = header_of(*cache, device_of(handle)->physical_device->properties);
  const std::vector<uint8_t> body = cache->kernels.serialize(compiler::Jit::instance().cpu_name());
  const size_t total = sizeof header + body.size();
  if (!pData) {
    *pDataSize = total;
    return VK_SUCCESS;
  }
  if (*pDataSize < total) {
    // Too small for everything: nothing partial (the body is not divisible), as the spec allows.
    *pDataSize = 0;
    return VK_INCOMPLETE;
  }
  memcpy(pData, &header, sizeof header);
  memcpy(static_cast<uint8_t*>(pData) + sizeof header, body.data(), body.size());
  *pDataSize = total;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_MergePipelineCaches(VkDevice, VkPipelineCache dst, uint32_t count,
                                                                   const VkPipelineCache* pSrcCaches) {
  for (uint32_t i = 0; i < count; ++i) pipeline_cache_of(dst)->kernels.merge(pipeline_cache_of(pSrcCaches[i])->kernels);
  return VK_SUCCESS;
}
