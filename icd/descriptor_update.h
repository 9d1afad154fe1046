#pragma once
// Descriptor writes as vkUpdateDescriptorSets, update templates and push descriptors make them:
// resolve the application's handles and store records into set memory (descriptor_memory.h).
// Bad input stops a write with one log line; the elements before it are written.
#include <vulkan/vulkan.h>

#include <vector>

#include "icd/descriptor_memory.h"
#include "icd/object.h"

namespace kiln {

// Applies `write` (its dstSet is ignored) to `memory`, laid out by `layout`.
void write_descriptors(const char* api, const desc::SetLayoutDesc& layout, const desc::SetMemory& memory,
                       const VkWriteDescriptorSet& write);

struct DescriptorUpdateTemplate {
  VkDescriptorUpdateTemplateType type;
  VkPipelineBindPoint bind_point;  // push-descriptor templates: where the pushed set is bound
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
};

inline DescriptorUpdateTemplate* update_template_of(VkDescriptorUpdateTemplate handle) {
  return from_handle<DescriptorUpdateTemplate>(handle);
}

// Applies every entry of `update_template`, reading the descriptors from the application's `data`.
void apply_update_template(const char* api, const DescriptorUpdateTemplate& update_template,
                           const desc::SetLayoutDesc& layout, const desc::SetMemory& memory, const void* data);

}  // namespace kiln
