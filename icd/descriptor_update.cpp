// Descriptor updates: vkUpdateDescriptorSets (writes and copies) and descriptor update templates.
// Handles are resolved here; descriptor_memory.h turns descriptors into records and walks bindings.
#include "icd/descriptor_update.h"

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

// Writes `count` descriptors of `type` into `memory` from (binding, element) on. For inline uniform
// blocks `element` and `count` are bytes and `data` the bytes; otherwise `data` holds one
// source_at() element every `stride` bytes. Bad input stops the write with one log line.
void write_to_memory(const char* api, const desc::SetLayoutDesc& layout, const desc::SetMemory& memory, uint32_t binding,
                     uint32_t element, uint32_t count, VkDescriptorType type, const uint8_t* data, size_t stride) {
  if (count == 0) return;
  if (!data) {
    KILN_LOG_ONCE(LogLevel::Error, "%s: null descriptor data; write skipped", api);
    return;
  }
  const desc::UpdateStatus status =
      desc::is_inline_uniform_block(type)
          ? desc::write_inline_uniform_block(layout, memory, binding, element, {data, count})
          : desc::write_descriptors(layout, memory, binding, element, count, type,
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

}  // namespace

namespace kiln {

void write_descriptors(const char* api, const desc::SetLayoutDesc& layout, const desc::SetMemory& memory,
                       const VkWriteDescriptorSet& write) {
  const auto [data, stride] = write_data(write);
  write_to_memory(api, layout, memory, write.dstBinding, write.dstArrayElement, write.descriptorCount,
                  write.descriptorType, data, stride);
}

void apply_update_template(const char* api, const DescriptorUpdateTemplate& update_template,
                           const desc::SetLayoutDesc& layout, const desc::SetMemory& memory, const void* data) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (const VkDescriptorUpdateTemplateEntry& e : update_template.entries)
    write_to_memory(api, layout, memory, e.dstBinding, e.dstArrayElement, e.descriptorCount, e.descriptorType,
                    bytes ? bytes + e.offset : nullptr, e.stride);
}

}  // namespace kiln

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_UpdateDescriptorSets(VkDevice, uint32_t writeCount, const VkWriteDescriptorSet* pWrites,
                                                                uint32_t copyCount, const VkCopyDescriptorSet* pCopies) {
  for (uint32_t i = 0; i < writeCount; ++i) {
    const DescriptorSet* set = set_of(pWrites[i].dstSet);
    if (!set) {
      KILN_LOG_ONCE(LogLevel::Error, "vkUpdateDescriptorSets: write to a null descriptor set; skipped");
      continue;
    }
    write_descriptors("vkUpdateDescriptorSets", set->layout->desc, set->memory, pWrites[i]);
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
  object->bind_point = pCreateInfo->pipelineBindPoint;
  object->entries.assign(pCreateInfo->pDescriptorUpdateEntries,
                         pCreateInfo->pDescriptorUpdateEntries + pCreateInfo->descriptorUpdateEntryCount);
  *pTemplate = to_handle<VkDescriptorUpdateTemplate>(object);
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_DestroyDescriptorUpdateTemplate(VkDevice handle, VkDescriptorUpdateTemplate updateTemplate,
                                                                           const VkAllocationCallbacks* pAllocator) {
  destroy_object(choose_allocator(pAllocator, device_of(handle)->allocator),
                 update_template_of(updateTemplate));
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                                           VkDescriptorUpdateTemplate updateTemplate,
                                                                           const void* pData) {
  const DescriptorSet* set = set_of(descriptorSet);
  if (!set) {
    KILN_LOG_ONCE(LogLevel::Error, "vkUpdateDescriptorSetWithTemplate: null descriptor set; skipped");
    return;
  }
  apply_update_template("vkUpdateDescriptorSetWithTemplate", *update_template_of(updateTemplate), set->layout->desc,
                        set->memory, pData);
}
