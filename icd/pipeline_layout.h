#pragma once
// VkPipelineLayout, and the helper that turns vkCmdBindDescriptorSets into what kernels read.
#include <vulkan/vulkan.h>

#include <span>

#include "common/abi/kernel_abi.h"
#include "icd/object.h"
#include "icd/pipeline_binding.h"

namespace kiln {

struct PipelineLayout {
  desc::PipelineLayoutDesc desc;  // self-contained: the set layouts may already be destroyed
};

inline PipelineLayout* pipeline_layout_of(VkPipelineLayout handle) { return from_handle<PipelineLayout>(handle); }

// The effect of vkCmdBindDescriptorSets(layout, first_set, sets, dynamic_offsets) on `context`:
// context->descriptor_sets[first_set + i] = the memory of sets[i], and the sets' dynamic buffers,
// with the dynamic offsets applied and their ranges clamped to their buffers, in their slots of
// context->dynamic_buffers (desc::bind_sets). Sets outside [first_set, first_set + sets.size())
// are left as they are. VK_NULL_HANDLE sets bind as unbound (nullptr).
//
// The dynamic buffers' addresses are read from the sets now, at record time: dynamic buffers cannot
// be update-after-bind, so updating them invalidates the command buffer. Every other descriptor is
// read by the kernel from set memory when it runs, which is what makes update-after-bind work. Returns false, with one log line, on bad input (sets beyond
// the layout, missing or out-of-range dynamic offsets); the bad parts bind as null descriptors.
bool bind_descriptor_sets(const PipelineLayout& layout, uint32_t first_set, std::span<const VkDescriptorSet> sets,
                          std::span<const uint32_t> dynamic_offsets, abi::ResourceContext* context);

}  // namespace kiln
