// Descriptor updates: vkUpdateDescriptorSets (writes and copies) and descriptor update templates.
// Handles are resolved here; descriptor_memory.h turns descriptors into records and walks bindings.
#include <cstring>
#include <span>
#include <vector>

#include "common/log.h"
#include "icd/buffer_view.h"
#include "icd/descriptor_pool.h"
#include "icd/descriptor_set_layout.h"
#include "icd/device.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"
#include "memory/resources.h"

using namespace kiln;

namespace {

template <typename T>
T read_unaligned(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Descriptor `i` of an update whose descriptors are `data[0]`, `data[stride]`, …: a
// VkDescriptorBufferInfo, VkBufferView or VkDescriptorImageInfo depending on `type`.
desc::DescriptorSource source_at(VkDescriptorType type, const uint8_t* data, size_t stride, uint32_t i) {
  const uint8_t* element = data + size_t{i} * stride;
  desc::DescriptorSource source;
  switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
      const auto info = read_unaligned<VkDescriptorBufferInfo>(element);
      source.buffer = from_handle<mem::Buffer>(info.buffer);
      source.offset = info.offset;
      source.range = info.range;
      break;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      source.texel_view = from_handle<BufferView>(read_unaligned<VkBufferView>(element));
      break;
    default: {  // the image and sampler types
      const auto info = read_unaligned<VkDescriptorImageInfo>(element);
      source.image_view = image_view_record(info.imageView);
      source.sampler = sampler_record(info.sampler);
      break;
    }
  }
  return source;
}

// Writes `count` descriptors of `type` into `set` from (binding, element) on. For inline uniform
// blocks `element` and `count` are bytes and `data` the bytes; otherwise `data` holds one
// source_at() element every `stride` bytes. Bad input stops the write with one log line.
void write_to_set(const char* api, DescriptorSet* set, uint32_t binding, uint32_t element, uint32_t count,
                  VkDescriptorType type, const uint8_t* data, size_t stride) {
  if (count == 0) return;
  if (!set || !data) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: null descriptor set or descriptor data; write skipped", api);
    return;
  }
  const desc::SetLayoutDesc& layout = set->layout->desc;
  const desc::UpdateStatus status =
      desc::is_inline_uniform_block(type)
          ? desc::write_inline_uniform_block(layout, set->memory, binding, element, {data, count})
          : desc::write_descriptors(layout, set->memory, binding, element, count, type,
                                    [&](uint32_t i) { return source_at(type, data, stride, i); });
  if (status != desc::UpdateStatus::Done)
    KILN_LOG_ONCE(LogLevel::Error, "%s: binding %u element %u: %s; the rest of the write is skipped", api, binding,
                  element, desc::describe(status));
}

// Where a VkWriteDescriptorSet keeps its descriptors, and their stride.
std::pair<const uint8_t*, size_t> write_data(const VkWriteDescriptorSet& write) {
  switch (write.descriptorType) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      return {reinterpret_cast<const uint8_t*>(write.pBufferInfo), sizeof(VkDescriptorBufferInfo)};
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return {reinterpret_cast<const uint8_t*>(write.pTexelBufferView), sizeof(VkBufferView)};
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: {
      auto* block = find_in_chain<VkWriteDescriptorSetInlineUniformBlock>(write.pNext);
      if (!block || block->dataSize != write.descriptorCount) return {nullptr, 0};
      return {static_cast<const uint8_t*>(block->pData), 1};
    }
    default:
      return {reinterpret_cast<const uint8_t*>(write.pImageInfo), sizeof(VkDescriptorImageInfo)};
  }
}

struct DescriptorUpdateTemplate {
  VkDescriptorUpdateTemplateType type;
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
};

}  // namespace

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_UpdateDescriptorSets(VkDevice, uint32_t writeCount, const VkWriteDescriptorSet* pWrites,
                                                                uint32_t copyCount, const VkCopyDescriptorSet* pCopies) {
  for (uint32_t i = 0; i < writeCount; ++i) {
    const VkWriteDescriptorSet& w = pWrites[i];
    const auto [data, stride] = write_data(w);
    write_to_set("vkUpdateDescriptorSets", set_of(w.dstSet), w.dstBinding, w.dstArrayElement, w.descriptorCount,
                 w.descriptorType, data, stride);
  }
  for (uint32_t i = 0; i < copyCount; ++i) {
    const VkCopyDescriptorSet& c = pCopies[i];
    DescriptorSet* src = set_of(c.srcSet);
    DescriptorSet* dst = set_of(c.dstSet);
    if (!src || !dst) {
      KILN_LOG_ONCE(LogLevel::Error, "vkUpdateDescriptorSets: copy with a null descriptor set; skipped");
      continue;
    }
    const desc::UpdateStatus status =
        desc::copy_descriptors(src->layout->desc, src->memory, c.srcBinding, c.srcArrayElement, dst->layout->desc,
                               dst->memory, c.dstBinding, c.dstArrayElement, c.descriptorCount);
    if (status != desc::UpdateStatus::Done)
      KILN_LOG_ONCE(LogLevel::Error, "vkUpdateDescriptorSets: copy from binding %u to binding %u: %s; the rest is skipped",
                    c.srcBinding, c.dstBinding, desc::describe(status));
  }
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_CreateDescriptorUpdateTemplate(VkDevice handle,
                                                                              const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                                              const VkAllocationCallbacks* pAllocator,
                                                                              VkDescriptorUpdateTemplate* pTemplate) {
  Device* device = device_of(handle);
  auto* object = create_object<DescriptorUpdateTemplate>(choose_allocator(pAllocator, device->allocator),
                                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!object) return VK_ERROR_OUT_OF_HOST_MEMORY;
  object->type = pCreateInfo->templateType;
  object->entries.assign(pCreateInfo->pDescriptorUpdateEntries,
                         pCreateInfo->pDescriptorUpdateEntries + pCreateInfo->descriptorUpdateEntryCount);
  *pTemplate = to_handle<VkDescriptorUpdateTemplate>(object);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDescriptorUpdateTemplate(VkDevice handle, VkDescriptorUpdateTemplate updateTemplate,
                                                                           const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator),
                 from_handle<DescriptorUpdateTemplate>(updateTemplate));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                                           VkDescriptorUpdateTemplate updateTemplate,
                                                                           const void* pData) {
  auto* object = from_handle<DescriptorUpdateTemplate>(updateTemplate);
  const auto* data = static_cast<const uint8_t*>(pData);
  for (const VkDescriptorUpdateTemplateEntry& e : object->entries)
    write_to_set("vkUpdateDescriptorSetWithTemplate", set_of(descriptorSet), e.dstBinding, e.dstArrayElement,
                 e.descriptorCount, e.descriptorType, data ? data + e.offset : nullptr, e.stride);
}
