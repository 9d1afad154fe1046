#include "icd/pipeline_batch.h"

#include <vector>

#include "icd/device.h"
#include "kiln_entrypoints.h"

namespace kiln {

VkResult create_pipeline_batch(Device* device, uint32_t count, VkPipeline* pipelines,
                               const std::function<VkPipelineCreateFlags(uint32_t)>& flags,
                               const std::function<VkResult(uint32_t, VkPipeline*)>& create,
                               const VkAllocationCallbacks* allocator) {
  std::vector<VkResult> results(count, VK_SUCCESS);
  for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
  device->worker_pool.parallel_for(count, [&](size_t i) { results[i] = create(uint32_t(i), &pipelines[i]); });
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i) {
    if (results[i] == VK_SUCCESS) continue;
    if (result >= 0) result = results[i];  // an error wins over COMPILE_REQUIRED (a success code)
    if (flags(i) & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) {
      // As if creation had stopped here: the later pipelines were made concurrently; undo them.
      for (uint32_t j = i + 1; j < count; ++j) {
        kiln_DestroyPipeline(to_handle<VkDevice>(device), pipelines[j], allocator);
        pipelines[j] = VK_NULL_HANDLE;
      }
      break;
    }
  }
  return result;
}

}  // namespace kiln
