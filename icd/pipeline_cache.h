#pragma once
// VkPipelineCache: the Vulkan header plus the compiler's kernel cache (object code by key).
#include <vulkan/vulkan.h>

#include "compiler/kernel_cache.h"
#include "icd/object.h"

namespace kiln {

struct PipelineCache {
  uint8_t uuid[VK_UUID_SIZE];
  compiler::KernelCache kernels;
};

inline PipelineCache* pipeline_cache_of(VkPipelineCache handle) { return from_handle<PipelineCache>(handle); }

}  // namespace kiln
