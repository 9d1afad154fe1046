// vkCmdPushDescriptorSetKHR and vkCmdPushDescriptorSetWithTemplateKHR (VK_KHR_push_descriptor).
// A push descriptor set has no VkDescriptorSet: its memory lives in the command list. Each push
// starts from a copy of the set's previous push (descriptors it does not write keep their values)
// and binds the copy, so dispatches recorded earlier keep the descriptors they captured.
#include "common/log.h"
#include "icd/command_buffer.h"
#include "icd/descriptor_update.h"
#include "icd/pipeline_layout.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// Fresh memory for push set `set` of `layout` in the command list, holding what the set held
// after its previous push (or null descriptors). Null (logged) when the set cannot be pushed.
uint8_t* begin_push(CommandBuffer* cb, const char* api, VkPipelineBindPoint bind_point, const PipelineLayout& layout,
                    uint32_t set, const desc::SetLayoutDesc** set_layout) {
  CommandBuffer::BindPointState* point = cb->bind_point(bind_point);
  if (!point) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: bind point %d is not supported; skipped", api, bind_point);
    return nullptr;
  }
  if (set >= layout.desc.sets.size() || layout.desc.sets[set].dynamic_count != 0) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: set %u is not a push descriptor set of the pipeline layout; skipped", api, set);
    return nullptr;
  }
  *set_layout = &layout.desc.sets[set];
  const uint32_t size = (*set_layout)->memory_size;
  CommandBuffer::BindPointState::PushedSet& previous = point->pushed_sets[set];
  uint8_t* memory;
  if (previous.memory && previous.size == size) {
    memory = command_list_set_memory(cb, size, previous.memory);
  } else {
    memory = command_list_set_memory(cb, size);
    desc::DynamicBufferSlot no_dynamic_buffers[1];
    desc::initialize_set_memory(**set_layout, {memory, no_dynamic_buffers, 0});  // immutable samplers
  }
  previous = {memory, size};
  return memory;
}

void bind_pushed(CommandBuffer* cb, VkPipelineBindPoint bind_point, uint32_t set, const uint8_t* memory) {
  CommandBuffer::BindPointState* point = cb->bind_point(bind_point);
  point->resources.descriptor_sets[set] = memory;
  point->resources.variable_counts[set] = 0;
}

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                                   VkPipelineLayout layout, uint32_t set, uint32_t writeCount,
                                                                   const VkWriteDescriptorSet* pWrites) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  const char* api = "vkCmdPushDescriptorSetKHR";
  const desc::SetLayoutDesc* set_layout = nullptr;
  uint8_t* memory = begin_push(cb, api, bindPoint, *pipeline_layout_of(layout), set, &set_layout);
  if (!memory) return;
  for (uint32_t i = 0; i < writeCount; ++i) write_descriptors(api, *set_layout, {memory, nullptr, 0}, pWrites[i]);
  bind_pushed(cb, bindPoint, set, memory);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                                               VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                               VkPipelineLayout layout, uint32_t set,
                                                                               const void* pData) {
  CommandBuffer* cb = command_buffer_of(commandBuffer);
  const char* api = "vkCmdPushDescriptorSetWithTemplateKHR";
  const DescriptorUpdateTemplate& update_template = *update_template_of(descriptorUpdateTemplate);
  const desc::SetLayoutDesc* set_layout = nullptr;
  uint8_t* memory = begin_push(cb, api, update_template.bind_point, *pipeline_layout_of(layout), set, &set_layout);
  if (!memory) return;
  apply_update_template(api, update_template, *set_layout, {memory, nullptr, 0}, pData);
  bind_pushed(cb, update_template.bind_point, set, memory);
}
