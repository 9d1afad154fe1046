#pragma once
// What a strict device's kernels report (KILN_STRICT=1, docs/strict-mode.md): out-of-bounds buffer
// and image accesses where they are undefined behaviour, and buffer loads that read poison (memory
// nothing wrote). With robust buffer or image access the out-of-bounds accesses are defined (reads
// return zero, writes are dropped), so reporting them would report a correct program.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

namespace kiln {

struct Device;

// abi::kShaderFault* bits for a pipeline: 0 unless `device` is strict. Buffer bounds unless buffers
// are robust for the pipeline: robustBufferAccess(2) on the device (unless the pipeline's
// VkPipelineRobustnessCreateInfoEXT, in `pipeline_next`, or a stage's disables it) or robust
// storage/uniform buffers asked for by the pipeline or any of its `stages`. Image bounds likewise
// with robustImageAccess(2) and the images behaviour. Poison reads always.
uint32_t strict_shader_reports(const Device& device, const void* pipeline_next,
                               std::span<const VkPipelineShaderStageCreateInfo> stages);

}  // namespace kiln
