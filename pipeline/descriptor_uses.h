#pragma once
// What a pipeline's shaders reach through descriptors: per stage, the bindings its code uses and
// whether it may write through them (compiler/binding_usage.h), placed in the pipeline layout.
// Made at pipeline creation in strict mode only; strict mode reads the bound descriptors through
// it to know which memory a dispatch or draw reads and writes (pipeline/strict/command_accesses.h).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace kiln::exec {

struct DescriptorUse {
  VkPipelineStageFlags2 stage = 0;  // one shader stage
  uint32_t set = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
  uint32_t offset = 0;         // of element 0 in the set's memory (not for dynamic buffers)
  uint32_t count = 0;          // elements (the layout's maximum for a variable-count binding)
  bool variable_count = false;  // the set's variable-count binding: ResourceContext::variable_counts
  uint32_t dynamic_slot = 0;    // dynamic buffers: element 0's slot in ResourceContext::dynamic_buffers
  bool read = false, written = false, atomic = false;  // compiler::BindingUsage
};

struct DescriptorUses {
  std::vector<DescriptorUse> uses;
};

}  // namespace kiln::exec
