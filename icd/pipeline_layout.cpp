// vkCreatePipelineLayout, vkDestroyPipelineLayout, and binding descriptor sets into a kernel's
// resource context.
#include "icd/pipeline_layout.h"

#include <algorithm>
#include <vector>

#include "common/log.h"
#include "icd/descriptor_pool.h"
#include "icd/descriptor_set_layout.h"
#include "icd/device.h"
#include "kiln_entrypoints.h"

namespace kiln {

bool bind_descriptor_sets(const PipelineLayout& layout, uint32_t first_set, std::span<const VkDescriptorSet> sets,
                          std::span<const uint32_t> dynamic_offsets, abi::ResourceContext* context) {
  desc::BoundSet bound[abi::kMaxBoundDescriptorSets];
  const size_t count = std::min<size_t>(sets.size(), abi::kMaxBoundDescriptorSets);
  for (size_t i = 0; i < count; ++i) {
    if (const DescriptorSet* set = set_of(sets[i])) bound[i] = {set->memory.records, set->memory.dynamic_buffers, set->dynamic_count,
                                                           set->memory.variable_count};
  }
  const bool ok = count == sets.size() && desc::bind_sets(layout.desc, first_set, {bound, count}, dynamic_offsets, context);
  if (!ok)
    KILN_LOG_ONCE(LogLevel::Error, "vkCmdBindDescriptorSets: sets beyond the pipeline layout, or dynamic offsets missing "
                  "or past their buffers; those descriptors are bound as null");
  return ok;
}

}  // namespace kiln

using namespace kiln;

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreatePipelineLayout(VkDevice handle, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                                    const VkAllocationCallbacks* pAllocator,
                                                                    VkPipelineLayout* pPipelineLayout) {
  std::vector<const desc::SetLayoutDesc*> sets(pCreateInfo->setLayoutCount, nullptr);
  for (uint32_t i = 0; i < pCreateInfo->setLayoutCount; ++i)
    if (const DescriptorSetLayout* set = set_layout_of(pCreateInfo->pSetLayouts[i])) sets[i] = &set->desc;
  desc::PipelineLayoutDesc layout;
  const bool independent_sets = pCreateInfo->flags & VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT;
  if (const char* why = desc::build_pipeline_layout(sets, {pCreateInfo->pPushConstantRanges, pCreateInfo->pushConstantRangeCount},
                                                    independent_sets, &layout)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreatePipelineLayout: %s", why);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  Device* device = device_of(handle);
  auto* object = create_object<PipelineLayout>(choose_allocator(pAllocator, device->allocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
  object->desc = std::move(layout);
  *pPipelineLayout = to_handle<VkPipelineLayout>(object);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyPipelineLayout(VkDevice handle, VkPipelineLayout layout,
                                                                 const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), pipeline_layout_of(layout));
}
