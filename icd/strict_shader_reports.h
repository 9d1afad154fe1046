#pragma once
// Which pipelines' kernels report out-of-bounds buffer accesses in strict mode (KILN_STRICT=1,
// docs/strict-mode.md): those of a strict device whose out-of-bounds accesses are undefined
// behaviour. With robust buffer access they are defined (reads return zero or in-bounds values,
// writes are dropped), so reporting them would report a correct program.
#include <vulkan/vulkan.h>

#include <span>

namespace kiln {

struct Device;

// False unless `device` is strict; then true unless buffer accesses are robust for the pipeline:
// robustBufferAccess(2) enabled on the device (unless VkPipelineRobustnessCreateInfoEXT of the
// pipeline, `pipeline_next`, or of a stage disables it), or robust storage/uniform buffers asked
// for by the pipeline or any of its `stages`.
bool reports_out_of_bounds(const Device& device, const void* pipeline_next,
                           std::span<const VkPipelineShaderStageCreateInfo> stages);

}  // namespace kiln
