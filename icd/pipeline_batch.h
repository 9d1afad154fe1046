#pragma once
// The create infos of one vkCreate*Pipelines call, created at once on the device's worker pool
// (the calling thread works too), with the results of creating them in order. A call where some
// create info asks for EARLY_RETURN_ON_FAILURE is created in order, stopping at its first failure
// (the application asked for an immediate return, and later pipelines must stay VK_NULL_HANDLE).
#include <vulkan/vulkan.h>

#include <functional>

namespace kiln {

struct Device;

// `create(i, &pipelines[i])` makes pipeline i; `flags(i)` are its create flags. Returns the first
// error in create-info order, else VK_PIPELINE_COMPILE_REQUIRED if any pipeline needed a compile
// it was not allowed, else VK_SUCCESS.
VkResult create_pipeline_batch(Device* device, uint32_t count, VkPipeline* pipelines,
                               const std::function<VkPipelineCreateFlags(uint32_t)>& flags,
                               const std::function<VkResult(uint32_t, VkPipeline*)>& create);

}  // namespace kiln
