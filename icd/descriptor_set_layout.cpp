// vkCreateDescriptorSetLayout, vkDestroyDescriptorSetLayout, vkGetDescriptorSetLayoutSupport.
#include "icd/descriptor_set_layout.h"

#include <span>

#include "common/log.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

using namespace kiln;

namespace {

// The layout `info` describes; nullptr on success, else why Kiln cannot make it.
const char* build_layout(const VkDescriptorSetLayoutCreateInfo& info, desc::SetLayoutDesc* out) {
  std::span<const VkDescriptorBindingFlags> flags;
  if (auto* f = find_in_chain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(info.pNext); f && f->bindingCount > 0)
    flags = {f->pBindingFlags, f->bindingCount};
  return desc::build_set_layout({info.pBindings, info.bindingCount}, flags, sampler_record, out);
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateDescriptorSetLayout(VkDevice handle,
                                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                                         const VkAllocationCallbacks* pAllocator,
                                                                         VkDescriptorSetLayout* pSetLayout) {
  desc::SetLayoutDesc layout;
  if (const char* why = build_layout(*pCreateInfo, &layout)) {
    KILN_LOG_ONCE(LogLevel::Error, "vkCreateDescriptorSetLayout: %s (check vkGetDescriptorSetLayoutSupport)", why);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  Device* device = device_of(handle);
  auto* object = create_object<DescriptorSetLayout>(choose_allocator(pAllocator, device->allocator),
                                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
  object->desc = std::move(layout);
  object->flags = pCreateInfo->flags;
  *pSetLayout = to_handle<VkDescriptorSetLayout>(object);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDescriptorSetLayout(VkDevice handle, VkDescriptorSetLayout layout,
                                                                      const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator), set_layout_of(layout));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetDescriptorSetLayoutSupport(VkDevice, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                                         VkDescriptorSetLayoutSupport* pSupport) {
  desc::SetLayoutDesc layout;
  const bool supported = build_layout(*pCreateInfo, &layout) == nullptr;
  pSupport->supported = supported ? VK_TRUE : VK_FALSE;
  if (auto* variable = find_in_chain_mut<VkDescriptorSetVariableDescriptorCountLayoutSupport>(pSupport->pNext))
    variable->maxVariableDescriptorCount = supported ? layout.max_variable_count() : 0;
}
