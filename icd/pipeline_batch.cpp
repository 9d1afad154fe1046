#include "icd/pipeline_batch.h"

#include <vector>

#include "icd/device.h"

namespace kiln {

VkResult create_pipeline_batch(Device* device, uint32_t count, VkPipeline* pipelines,
                               const std::function<VkPipelineCreateFlags(uint32_t)>& flags,
                               const std::function<VkResult(uint32_t, VkPipeline*)>& create) {
  std::vector<VkResult> results(count, VK_SUCCESS);
  for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
  bool early_return = false;
  for (uint32_t i = 0; i < count; ++i) early_return |= (flags(i) & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
  if (early_return) {
    // The application wants creation to stop at the first failure, at once: in order, one by one.
    for (uint32_t i = 0; i < count; ++i) {
      results[i] = create(i, &pipelines[i]);
      if (results[i] != VK_SUCCESS && (flags(i) & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)) break;
    }
  } else {
    device->worker_pool.parallel_for(count, [&](size_t i) { results[i] = create(uint32_t(i), &pipelines[i]); });
    // In order, a pipeline that may not compile can use a kernel an earlier create info of the same
    // call compiled; concurrently it may have looked before that kernel existed. Look again.
    for (uint32_t i = 1; i < count; ++i)
      if (results[i] == VK_PIPELINE_COMPILE_REQUIRED) results[i] = create(i, &pipelines[i]);
  }
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i)
    if (results[i] != VK_SUCCESS && result >= 0) result = results[i];  // an error wins over COMPILE_REQUIRED (a success code)
  return result;
}

}  // namespace kiln
