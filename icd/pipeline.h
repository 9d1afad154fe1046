#pragma once
// VkPipeline. Compute pipelines hold their JIT-compiled kernel; graphics pipelines arrive with
// the graphics issue.
#include <vulkan/vulkan.h>

#include <memory>

#include "compiler/compute_compiler.h"
#include "icd/object.h"
#include "icd/pipeline_binding.h"
#include "pipeline/compute_dispatch.h"

namespace kiln {

struct Pipeline {
  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const compiler::CompiledComputeKernel> compiled;  // keeps the kernel alive
  exec::ComputeKernel kernel;                                       // what dispatches run
};

inline Pipeline* pipeline_of(VkPipeline handle) { return from_handle<Pipeline>(handle); }

}  // namespace kiln
